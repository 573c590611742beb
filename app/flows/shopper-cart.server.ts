import type { PricedCart } from '~/modules/cart';
import { priceRequestCart, type PricingSettings } from '~/modules/cart/index.server';
import { readCouponCode } from '~/modules/coupons';
import {
  COUPON_PARAM,
  couponCookieHeader,
  findUsableCoupon,
  readCouponCookie,
} from '~/modules/coupons/index.server';
import type { HeldCoupon } from '~/modules/coupons';
import type { CouponTerms, PricingChoices } from '~/modules/pricing';
import type { StoreSettings } from '~/modules/settings';
import type { ChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';

/**
 * The request's cart priced with the coupon the shopper holds: the cart page and the checkout
 * show what the order will charge. A coupon that can no longer be used is said once and
 * forgotten (its cookie cleared). `headers` carries the cookies to set, if any.
 */
export async function priceShopperCart(
  scope: { db: Db; changes?: Pick<ChangeFeed, 'only'> },
  request: Request,
  settings: PricingSettings & Pick<StoreSettings, 'timezone'>,
  paymentMethod: PricingChoices['paymentMethod'],
  /** The code to price with instead of the cookie's: one the shopper applies in this request. */
  couponCode?: string | null,
): Promise<{
  cart: Omit<PricedCart, 'corrected' | 'changed'>;
  coupon: HeldCoupon | null;
  headers: Headers;
}> {
  const headers = new Headers();
  // A coupon link's code counts on the page it opens: its cookie only comes back next request.
  const code =
    couponCode === undefined
      ? (readCouponCode(new URL(request.url).searchParams.get(COUPON_PARAM)) ??
        (await readCouponCookie(request)))
      : couponCode;
  let coupon: HeldCoupon | null = null;
  if (code) {
    const found = await findUsableCoupon(scope.db, code, {
      timeZone: settings.timezone,
      changes: scope.changes?.only('coupons'),
    });
    coupon = found.ok
      ? { code, terms: couponTerms(found.coupon), refusal: null }
      : { code, terms: null, refusal: found.message };
    if (!found.ok) headers.append('Set-Cookie', await couponCookieHeader(null));
  }
  const priced = await priceRequestCart(scope, request, settings, {
    paymentMethod,
    coupon: coupon?.terms ?? null,
  });
  if (priced.headers) headers.append('Set-Cookie', priced.headers['Set-Cookie']);
  return { cart: priced.cart, coupon, headers };
}

/** Only the terms pricing reads go to the page (and so to the browser's optimistic cart). */
function couponTerms(terms: CouponTerms): CouponTerms {
  const { id, code, kind, value, minSubtotalCents, productIds, categoryIds } = terms;
  return { id, code, kind, value, minSubtotalCents, productIds, categoryIds };
}
