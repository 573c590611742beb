import { todayIn } from '~/lib/periods';
import { requireAdmin } from '~/modules/auth/index.server';
import { couponsCsv, listAllCoupons } from '~/modules/coupons/index.admin.server';
import { couponOrderStats } from '~/modules/orders/index.admin.server';

import type { Route } from './+types/coupons-export';

/** Every coupon with its uses and the orders that used it, as a spreadsheet. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { timezone } = await context.settings.get();
  const coupons = await listAllCoupons(context.db);
  const stats = await couponOrderStats(
    context.db,
    coupons.map((coupon) => coupon.id),
  );
  const rows = coupons.map((coupon) => ({
    ...coupon,
    orders: stats.get(coupon.id)?.orders ?? 0,
    revenueCents: stats.get(coupon.id)?.revenueCents ?? 0,
  }));
  return new Response(couponsCsv(rows, { timeZone: timezone, now: new Date() }), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="cupons-${todayIn(timezone)}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
