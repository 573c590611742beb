import { requireAdmin } from '~/modules/auth/index.server';
import { parseOrderFilters } from '~/modules/orders';
import { ordersCsvStream } from '~/modules/orders/index.server';

import type { Route } from './+types/orders-export';

/** The list's orders (same filters, every page) as a spreadsheet, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context.db, request);
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  const { timezone } = await context.settings.get();
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date());
  return new Response(ordersCsvStream(context.db, filters, { timeZone: timezone }), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="pedidos-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
