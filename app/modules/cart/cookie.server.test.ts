import { describe, expect, it } from 'vitest';

import { cartCookieHeader, readCart, SEEN_NAME_LENGTH, seenName } from './cookie.server';
import { MAX_CART_LINES, MAX_LINE_QUANTITY, type CartLine } from './types';

const ID = '5a3b1e00-0000-4000-8000-000000000d01';
const OTHER = '5a3b1e00-0000-4000-8000-000000000d02';
const VARIANT = '5a3b1e00-0000-4000-8000-0000000000a1';
const OTHER_VARIANT = '5a3b1e00-0000-4000-8000-0000000000a2';

function requestWith(cookie: string | null): Request {
  return new Request('http://loja.test/cart', cookie === null ? {} : { headers: { cookie } });
}

/** The "name=value" pair a browser would send back for this Set-Cookie header. */
function cookiePair(header: string): string {
  return header.slice(0, header.indexOf(';'));
}

function cookieOf(value: unknown): string {
  return `vitrine_cart=${btoa(JSON.stringify(value))}`;
}

const line = (overrides: Partial<CartLine> = {}): CartLine => ({
  productId: ID,
  variantId: VARIANT,
  quantity: 2,
  seenPriceCents: 29990,
  seenName: 'Fone de Ouvido Bluetooth Pro',
  ...overrides,
});

describe('cart cookie', () => {
  it('reads back the lines it wrote', async () => {
    const lines = [
      line(),
      line({ productId: OTHER, variantId: OTHER_VARIANT, quantity: 1, seenPriceCents: 0 }),
    ];
    const header = await cartCookieHeader(lines);
    await expect(readCart(requestWith(cookiePair(header)))).resolves.toEqual(lines);
  });

  it('writes [productId, quantity, seenPriceCents, seenName, variantId]', async () => {
    const header = await cartCookieHeader([line()]);
    const value = decodeURIComponent(cookiePair(header).slice('vitrine_cart='.length));
    expect(JSON.parse(atob(value))).toEqual([
      [ID, 2, 29990, 'Fone de Ouvido Bluetooth Pro', VARIANT],
    ]);
  });

  it('reads a cookie from before variants as lines of the products’ first variants', async () => {
    const lines = await readCart(requestWith(cookieOf([[ID, 3, 100, 'Fone']])));
    expect(lines).toEqual([
      { productId: ID, variantId: null, quantity: 3, seenPriceCents: 100, seenName: 'Fone' },
    ]);
  });

  it('keeps two variants of one product as two lines', async () => {
    const lines = [line(), line({ variantId: OTHER_VARIANT, quantity: 1 })];
    const header = await cartCookieHeader(lines);
    await expect(readCart(requestWith(cookiePair(header)))).resolves.toEqual(lines);
  });

  it('is httpOnly, SameSite=Lax, for the whole site, for 30 days', async () => {
    const header = await cartCookieHeader([line()]);
    expect(header).toMatch(/^vitrine_cart=/);
    expect(header).toContain('Max-Age=2592000');
    expect(header).toContain('Path=/');
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).not.toContain('Secure');
  });

  it('deletes the cookie when the cart is empty', async () => {
    const header = await cartCookieHeader([]);
    expect(cookiePair(header)).toBe('vitrine_cart=');
    expect(header).toContain('Max-Age=0');
  });

  it.each([
    ['no cookie at all', null],
    ['another cookie only', 'tema=escuro'],
    ['an empty value', 'vitrine_cart='],
    ['not base64', 'vitrine_cart=%%%'],
    ['base64 of no JSON', `vitrine_cart=${btoa('{oops')}`],
    ['an object', cookieOf({ productId: ID, quantity: 1 })],
    ['a malformed id', cookieOf([['nope', 1, 100, '']])],
    ['a zero quantity', cookieOf([[ID, 0, 100, '']])],
    ['a fractional quantity', cookieOf([[ID, 1.5, 100, '']])],
    ['a huge quantity', cookieOf([[ID, MAX_LINE_QUANTITY + 1, 100, '']])],
    ['a negative price', cookieOf([[ID, 1, -1, '']])],
    ['a missing name', cookieOf([[ID, 1, 100]])],
    [
      'the same product twice',
      cookieOf([
        [ID, 1, 100, ''],
        [ID, 2, 100, ''],
      ]),
    ],
    [
      'the same variant twice',
      cookieOf([
        [ID, 1, 100, '', VARIANT],
        [OTHER, 2, 100, '', VARIANT],
      ]),
    ],
    ['a malformed variant id', cookieOf([[ID, 1, 100, '', 'nope']])],
    ['no product and no variant', cookieOf([['', 1, 100, '']])],
    [
      'too many lines',
      cookieOf(
        Array.from({ length: MAX_CART_LINES + 1 }, (_, index) => [
          `5a3b1e00-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
          1,
          100,
          '',
        ]),
      ),
    ],
  ])('reads %s as an empty cart', async (_case, cookie) => {
    await expect(readCart(requestWith(cookie))).resolves.toEqual([]);
  });

  it('compares ids in lower case, as PostgreSQL answers them', async () => {
    const lines = await readCart(requestWith(cookieOf([[ID.toUpperCase(), 1, 100, 'x']])));
    expect(lines[0]?.productId).toBe(ID);
  });

  it('keeps a full cart of long names under the 4 KB browsers accept', async () => {
    const lines = Array.from({ length: MAX_CART_LINES }, (_, index) =>
      line({
        productId: `5a3b1e00-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
        variantId: `5a3b1e00-0000-4000-9000-${index.toString(16).padStart(12, '0')}`,
        quantity: MAX_LINE_QUANTITY,
        seenPriceCents: 2 ** 31 - 1,
        seenName: 'Ação "especial" 🎧 '.repeat(10),
      }),
    );
    const header = await cartCookieHeader(lines);
    expect(cookiePair(header).length).toBeLessThan(4096);
    // The names and the product ids (the variants name them) gave way; the cart is intact.
    const read = await readCart(requestWith(cookiePair(header)));
    expect(read).toEqual(lines.map((entry) => ({ ...entry, productId: '', seenName: '' })));
  });

  it('keeps names in a cart of ordinary size', async () => {
    const lines = Array.from({ length: 10 }, (_, index) =>
      line({
        productId: `5a3b1e00-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
        variantId: `5a3b1e00-0000-4000-9000-${index.toString(16).padStart(12, '0')}`,
        seenName: seenName('Caixa de Som Portátil à Prova d’Água'),
      }),
    );
    const header = await cartCookieHeader(lines);
    await expect(readCart(requestWith(cookiePair(header)))).resolves.toEqual(lines);
  });
});

describe('seenName', () => {
  it('keeps short names as they are', () => {
    expect(seenName('Monitor 27" Full HD')).toBe('Monitor 27" Full HD');
  });

  it('shortens long names with an ellipsis, without splitting a character', () => {
    const short = seenName('🎧'.repeat(SEEN_NAME_LENGTH + 5));
    expect([...short]).toHaveLength(SEEN_NAME_LENGTH);
    expect(short.endsWith('🎧…')).toBe(true);
  });
});
