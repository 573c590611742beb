import { createCookie } from 'react-router';

import { isUuid } from '~/lib/uuid';

export const CHECKOUT_RECOVERY_COOKIE = 'vitrine_checkout';

// As long as the cart cookie: the saved checkout lives as long as the cart it was saved from.
export const CART_LIFE_MS = 60 * 60 * 24 * 30 * 1000;

const cookie = createCookie(CHECKOUT_RECOVERY_COOKIE, {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  maxAge: CART_LIFE_MS / 1000,
});

/** The browser's saved checkout (its id), or null. */
export async function readCheckoutRecoveryCookie(
  request: Pick<Request, 'headers'>,
): Promise<string | null> {
  const value: unknown = await cookie.parse(request.headers.get('Cookie'));
  return typeof value === 'string' && isUuid(value) ? value : null;
}

/** Keeps the browser's saved checkout; null forgets it (the order was placed). */
export function checkoutRecoveryCookieHeader(id: string | null): Promise<string> {
  return id ? cookie.serialize(id) : cookie.serialize('', { maxAge: 0 });
}
