import { countUnits, readCart } from '~/modules/cart/index.server';
import { couponLinkCookieHeader } from '~/modules/coupons/index.server';
import { attributionCookieHeader } from '~/modules/orders/index.server';

/** What every storefront page reads of the visit's cookies, and the cookies its address sets. */
export interface StoreVisit {
  /**
   * The cart's units, from its cookie alone, never a query: the full-page cache keys pages by
   * this count. The cart page corrects the cookie (and the badge) when a product went away or
   * sold out.
   */
  cartCount: number;
  /** Set-Cookie for what the address brings, if anything. */
  headers: Headers;
}

/**
 * The visit as the storefront's layout sees it on each page: the cart's size, and what a landing
 * leaves behind. A landing from an ad or campaign link is remembered for the sales report of the
 * purchase; a coupon link ('/?cupom=BEMVINDO10') holds its code for the visit, and the cart and
 * the checkout then price with it, and say so.
 */
export async function storeVisit(request: Request): Promise<StoreVisit> {
  const url = new URL(request.url);
  const headers = new Headers();
  const [attribution, coupon, cart] = await Promise.all([
    attributionCookieHeader(url),
    couponLinkCookieHeader(url),
    readCart(request),
  ]);
  for (const cookie of [attribution, coupon]) if (cookie) headers.append('Set-Cookie', cookie);
  return { cartCount: countUnits(cart), headers };
}
