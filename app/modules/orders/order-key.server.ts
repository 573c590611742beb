import { createCookie, redirect } from 'react-router';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';

import { findOrderFor, type OrderAccess } from './orders.server';
import { readOrderToken } from './token.server';
import type { OrderView } from './types';

/** The query name of an order's key in its e-mailed links (`?orderId=…&chave=…`). */
export const ORDER_KEY_PARAM = 'chave';

/**
 * How long a browser that opened an order's e-mailed link keeps opening it without the link: a
 * day covers paying the order and coming back to it; after that the e-mail's link opens it again.
 */
const ORDER_KEY_COOKIE_MAX_AGE_SECONDS = 24 * 60 * 60;

/**
 * One cookie per order, named after it: a browser that opened two orders' links keeps both, and
 * each key goes only with its own order's pages (they all read it from their `orderId`). HttpOnly
 * so no script (ours or a tag's) reads it; the adapter adds Secure over https.
 */
function orderKeyCookie(orderId: string) {
  return createCookie(`order_key_${orderId.toLowerCase()}`, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: ORDER_KEY_COOKIE_MAX_AGE_SECONDS,
  });
}

/**
 * An e-mailed link's key leaves the address bar before any page renders: a GET that carries
 * `chave` is answered with a redirect to the same address without it, and the key moves to the
 * order's cookie. Analytics and session-recording tags record the page's address, and a key in
 * it would open the shopper's order to their vendors. Null when there is no key to move.
 */
export async function moveOrderKeyToCookie(request: Request): Promise<Response | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const url = new URL(request.url);
  const key = url.searchParams.get(ORDER_KEY_PARAM);
  if (key === null) return null;
  url.searchParams.delete(ORDER_KEY_PARAM);
  const orderId = url.searchParams.get('orderId') ?? '';
  const headers = new Headers({
    'Cache-Control': 'private, no-store',
    // A client navigation to an old link leaves no entry with the key in the history.
    'X-Remix-Replace': 'true',
  });
  // Anything but a well-formed pair opens nothing: the page says so without a cookie.
  if (isUuid(orderId) && isUuid(key)) {
    headers.append('Set-Cookie', await orderKeyCookie(orderId).serialize(key.toLowerCase()));
  }
  return redirect(`${url.pathname}${url.search}`, { status: 303, headers });
}

/**
 * What this request holds to open the order: its browser's token and the order's key, the one a
 * form posts (`chave`, from pages made before the key moved to a cookie) or else the cookie its
 * e-mailed link left. findOrderFor decides whether either opens it.
 */
export async function orderAccess(
  request: Request,
  orderId: string,
  postedKey?: string | null,
): Promise<OrderAccess> {
  return {
    token: await readOrderToken(request),
    key: postedKey || (isUuid(orderId) ? await readOrderKey(request, orderId) : null),
  };
}

/** The order named by the request's `orderId`, if this browser may see it. */
export async function getRequestedOrder(db: Db, request: Request): Promise<OrderView | null> {
  const orderId = new URL(request.url).searchParams.get('orderId') ?? '';
  return findOrderFor(db, orderId, await orderAccess(request, orderId));
}

async function readOrderKey(request: Request, orderId: string): Promise<string | null> {
  const value: unknown = await orderKeyCookie(orderId).parse(request.headers.get('Cookie'));
  return typeof value === 'string' && isUuid(value) ? value : null;
}
