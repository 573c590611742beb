import { requireAdmin } from '~/modules/auth/index.server';
import { exportProductsCsv } from '~/modules/catalog/index.server';

import type { Route } from './+types/products-export';

/** Every product as a spreadsheet Excel opens in Brazil (see catalog/product-csv.ts). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context.db, request);
  const csv = await exportProductsCsv(context.db);
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
    new Date(),
  );
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="produtos-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
