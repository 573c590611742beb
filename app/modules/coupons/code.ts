import { z } from 'zod/mini';

import { COUPON_MESSAGES } from './messages';

const CODE = /^[A-Z0-9]{3,30}$/;

/** A coupon code as typed: spaces around it dropped, any case; kept and compared in capitals. */
export const couponCodeSchema = z.pipe(
  z.string({ error: COUPON_MESSAGES.invalidCode }).check(z.trim(), z.toUpperCase()),
  z.string().check(z.regex(CODE, { error: COUPON_MESSAGES.invalidCode })),
);

/** The coupon field of a form that may be left empty (''): the checkout's `couponCode`. */
export const optionalCouponCodeSchema = z._default(
  z.pipe(
    z.string({ error: COUPON_MESSAGES.invalidCode }).check(z.trim(), z.toUpperCase()),
    z.string().check(z.regex(/^(?:[A-Z0-9]{3,30})?$/, { error: COUPON_MESSAGES.invalidCode })),
  ),
  '',
);

/** The code, or null when it cannot be one (a link's `cupom`, a cookie). */
export function readCouponCode(text: string | null | undefined): string | null {
  const parsed = couponCodeSchema.safeParse(text ?? '');
  return parsed.success ? parsed.data : null;
}
