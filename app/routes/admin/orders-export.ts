import { todayIn } from '~/lib/periods';
import { requireAdmin } from '~/modules/auth/index.server';
import { parseOrderFilters } from '~/modules/orders/index.admin';
import { ordersCsvStream } from '~/modules/orders/index.admin.server';

import type { Route } from './+types/orders-export';

/** The list's orders (same filters, every page) as a spreadsheet, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  const { timezone } = await context.settings.get();
  return new Response(ordersCsvStream(context.db, filters, { timeZone: timezone }), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="pedidos-${todayIn(timezone)}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
