import { formatDateTime } from '~/lib/date-format';
import { formatCents } from '~/lib/money';
import { wallClockIn } from '~/lib/periods';
import { formatReaisInput } from '~/lib/reais';

import type { AdminCoupon } from './admin-coupons.server';
import type { CouponListRow } from './admin-types';
import { couponState, couponValueText } from './coupon-form';

/** 'De 01/12/2026 às 10:00 até 31/12/2026 às 23:59', 'A partir de …', 'Até …' or 'Sem prazo'. */
function validityText(coupon: AdminCoupon, timeZone: string): string {
  const from = coupon.startsAt && formatDateTime(coupon.startsAt, timeZone);
  const to = coupon.endsAt && formatDateTime(coupon.endsAt, timeZone);
  if (from && to) return `De ${from} até ${to}`;
  if (from) return `A partir de ${from}`;
  if (to) return `Até ${to}`;
  return 'Sem prazo';
}

/**
 * A coupon as the list and its edit form show it, with the orders that used it (read by the
 * orders domain) and the names of its chosen products (read by the catalogue).
 */
export function couponListRow(
  coupon: AdminCoupon,
  context: {
    stats: { orders: number; revenueCents: number } | undefined;
    productNames: ReadonlyMap<string, string>;
    timeZone: string;
    now: Date;
  },
): CouponListRow {
  const { timeZone } = context;
  return {
    id: coupon.id,
    code: coupon.code,
    kind: coupon.kind,
    valueText: couponValueText(coupon.kind, coupon.value),
    minimumText: coupon.minSubtotalCents > 0 ? formatCents(coupon.minSubtotalCents) : null,
    validityText: validityText(coupon, timeZone),
    usedCount: coupon.usedCount,
    usageLimit: coupon.usageLimit,
    orders: context.stats?.orders ?? 0,
    revenueCents: context.stats?.revenueCents ?? 0,
    state: couponState(coupon, context.now),
    active: coupon.active,
    canDelete: coupon.usedCount === 0 && !context.stats,
    form: {
      code: coupon.code,
      kind: coupon.kind,
      value:
        coupon.kind === 'percent'
          ? String(coupon.value)
          : coupon.kind === 'fixed'
            ? formatReaisInput(coupon.value)
            : '',
      minSubtotal: coupon.minSubtotalCents > 0 ? formatReaisInput(coupon.minSubtotalCents) : '',
      startsAt: coupon.startsAt ? wallClockIn(coupon.startsAt, timeZone) : '',
      endsAt: coupon.endsAt ? wallClockIn(coupon.endsAt, timeZone) : '',
      usageLimit: coupon.usageLimit === null ? '' : String(coupon.usageLimit),
      usageLimitPerCustomer:
        coupon.usageLimitPerCustomer === null ? '' : String(coupon.usageLimitPerCustomer),
      firstPurchaseOnly: coupon.firstPurchaseOnly,
      active: coupon.active,
      products: coupon.productIds.flatMap((id) => {
        const name = context.productNames.get(id);
        return name === undefined ? [] : [{ id, name }];
      }),
      categoryIds: coupon.categoryIds,
    },
  };
}
