import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { orders, products, productVariants, shippingQuotes } from '~/db/schema';
import { placeOrder } from '~/flows/place-order.server';
import { quoteShipping } from '~/flows/shipping-quote.server';
import { cartCookieHeader } from '~/modules/cart/index.server';
import { RATE_LIMITS } from '~/modules/rate-limits/index.server';
import { checkoutFormSchema } from '~/modules/checkout';
import { defaultSettings, type StoreSettings } from '~/modules/settings';
import type { ShippingQuote } from '~/modules/shipping';
import {
  createMelhorEnvio,
  createShippingQuoter,
  sweepShippingQuotes,
  type ShippingQuoter,
} from '~/modules/shipping/index.server';

import { loader as shippingEstimateLoader } from '~/routes/api/shipping-estimate';
import { headers as productHeaders, loader as productLoader } from '~/routes/store/product';

import { describeDb } from '../support/db';
import {
  fakeDeliveryDays,
  fakePriceCents,
  startFakeMelhorEnvio,
  type FakeMelhorEnvio,
} from '../support/fake-melhorenvio';
import { shopperAddress, shopperCpf } from '../support/shoppers';

// Issue 26's quotes through the real flows, a real database and the Melhor Envio client talking
// to the fake over HTTP.
const TOKEN = 'me-db-token-7f3a';
const ORIGIN = '01310100';
const MANAUS = '69005040';
const RUG = '5a3b1e00-0000-4000-8000-00000000e001';
const RUG_CENTS = 25_900;

const settings: StoreSettings = {
  ...defaultSettings(),
  shipping_mode: 'flat_rate',
  default_shipping_cost_cents: 1_500,
  free_shipping_threshold_cents: 0,
  shipping_origin_cep: ORIGIN,
};

let fake: FakeMelhorEnvio;

beforeAll(async () => {
  fake = await startFakeMelhorEnvio({ token: TOKEN });
});

afterAll(async () => {
  await fake?.close();
});

beforeEach(() => {
  fake.setDelay(0);
  fake.setFailure(null);
});

/** A quoter as the load context hands it out: the same one on every call. */
function quoter(deadlineMs?: number): () => Promise<ShippingQuoter> {
  const built = createShippingQuoter(
    createMelhorEnvio({
      apiUrl: fake.url,
      token: TOKEN,
      userAgent: async () => 'Loja Teste (contato@loja.test)',
    }),
    { deadlineMs },
  );
  return async () => built;
}

/** A 2 kg rug, 60 × 40 × 8 cm, and its variant's id. */
async function seedRug(db: Db): Promise<string> {
  await db.insert(products).values({
    id: RUG,
    name: 'Tapete Kilim 2 kg',
    priceCents: RUG_CENTS,
    stockQuantity: 10,
  });
  await db
    .update(productVariants)
    .set({ weightGrams: 2_000, lengthMm: 600, widthMm: 400, heightMm: 80 })
    .where(eq(productVariants.productId, RUG));
  const [variant] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, RUG));
  return variant!.id;
}

describeDb('carrier quotes (Melhor Envio)', ({ db }) => {
  it("offers the account's services priced from the variant's package, not the ones in error", async () => {
    const variantId = await seedRug(db());
    const quote = await quoteShipping(
      { db: db(), shipping: quoter() },
      [{ variantId, quantity: 1 }],
      MANAUS,
      settings,
    );
    expect(quote.kind).toBe('carrier');
    const options = (quote as Extract<ShippingQuote, { kind: 'carrier' }>).options;
    expect(options.map((option) => `${option.carrier} ${option.service}`).sort()).toEqual([
      'Correios PAC',
      'Correios SEDEX',
      'Jadlog .Package',
    ]);
    const sedex = options.find((option) => option.id === '2')!;
    expect(sedex.priceCents).toBe(fakePriceCents(2, 2, ORIGIN, MANAUS));
    expect(sedex.businessDays).toBe(fakeDeliveryDays(2, ORIGIN, MANAUS));
    // The weight went in kilograms and the sides in centimetres.
    const sent = fake.requests.findLast((request) => request.path.endsWith('/calculate'));
    expect(sent?.body).toMatchObject({
      from: { postal_code: ORIGIN },
      to: { postal_code: MANAUS },
      package: { weight: 2, length: 60, width: 40, height: 8 },
    });
  });

  it('makes one call for 100 concurrent quotes of one cart and CEP, and none for the next instance', async () => {
    const variantId = await seedRug(db());
    const before = fake.calculateCalls();
    const items = [{ variantId, quantity: 2 }];
    const one = quoter();
    const quotes = await Promise.all(
      Array.from({ length: 100 }, () =>
        quoteShipping({ db: db(), shipping: one }, items, MANAUS, settings),
      ),
    );
    expect(fake.calculateCalls() - before).toBe(1);
    expect(new Set(quotes.map((quote) => JSON.stringify(quote))).size).toBe(1);
    // Another instance reads the answer kept in the database.
    const other = await quoteShipping({ db: db(), shipping: quoter() }, items, MANAUS, settings);
    expect(other).toEqual(quotes[0]);
    expect(fake.calculateCalls() - before).toBe(1);
    expect(await db().select().from(shippingQuotes)).toHaveLength(1);
  });

  it("answers with the store's rule, approximate, when the carrier is slow or failing", async () => {
    const variantId = await seedRug(db());
    const items = [{ variantId, quantity: 1 }];
    fake.setDelay(5_000);
    const started = Date.now();
    const slow = await quoteShipping({ db: db(), shipping: quoter(400) }, items, MANAUS, settings);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(slow).toEqual({ kind: 'rule', approximate: true });
    fake.setDelay(0);
    fake.setFailure(500);
    const failing = await quoteShipping({ db: db(), shipping: quoter() }, items, MANAUS, settings);
    expect(failing).toEqual({ kind: 'rule', approximate: true });
    // Nothing kept: the next shopper asks again once the carrier is back.
    expect(await db().select().from(shippingQuotes)).toHaveLength(0);
  });

  it("needs the store's origin CEP: without it the rule prices shipping, not approximately", async () => {
    const variantId = await seedRug(db());
    const before = fake.calculateCalls();
    const quote = await quoteShipping(
      { db: db(), shipping: quoter() },
      [{ variantId, quantity: 1 }],
      MANAUS,
      { ...settings, shipping_origin_cep: '' },
    );
    expect(quote).toEqual({ kind: 'rule', approximate: false });
    expect(fake.calculateCalls()).toBe(before);
  });

  it('charges the option chosen, records the service, and refuses a price that changed', async () => {
    const variantId = await seedRug(db());
    const quote = await quoteShipping(
      { db: db(), shipping: quoter() },
      [{ variantId, quantity: 1 }],
      MANAUS,
      settings,
    );
    const sedex = (quote as Extract<ShippingQuote, { kind: 'carrier' }>).options.find(
      (option) => option.id === '2',
    )!;
    const order = (shownCents: number) =>
      placeOrder(
        db(),
        {
          form: checkoutFormSchema.parse({
            customerName: 'Maria da Silva',
            customerEmail: 'maria@example.com',
            customerCpf: shopperCpf(),
            customerPhone: '(92) 98765-4321',
            zipCode: MANAUS,
            street: 'Avenida Eduardo Ribeiro',
            number: '520',
            neighborhood: 'Centro',
            city: 'Manaus',
            state: 'AM',
            paymentMethod: 'pix',
            shippingOption: `2:${shownCents}`,
            idempotencyKey: randomUUID(),
          }),
          cart: [
            {
              productId: RUG,
              variantId,
              quantity: 1,
              seenPriceCents: RUG_CENTS,
              seenName: 'Tapete Kilim 2 kg',
            },
          ],
          orderToken: randomUUID(),
          clientAddress: shopperAddress(),
          trackingParameters: {},
          settings,
          shipping: { quote, chosen: { id: '2', shownCents }, provider: 'melhorenvio' },
        },
        { tracking: false },
      );
    const changed = await order(sedex.priceCents - 100);
    expect(changed).toMatchObject({ ok: false, reason: 'shipping_changed' });
    expect(await db().select().from(orders)).toHaveLength(0);

    const placed = await order(sedex.priceCents);
    expect(placed.ok).toBe(true);
    const [row] = await db().select().from(orders);
    expect(row!.shippingCostCents).toBe(sedex.priceCents);
    expect(row!.totalAmountCents).toBe(RUG_CENTS + sedex.priceCents);
    expect(row!.shippingMethod).toEqual({
      provider: 'melhorenvio',
      serviceId: '2',
      carrier: 'Correios',
      service: 'SEDEX',
      businessDays: sedex.businessDays,
      approximate: false,
    });
  });

  it('sweeps answers past their time and keeps the others', async () => {
    const quotes = [
      { serviceId: '1', carrier: 'Correios', service: 'PAC', priceCents: 2_000, businessDays: 5 },
    ];
    const now = Date.now();
    await db()
      .insert(shippingQuotes)
      .values([
        { key: 'old', quotes, expiresAt: new Date(now - 1_000) },
        { key: 'fresh', quotes, expiresAt: new Date(now + 60_000) },
      ]);
    await sweepShippingQuotes(db(), new Date(now));
    const left = await db().select({ key: shippingQuotes.key }).from(shippingQuotes);
    expect(left).toEqual([{ key: 'fresh' }]);
  });

  it('keeps asking after the carrier refused one quote, but pauses after it failed', async () => {
    const variantId = await seedRug(db());
    const items = [{ variantId, quantity: 1 }];
    const one = quoter();
    fake.setFailure(422);
    expect(await quoteShipping({ db: db(), shipping: one }, items, MANAUS, settings)).toEqual({
      kind: 'rule',
      approximate: true,
    });
    fake.setFailure(null);
    const before = fake.calculateCalls();
    expect((await quoteShipping({ db: db(), shipping: one }, items, MANAUS, settings)).kind).toBe(
      'carrier',
    );
    expect(fake.calculateCalls() - before).toBe(1);

    fake.setFailure(503);
    await quoteShipping({ db: db(), shipping: one }, items, '90010150', settings);
    fake.setFailure(null);
    const paused = fake.calculateCalls();
    // Down a moment ago: the store's rule answers without asking again.
    expect(await quoteShipping({ db: db(), shipping: one }, items, '30130010', settings)).toEqual({
      kind: 'rule',
      approximate: true,
    });
    expect(fake.calculateCalls()).toBe(paused);
  });

  describe("shoppers' estimates (issue 36)", () => {
    const context = (clientIp: string, shipping: () => Promise<ShippingQuoter>) =>
      ({
        db: db(),
        readDb: db(),
        clientIp,
        settings: { get: async () => settings },
        shipping,
      }) as never;

    /** GET /frete?cep= for the shopper's cart of one rug. */
    async function estimate(cep: string, clientIp: string, shipping = quoter()) {
      const variantId = (await db().select({ id: productVariants.id }).from(productVariants))[0]!
        .id;
      const cart = (
        await cartCookieHeader([
          {
            productId: RUG,
            variantId,
            quantity: 1,
            seenPriceCents: RUG_CENTS,
            seenName: 'Tapete Kilim 2 kg',
          },
        ])
      ).split(';')[0]!;
      const request = new Request(`http://loja.test/frete?cep=${cep}`, {
        headers: { Cookie: cart },
      });
      const answer = (await shippingEstimateLoader({
        request,
        context: context(clientIp, shipping),
        params: {},
      } as never)) as unknown as {
        data: { ok: boolean; error?: string; shipping?: ShippingQuote };
        init: { status?: number; headers: Record<string, string> };
      };
      return {
        status: answer.init.status ?? 200,
        retryAfter: answer.init.headers['Retry-After'],
        body: answer.data,
      };
    }

    it('lets one address make 20 calls to the carrier a minute; past it /frete answers a 429 in pt-BR, and the cache stays free', async () => {
      await seedRug(db());
      const shopper = shopperAddress();
      const shipping = quoter();
      const before = fake.calculateCalls();
      const limit = RATE_LIMITS.shippingQuote.limit;
      // CEPs of São Paulo never asked before: 01310100, 01310101…
      const cep = (n: number) => String(1_310_100 + n).padStart(8, '0');
      for (let n = 0; n < limit; n++) {
        const answer = await estimate(cep(n), shopper, shipping);
        expect(answer.status).toBe(200);
        expect(answer.body.shipping?.kind).toBe('carrier');
      }
      const refused = await estimate(cep(limit), shopper, shipping);
      expect(refused).toMatchObject({ status: 429, body: { ok: false } });
      expect(refused.body.error).toMatch(
        /^Muitos cálculos de frete em pouco tempo\. Tente de novo em (?:\d+ segundos?|1 minuto)\.$/,
      );
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(fake.calculateCalls() - before).toBe(limit);
      // A CEP already quoted costs the carrier nothing, so it is answered.
      expect((await estimate(cep(0), shopper, shipping)).body.shipping?.kind).toBe('carrier');
      // Another address has its own calls.
      expect((await estimate(cep(limit), shopperAddress(), shipping)).status).toBe(200);
      expect(fake.calculateCalls() - before).toBe(limit + 1);
    });

    it('keeps no product page for a saved CEP the carrier did not price, and keeps one it priced', async () => {
      await seedRug(db());
      const [{ slug }] = (await db().select({ slug: products.slug }).from(products)) as [
        { slug: string },
      ];
      const page = async (cep: string) => {
        const request = new Request(`http://loja.test/product/${slug}`, {
          headers: { Cookie: `vitrine_cep=${cep}` },
        });
        const answer = (await productLoader({
          request,
          context: context(shopperAddress(), quoter()),
          params: { id: slug },
        } as never)) as unknown as { data: unknown; init: { headers?: HeadersInit } | null };
        const loaderHeaders = new Headers(answer.init?.headers);
        const sent = productHeaders({
          loaderHeaders,
          parentHeaders: new Headers(),
          actionHeaders: new Headers(),
          errorHeaders: undefined,
        } as never) as Headers;
        return sent.get('Cache-Control');
      };
      // Melhor Envio refuses a CEP it does not know.
      fake.setFailure(422);
      expect(await page('01399999')).toBe('private');
      fake.setFailure(null);
      expect(await page(MANAUS)).toBe(null);
    });
  });
});
