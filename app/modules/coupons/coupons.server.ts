import { and, eq, gt, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import type { ClaimPart } from '~/db/prepared-statements.server';
import { createVersionCache, type FeedVersion } from '~/db/version-cache.server';
import type { CouponTerms } from '~/modules/pricing';

import { COUPON_MESSAGES } from './messages';
import { coupons } from './schema';

/** A coupon the shopper may hold: its pricing terms and the limits checked at checkout. */
export interface ShopperCoupon extends CouponTerms {
  usageLimitPerCustomer: number | null;
  firstPurchaseOnly: boolean;
}

export type CouponCheck =
  | { ok: true; coupon: ShopperCoupon }
  /** `unknown`: the code names no coupon a shopper can hold (a guess that missed). */
  | { ok: false; message: string; unknown?: true };

type CouponRow = typeof coupons.$inferSelect;

/**
 * Coupons as read, per instance, while no coupon changes (drizzle/0021 announces each change):
 * a checkout reads its coupon on the page and again in the order. A coupon with a usage limit
 * is never kept, since the uses that every order takes are not announced; nor is it needed
 * for the order's sake: taking the use checks the coupon again in the transaction.
 */
const couponRows = createVersionCache<CouponRow | null>({
  maxEntries: 1_000,
  maxAgeMs: 5 * 60_000,
  keep: (row) => row === null || row.usageLimit === null,
});

/**
 * The coupon with this code if a shopper may use it now: active, within its dates, not used up.
 * What depends on the cart (minimum, products) is pricing's check; what depends on the shopper
 * (uses per customer, first purchase) is the checkout's. With `changes` (the feed's view of
 * the coupons table) the row may come from this instance's cache.
 */
export async function findUsableCoupon(
  db: Db,
  code: string,
  { now = new Date(), changes }: { now?: Date; changes?: FeedVersion } = {},
): Promise<CouponCheck> {
  const row = await couponRows(changes, code, async () => {
    const [found] = await db.select().from(coupons).where(eq(coupons.code, code)).limit(1);
    return found ?? null;
  });
  // A coupon staff turned off, or one whose campaign has not started, reads as unknown: a
  // shopper needs no more than that, and a guesser must not learn of campaigns to come.
  if (!row || !row.active || (row.startsAt && row.startsAt > now)) {
    return { ok: false, message: COUPON_MESSAGES.unknown(code), unknown: true };
  }
  if (row.endsAt && row.endsAt <= now) return { ok: false, message: COUPON_MESSAGES.expired(code) };
  if (row.usageLimit !== null && row.usedCount >= row.usageLimit) {
    return { ok: false, message: COUPON_MESSAGES.usedUp(code) };
  }
  return {
    ok: true,
    coupon: {
      id: row.id,
      code: row.code,
      kind: row.kind,
      value: row.value,
      minSubtotalCents: row.minSubtotalCents,
      productIds: row.productIds,
      categoryIds: row.categoryIds,
      usageLimitPerCustomer: row.usageLimitPerCustomer,
      firstPurchaseOnly: row.firstPurchaseOnly,
    },
  };
}

/**
 * Takes one use of the coupon with the order, as its stock: one conditional update, a part of the
 * order's statement (ADR 056), so concurrent checkouts can never take more uses than
 * `usage_limit`. It takes nothing when none is left, or the coupon is no longer usable at `now`
 * (turned off, not started, ended): the terms the order was priced with may have come from a
 * cache.
 */
export function couponUsePart(couponId: string, now: Date): ClaimPart<Db> {
  return {
    key: 'coupon',
    build: couponUse,
    values: { couponId, couponNow: now.toISOString() },
  };
}

function couponUse(db: Db, after: SQL) {
  const now = sql`${sql.placeholder('couponNow')}::timestamptz`;
  return db
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} + 1` })
    .where(
      and(
        eq(coupons.id, sql.placeholder('couponId')),
        eq(coupons.active, true),
        or(isNull(coupons.usageLimit), lt(coupons.usedCount, coupons.usageLimit)),
        or(isNull(coupons.startsAt), lte(coupons.startsAt, now)),
        or(isNull(coupons.endsAt), gt(coupons.endsAt, now)),
        after,
      ),
    )
    .returning({ id: coupons.id });
}

/** Gives a use back: the order that took it was cancelled, expired unpaid or deleted unpaid. */
export async function releaseCouponUse(tx: Db, couponId: string): Promise<void> {
  await tx
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} - 1` })
    .where(and(eq(coupons.id, couponId), gt(coupons.usedCount, 0)));
}
