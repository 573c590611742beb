import { eq, inArray, ne, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { distinctUuids } from '~/lib/uuid';

import { orderAdjustments, orders } from './schema';

/** The orders that used one coupon: how many, and what they came to. */
export interface CouponOrderStats {
  orders: number;
  revenueCents: number;
}

/**
 * For each of these coupons, the orders that used it and are not cancelled, with the sum of
 * their totals; a coupon no such order used is absent from the map.
 */
export async function couponOrderStats(
  db: Db,
  couponIds: readonly string[],
): Promise<Map<string, CouponOrderStats>> {
  const ids = distinctUuids(couponIds);
  if (ids.length === 0) return new Map();
  // Each order once per coupon, however many of its adjustments name it.
  const used = db
    .selectDistinct({ couponId: orderAdjustments.couponId, orderId: orderAdjustments.orderId })
    .from(orderAdjustments)
    .where(inArray(orderAdjustments.couponId, ids))
    .as('used');
  const rows = await db
    .select({
      couponId: used.couponId,
      orders: sql<number>`count(*)::int`.mapWith(Number),
      // bigint: a popular coupon's orders may pass 2^31 cents; drivers answer it as text.
      revenueCents: sql<number>`coalesce(sum(${orders.totalAmountCents}), 0)::bigint`.mapWith(
        Number,
      ),
    })
    .from(used)
    .innerJoin(orders, eq(orders.id, used.orderId))
    .where(ne(orders.status, 'cancelled'))
    .groupBy(used.couponId);
  return new Map(
    rows.map((row) => [row.couponId!, { orders: row.orders, revenueCents: row.revenueCents }]),
  );
}
