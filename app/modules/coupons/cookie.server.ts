import { createCookie } from 'react-router';

import { readCouponCode } from './code';

/** The query parameter of a coupon link ('/?cupom=BEMVINDO10'), on any storefront page. */
export const COUPON_PARAM = 'cupom';

// The code the shopper applied, for this visit (a session cookie): the cart and the checkout
// price with it. Only the code: whether it still applies is checked again at every pricing.
const couponCookie = createCookie('vitrine_coupon', { httpOnly: true, sameSite: 'lax', path: '/' });

export async function readCouponCookie(request: Request): Promise<string | null> {
  const stored: unknown = await couponCookie.parse(request.headers.get('Cookie'));
  return typeof stored === 'string' ? readCouponCode(stored) : null;
}

/** Keeps this code for the visit, or forgets the held one (null). */
export function couponCookieHeader(code: string | null): Promise<string> {
  return code === null ? couponCookie.serialize('', { maxAge: 0 }) : couponCookie.serialize(code);
}

/** The Set-Cookie of a link's coupon (`?cupom=`), or null when the URL carries none that could be one. */
export async function couponLinkCookieHeader(url: URL): Promise<string | null> {
  const code = readCouponCode(url.searchParams.get(COUPON_PARAM));
  return code ? couponCookieHeader(code) : null;
}
