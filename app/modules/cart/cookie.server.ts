import { createCookie } from 'react-router';
import { z } from 'zod';

import { MAX_CART_LINES, MAX_LINE_QUANTITY, type CartLine } from './types';

export const CART_COOKIE = 'vitrine_cart';

const cartCookie = createCookie(CART_COOKIE, {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  maxAge: 60 * 60 * 24 * 30,
});

/** Names are kept this short in the cookie: they only serve to name a product deleted since. */
export const SEEN_NAME_LENGTH = 40;
// Browsers drop cookies whose name and value pass 4096 bytes; leave room for the name.
const MAX_COOKIE_VALUE_BYTES = 4000;

// Compact tuples keep 50 lines under the limit: [productId, quantity, seenPriceCents, seenName].
const cookieSchema = z
  .array(
    z.tuple([
      z.guid().transform((id) => id.toLowerCase()),
      z.int().min(1).max(MAX_LINE_QUANTITY),
      z
        .int()
        .min(0)
        .max(2 ** 31 - 1),
      // Code units: a shortened name has at most two per character.
      z.string().max(SEEN_NAME_LENGTH * 2),
    ]),
  )
  .max(MAX_CART_LINES)
  .refine((tuples) => new Set(tuples.map(([id]) => id)).size === tuples.length);

/** The cart in the request's cookie; a missing, tampered or unreadable cookie is an empty cart. */
export async function readCart(request: Pick<Request, 'headers'>): Promise<CartLine[]> {
  const parsed = cookieSchema.safeParse(await cartCookie.parse(request.headers.get('Cookie')));
  if (!parsed.success) return [];
  return parsed.data.map(([productId, quantity, seenPriceCents, seenName]) => ({
    productId,
    quantity,
    seenPriceCents,
    seenName,
  }));
}

/** Shortens a product name to what the cookie keeps. */
export function seenName(name: string): string {
  const characters = [...name];
  if (characters.length <= SEEN_NAME_LENGTH) return name;
  return `${characters.slice(0, SEEN_NAME_LENGTH - 1).join('')}…`;
}

/** The Set-Cookie header that stores these lines (or deletes the cookie when there are none). */
export async function cartCookieHeader(lines: readonly CartLine[]): Promise<string> {
  if (lines.length === 0) return cartCookie.serialize('', { maxAge: 0 });
  const tuples = lines.map((line) => [
    line.productId,
    line.quantity,
    line.seenPriceCents,
    seenName(line.seenName),
  ]);
  const header = await cartCookie.serialize(tuples);
  if (cookieValueBytes(header) <= MAX_COOKIE_VALUE_BYTES) return header;
  // Long names in a full cart: the names go, the cart stays.
  return cartCookie.serialize(tuples.map(([id, quantity, price]) => [id, quantity, price, '']));
}

function cookieValueBytes(header: string): number {
  return header.slice(0, header.indexOf(';')).length;
}
