import { todayIn } from '~/lib/periods';
import { requireAdmin } from '~/modules/auth/index.server';
import { exportProductsCsv } from '~/modules/catalog/index.admin.server';

import type { Route } from './+types/products-export';

/** Every product as a spreadsheet Excel opens in Brazil (see catalog/product-csv.ts). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const csv = await exportProductsCsv(context.db);
  const { timezone } = await context.settings.get();
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="produtos-${todayIn(timezone)}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
