import type { PricedCart } from '~/modules/cart';
import { priceRequestCart, type PricingSettings } from '~/modules/cart/index.server';
import { COUPON_MESSAGES, readCouponCode } from '~/modules/coupons';
import {
  COUPON_PARAM,
  couponCookieHeader,
  findUsableCoupon,
  readCouponCookie,
  type CouponCheck,
} from '~/modules/coupons/index.server';
import type { HeldCoupon } from '~/modules/coupons';
import {
  hitRateLimit,
  RATE_LIMITS,
  refundRateLimit,
  waitText,
} from '~/modules/rate-limits/index.server';
import type { CouponTerms, PricingChoices } from '~/modules/pricing';
import type { ChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';

interface CouponScope {
  db: Db;
  /** Whose guesses a check counts as: the request's client address. */
  clientIp: string;
  changes?: Pick<ChangeFeed, 'only'>;
}

export type ShopperCouponCheck =
  CouponCheck | { ok: false; message: string; retryAfterSeconds: number };

/**
 * Every check of a code a shopper sends (typed, a link's `cupom`, a cookie) goes through here:
 * counted against the client address before the look-up, and given back when the code turned
 * out to be a real coupon, so only guesses that miss add up (RATE_LIMITS.couponGuess). Past the
 * limit nothing is looked up and the answer says how long to wait.
 */
export async function checkShopperCoupon(
  scope: CouponScope,
  code: string,
): Promise<ShopperCouponCheck> {
  const subject = { address: scope.clientIp };
  const verdict = await hitRateLimit(scope.db, RATE_LIMITS.couponGuess, subject);
  if (!verdict.allowed) {
    const { retryAfterSeconds } = verdict;
    return {
      ok: false,
      message: COUPON_MESSAGES.busy(waitText(retryAfterSeconds)),
      retryAfterSeconds,
    };
  }
  const found = await findUsableCoupon(scope.db, code, { changes: scope.changes?.only('coupons') });
  if (found.ok || !found.unknown) await refundRateLimit(scope.db, RATE_LIMITS.couponGuess, subject);
  return found;
}

/**
 * The request's cart priced with the coupon the shopper holds: the cart page and the checkout
 * show what the order will charge. A coupon that can no longer be used is said once and
 * forgotten (its cookie cleared). `headers` carries the cookies to set, if any; past the limit on
 * coupon guesses the coupon is not checked (nor forgotten), `retryAfterSeconds` says so, and the
 * page answers 429 (`status`) with Retry-After among the headers.
 */
export async function priceShopperCart(
  scope: CouponScope,
  request: Request,
  settings: PricingSettings,
  paymentMethod: PricingChoices['paymentMethod'],
  /** The code to price with instead of the cookie's: one the shopper applies in this request. */
  couponCode?: string | null,
): Promise<{
  cart: Omit<PricedCart, 'corrected' | 'changed'>;
  coupon: HeldCoupon | null;
  headers: Headers;
  retryAfterSeconds: number | null;
  status: 200 | 429;
}> {
  const headers = new Headers();
  // A coupon link's code counts on the page it opens: its cookie only comes back next request.
  const code =
    couponCode === undefined
      ? (readCouponCode(new URL(request.url).searchParams.get(COUPON_PARAM)) ??
        (await readCouponCookie(request)))
      : couponCode;
  let coupon: HeldCoupon | null = null;
  let retryAfterSeconds: number | null = null;
  if (code) {
    const found = await checkShopperCoupon(scope, code);
    coupon = found.ok
      ? { code, terms: couponTerms(found.coupon), refusal: null }
      : { code, terms: null, refusal: found.message };
    if (!found.ok && 'retryAfterSeconds' in found) retryAfterSeconds = found.retryAfterSeconds;
    else if (!found.ok) headers.append('Set-Cookie', await couponCookieHeader(null));
  }
  const priced = await priceRequestCart(scope, request, settings, {
    paymentMethod,
    coupon: coupon?.terms ?? null,
  });
  if (priced.headers) headers.append('Set-Cookie', priced.headers['Set-Cookie']);
  if (retryAfterSeconds !== null) headers.set('Retry-After', String(retryAfterSeconds));
  const status = retryAfterSeconds === null ? 200 : 429;
  return { cart: priced.cart, coupon, headers, retryAfterSeconds, status };
}

export type AppliedCoupon =
  | {
      ok: true;
      /** The code now held, as the store spells it; null: the coupon was removed. */
      code: string | null;
      cart: Awaited<ReturnType<typeof priceShopperCart>>['cart'];
      coupon: HeldCoupon | null;
      /** The coupon's cookie, and the cart's when pricing corrected it. */
      headers: Headers;
    }
  | { ok: false; message: string; status: 400 | 429; headers: Headers };

/**
 * 'Aplicar' and 'Remover cupom', on the cart and on the checkout: the one way a shopper's code
 * is taken. Kept for the visit when the shopper may use it now, with the cart priced by it (PIX
 * first, as the checkout shows it); what the cart's lines make of it (minimum, products) the
 * summary says. A refusal keeps the coupon held before, and past the limit on guesses says how
 * long to wait (429 with Retry-After).
 */
export async function applyShopperCoupon(
  scope: CouponScope,
  request: Request,
  settings: PricingSettings,
  code: string | null,
): Promise<AppliedCoupon> {
  const priced = await priceShopperCart(scope, request, settings, 'pix', code);
  if (priced.retryAfterSeconds !== null) {
    return {
      ok: false,
      message: priced.coupon!.refusal!,
      status: 429,
      headers: new Headers({ 'Retry-After': String(priced.retryAfterSeconds) }),
    };
  }
  if (priced.coupon?.refusal) {
    return { ok: false, message: priced.coupon.refusal, status: 400, headers: new Headers() };
  }
  const held = priced.coupon?.terms?.code ?? null;
  priced.headers.append('Set-Cookie', await couponCookieHeader(held));
  return {
    ok: true,
    code: held,
    cart: priced.cart,
    coupon: priced.coupon,
    headers: priced.headers,
  };
}

/** Only the terms pricing reads go to the page (and so to the browser's optimistic cart). */
function couponTerms(terms: CouponTerms): CouponTerms {
  const { id, code, kind, value, minSubtotalCents, productIds, categoryIds } = terms;
  return { id, code, kind, value, minSubtotalCents, productIds, categoryIds };
}
