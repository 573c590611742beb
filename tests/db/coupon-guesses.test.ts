import { expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { coupons, products } from '~/db/schema';
import type { CartLine } from '~/modules/cart';
import { cartCookieHeader } from '~/modules/cart/index.server';
import { COUPON_MESSAGES } from '~/modules/coupons';
import { couponCookieHeader } from '~/modules/coupons/index.server';
import { RATE_LIMITS } from '~/modules/rate-limits/index.server';
import { defaultSettings, type StoreSettings } from '~/modules/settings';
import { action as cartAction, loader as cartLoader } from '~/routes/store/cart';
import { action as checkoutAction } from '~/routes/store/checkout';

import { describeDb } from '../support/db';
import { shopperAddress } from '../support/shoppers';

// Issue 36, point 2: every check of a coupon code (the cart's 'Aplicar', a link's `?cupom=`,
// the checkout's, a cookie) counts against one limit on guesses per client address.
const CABO = '5a3b1e00-0000-4000-8000-00000000c001';
const LIMIT = RATE_LIMITS.couponGuess.limit;
const BUSY = /^Muitos códigos de cupom tentados em pouco tempo\. Tente de novo em \d+ minutos?\.$/;

const settings: StoreSettings = { ...defaultSettings(), shipping_mode: 'free' };
const line: CartLine = {
  productId: CABO,
  variantId: null,
  quantity: 1,
  seenPriceCents: 3990,
  seenName: 'Cabo USB-C',
};

async function seed(db: Db): Promise<void> {
  await db.insert(products).values({ id: CABO, name: 'Cabo USB-C', priceCents: 3990 });
  await db.insert(coupons).values([
    { code: 'BEMVINDO10', kind: 'percent', value: 10 },
    { code: 'NATAL', kind: 'percent', value: 20, startsAt: new Date('2099-12-01T03:00:00Z') },
  ]);
}

/** The parts of an answer a shopper's browser reads. */
interface Answer {
  status: number;
  retryAfter: string | null;
  message: string | undefined;
}

describeDb('coupon guesses', ({ db }) => {
  const context = (clientIp: string) =>
    ({
      db: db(),
      readDb: db(),
      clientIp,
      checkoutRateLimit: 1_000,
      settings: { get: async () => settings },
      shipping: async () => null,
    }) as never;

  async function cookies(code?: string): Promise<string> {
    const headers = [await cartCookieHeader([line])];
    if (code) headers.push(await couponCookieHeader(code));
    return headers.map((header) => header.split(';')[0]).join('; ');
  }

  function read(answer: unknown): Answer {
    const { data, init } = answer as {
      data: { toast?: { message: string }; coupon?: { refusal: string | null } | null };
      init: { status?: number; headers?: HeadersInit } | null;
    };
    return {
      status: init?.status ?? 200,
      retryAfter: new Headers(init?.headers).get('Retry-After'),
      message: data.toast?.message ?? data.coupon?.refusal ?? undefined,
    };
  }

  async function post(
    action: typeof cartAction | typeof checkoutAction,
    path: string,
    code: string,
    clientIp: string,
  ): Promise<Answer> {
    const request = new Request(`http://loja.test${path}`, {
      method: 'POST',
      body: new URLSearchParams({ intent: 'coupon', couponCode: code }),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: await cookies(),
      },
    });
    return read(await action({ request, context: context(clientIp), params: {} } as never));
  }

  const applyInCart = (code: string, clientIp: string) => post(cartAction, '/cart', code, clientIp);
  const applyAtCheckout = (code: string, clientIp: string) =>
    post(checkoutAction, '/checkout', code, clientIp);

  /** The cart page (or its `.data`) opened with `?cupom=`, or holding the code in its cookie. */
  async function openCart(clientIp: string, link?: string, cookie?: string): Promise<Answer> {
    const query = link ? `?cupom=${link}` : '';
    const request = new Request(`http://loja.test/cart.data${query}`, {
      headers: { Cookie: await cookies(cookie) },
    });
    return read(await cartLoader({ request, context: context(clientIp), params: {} } as never));
  }

  it('counts misses from the cart, a link, a cookie and the checkout together; past the limit, a 429 in pt-BR even for a real code', async () => {
    await seed(db());
    const guesser = shopperAddress();
    const unknown = (code: string) => ({
      retryAfter: null,
      message: COUPON_MESSAGES.unknown(code),
    });
    const misses: (() => Promise<Answer>)[] = [
      () => applyInCart('CHUTE1', guesser),
      () => openCart(guesser, 'CHUTE2'),
      () => openCart(guesser, undefined, 'CHUTE3'),
      () => applyAtCheckout('CHUTE4', guesser),
    ];
    for (let i = 0; i < LIMIT; i++) {
      const answer = await misses[i % misses.length]!();
      expect(answer).toMatchObject(unknown(`CHUTE${(i % misses.length) + 1}`));
    }
    for (const attempt of [
      () => applyInCart('BEMVINDO10', guesser),
      () => applyAtCheckout('BEMVINDO10', guesser),
      () => openCart(guesser, 'BEMVINDO10'),
    ]) {
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(refused.message).toMatch(BUSY);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    // Another address is not touched by it.
    expect(await applyInCart('BEMVINDO10', shopperAddress())).toMatchObject({
      status: 200,
      message: COUPON_MESSAGES.applied('BEMVINDO10'),
    });
  });

  it('answers a campaign that has not started as an unknown code, and counts it as a miss', async () => {
    await seed(db());
    const shopper = shopperAddress();
    expect(await applyInCart('NATAL', shopper)).toEqual({
      status: 400,
      retryAfter: null,
      message: COUPON_MESSAGES.unknown('NATAL'),
    });
    for (let i = 1; i < LIMIT; i++) await applyInCart('NATAL', shopper);
    expect((await applyInCart('NATAL', shopper)).status).toBe(429);
  });

  it('gives back the checks of a real code: a shopper holding one never reaches the limit', async () => {
    await seed(db());
    const shopper = shopperAddress();
    for (let i = 0; i < LIMIT * 2; i++) {
      expect(await openCart(shopper, undefined, 'BEMVINDO10')).toMatchObject({ status: 200 });
    }
    expect(await applyInCart('BEMVINDO10', shopper)).toMatchObject({
      status: 200,
      message: COUPON_MESSAGES.applied('BEMVINDO10'),
    });
  });
});
