import type { CouponTerms } from '~/modules/pricing';

/** The coupon the shopper holds, as the cart and the checkout show it. */
export interface HeldCoupon {
  code: string;
  /** Its terms while it may be used (pricing may still find it does not fit the lines). */
  terms: CouponTerms | null;
  /** Why it was dropped (unknown, not started, expired, used up), in pt-BR. */
  refusal: string | null;
}
