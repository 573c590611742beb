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

const id = z.guid().transform((value) => value.toLowerCase());
// A uuid without its hyphens: what the fullest cookie keeps of a variant's id.
const compactId = z
  .string()
  .regex(/^[0-9a-f]{32}$/i)
  .transform((value) => value.toLowerCase().replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'));
const quantity = z.int().min(1).max(MAX_LINE_QUANTITY);
const price = z
  .int()
  .min(0)
  .max(2 ** 31 - 1);
// Code units: a shortened name has at most two per character.
const name = z.string().max(SEEN_NAME_LENGTH * 2);

// Compact tuples keep 50 lines under the limit: [productId, quantity, seenPriceCents, seenName,
// variantId]. Cookies from before variants have no variantId: the line is the product's first
// variant. When even names do not fit, the productId goes too ('': the variant names it) and the
// variant's id loses its hyphens.
const cookieSchema = z
  .array(
    z.union([
      z.tuple([id, quantity, price, name, id]),
      z.tuple([z.literal(''), quantity, price, name, compactId]),
      z.tuple([id, quantity, price, name]),
    ]),
  )
  .max(MAX_CART_LINES)
  .refine(
    (tuples) =>
      new Set(tuples.map(([productId, , , , variantId]) => variantId ?? productId)).size ===
      tuples.length,
  );

/** The cart in the request's cookie; a missing, tampered or unreadable cookie is an empty cart. */
export async function readCart(request: Pick<Request, 'headers'>): Promise<CartLine[]> {
  const parsed = cookieSchema.safeParse(await cartCookie.parse(request.headers.get('Cookie')));
  if (!parsed.success) return [];
  return parsed.data.map(([productId, quantity, seenPriceCents, seenName, variantId]) => ({
    productId,
    variantId: variantId ?? null,
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
  const tuple = (line: CartLine, productId: string, name: string) =>
    line.variantId === null
      ? [productId, line.quantity, line.seenPriceCents, name]
      : [productId, line.quantity, line.seenPriceCents, name, line.variantId];
  const header = await cartCookie.serialize(
    lines.map((line) => tuple(line, line.productId, seenName(line.seenName))),
  );
  if (cookieValueBytes(header) <= MAX_COOKIE_VALUE_BYTES) return header;
  // Long names in a full cart: the names go, then the ids a variant's own id makes redundant;
  // the cart stays.
  const nameless = await cartCookie.serialize(lines.map((line) => tuple(line, line.productId, '')));
  if (cookieValueBytes(nameless) <= MAX_COOKIE_VALUE_BYTES) return nameless;
  return cartCookie.serialize(
    lines.map((line) =>
      line.variantId === null
        ? tuple(line, line.productId, '')
        : ['', line.quantity, line.seenPriceCents, '', line.variantId.replaceAll('-', '')],
    ),
  );
}

function cookieValueBytes(header: string): number {
  return header.slice(0, header.indexOf(';')).length;
}
