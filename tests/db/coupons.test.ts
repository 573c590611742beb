import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';

import { createChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';
import { categories, coupons, orderAdjustments, orders, products } from '~/db/schema';
import { expireOrders } from '~/flows/order-payment.server';
import {
  placeOrder,
  type PlaceOrderInput,
  type PlaceOrderResult,
} from '~/flows/place-order.server';
import type { CartLine } from '~/modules/cart';
import { COUPON_MESSAGES, couponMissText } from '~/modules/coupons';
import { findUsableCoupon } from '~/modules/coupons/index.server';
import { priceOrder } from '~/modules/pricing';
import { defaultSettings, type StoreSettings } from '~/modules/settings';

import { describeDb } from '../support/db';
import { acrossMigration } from '../support/migrations';
import { shopperCheckout } from '../support/visitor';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { until } from '../support/until';

const FONE = '5a3b1e00-0000-4000-8000-00000000e001';
const CABO = '5a3b1e00-0000-4000-8000-00000000e002';
const AUDIO = '5a3b1e00-0000-4000-8000-00000000e0a1';
const HOUR = 3_600_000;

const settings: StoreSettings = {
  ...defaultSettings(),
  shipping_mode: 'flat_rate',
  default_shipping_cost_cents: 1500,
  free_shipping_threshold_cents: 0,
  max_pending_orders: 50,
};

async function seed(db: Db): Promise<void> {
  await db.insert(categories).values({ id: AUDIO, name: 'Áudio' });
  await db.insert(products).values([
    { id: FONE, name: 'Fone', priceCents: 29990, stockQuantity: 500, categoryId: AUDIO },
    { id: CABO, name: 'Cabo USB-C', priceCents: 3990, stockQuantity: 500 },
  ]);
}

type NewCoupon = typeof coupons.$inferInsert;

async function addCoupon(db: Db, values: Partial<NewCoupon> & { code: string }) {
  const [row] = await db
    .insert(coupons)
    .values({ kind: 'percent', value: 10, ...values })
    .returning();
  return row!;
}

const fone: CartLine = {
  productId: FONE,
  variantId: null,
  quantity: 1,
  seenPriceCents: 29990,
  seenName: 'Fone',
};
const cabo: CartLine = {
  productId: CABO,
  variantId: null,
  quantity: 1,
  seenPriceCents: 3990,
  seenName: 'Cabo USB-C',
};

interface Shopper {
  cpf?: string;
  email?: string;
  /** As typed at the checkout. */
  customerPhone?: string;
  zipCode?: string;
  number?: string;
}

function place(
  db: Db,
  couponCode: string | null,
  shopper: Shopper = {},
  cart: CartLine[] = [fone],
  storeSettings: StoreSettings = settings,
  changes?: PlaceOrderInput['changes'],
): Promise<PlaceOrderResult> {
  return placeOrder(
    db,
    {
      form: shopperCheckout({
        ...(shopper.email ? { customerEmail: shopper.email } : {}),
        ...(shopper.cpf ? { customerCpf: shopper.cpf } : {}),
        ...(shopper.customerPhone ? { customerPhone: shopper.customerPhone } : {}),
        ...(shopper.zipCode ? { zipCode: shopper.zipCode } : {}),
        ...(shopper.number ? { number: shopper.number } : {}),
      }),
      cart,
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      couponCode,
      settings: storeSettings,
      changes,
    },
    { tracking: false },
  );
}

async function usedCount(db: Db, id: string): Promise<number> {
  const [row] = await db.select().from(coupons).where(eq(coupons.id, id));
  return row!.usedCount;
}

async function ordersWith(db: Db, couponId: string): Promise<number> {
  const rows = await db
    .select({ orderId: orderAdjustments.orderId })
    .from(orderAdjustments)
    .where(eq(orderAdjustments.couponId, couponId));
  return new Set(rows.map((row) => row.orderId)).size;
}

describeDb('coupons', ({ db, database }) => {
  beforeEach(async () => {
    await seed(db());
  });

  it('stores the coupon as an adjustment of the order, with its label, amount and code', async () => {
    const coupon = await addCoupon(db(), { code: 'BEMVINDO10' });
    const result = await place(db(), 'BEMVINDO10');
    if (!result.ok) throw new Error(JSON.stringify(result));
    const [order] = await db().select().from(orders).where(eq(orders.id, result.orderId));
    const adjustments = await db()
      .select()
      .from(orderAdjustments)
      .where(eq(orderAdjustments.orderId, result.orderId));
    expect(adjustments).toMatchObject([
      {
        position: 1,
        kind: 'coupon',
        label: 'Cupom BEMVINDO10',
        amountCents: -2999,
        couponId: coupon.id,
        couponCode: 'BEMVINDO10',
      },
    ]);
    expect(order!.totalAmountCents).toBe(29990 + 1500 - 2999);
    expect(await usedCount(db(), coupon.id)).toBe(1);
  });

  it('refuses each unusable coupon with its reason in pt-BR, writing nothing; one not started yet reads as unknown', async () => {
    const now = Date.now();
    await addCoupon(db(), { code: 'DESLIGADO', active: false });
    await addCoupon(db(), {
      code: 'AMANHA',
      startsAt: new Date('2099-01-02T13:00:00Z'),
    });
    await addCoupon(db(), { code: 'ONTEM', endsAt: new Date(now - HOUR) });
    await addCoupon(db(), { code: 'ESGOTADO', usageLimit: 1, usedCount: 1 });
    // A campaign to come is answered as a code that names nothing, counted as a guess.
    const unknown = (code: string) => ({
      message: COUPON_MESSAGES.unknown(code),
      unknown: true as const,
    });
    const cases: [string, { message: string; unknown?: true }][] = [
      ['NAOEXISTE', unknown('NAOEXISTE')],
      ['DESLIGADO', unknown('DESLIGADO')],
      ['AMANHA', unknown('AMANHA')],
      ['ONTEM', { message: COUPON_MESSAGES.expired('ONTEM') }],
      ['ESGOTADO', { message: COUPON_MESSAGES.usedUp('ESGOTADO') }],
    ];
    for (const [code, { message, ...rest }] of cases) {
      expect(await findUsableCoupon(db(), code)).toEqual({ ok: false, message, ...rest });
      expect(await place(db(), code)).toEqual({ ok: false, reason: 'coupon', error: message });
    }
    expect(await db().select().from(orders)).toEqual([]);
  });

  it('counts the uses of each shopper by CPF and by e-mail', async () => {
    const coupon = await addCoupon(db(), { code: 'UMAVEZ', usageLimitPerCustomer: 1 });
    const cpf = shopperCpf();
    const email = `ana+${randomUUID()}@example.com`;
    expect((await place(db(), 'UMAVEZ', { cpf })).ok).toBe(true);
    const refused = { ok: false, reason: 'coupon', error: COUPON_MESSAGES.usedByShopper('UMAVEZ') };
    expect(await place(db(), 'UMAVEZ', { cpf })).toEqual(refused);
    expect((await place(db(), 'UMAVEZ', { email })).ok).toBe(true);
    // The same e-mail in other capitals, with another CPF, is the same shopper.
    expect(await place(db(), 'UMAVEZ', { email: email.toUpperCase() })).toEqual(refused);
    expect(await usedCount(db(), coupon.id)).toBe(2);
  });

  it('gives a first-purchase coupon only to a shopper with no order yet', async () => {
    await addCoupon(db(), { code: 'PRIMEIRA', firstPurchaseOnly: true });
    const cpf = shopperCpf();
    expect((await place(db(), null, { cpf })).ok).toBe(true);
    expect(await place(db(), 'PRIMEIRA', { cpf })).toEqual({
      ok: false,
      reason: 'coupon',
      error: COUPON_MESSAGES.firstPurchase('PRIMEIRA'),
    });
    // Someone else entirely: another phone and another door.
    const stranger = { customerPhone: '(21) 99876-5432', zipCode: '20040-020', number: '55' };
    expect((await place(db(), 'PRIMEIRA', stranger)).ok).toBe(true);
  });

  it('refuses a first-purchase coupon to a fresh e-mail and CPF ordering to a phone or a door that ordered before', async () => {
    await addCoupon(db(), { code: 'PRIMEIRA', firstPurchaseOnly: true });
    const first = { customerPhone: '(31) 98888-1234', zipCode: '30130-010', number: '120 B' };
    expect((await place(db(), null, first)).ok).toBe(true);
    const refused = {
      ok: false,
      reason: 'coupon',
      error: COUPON_MESSAGES.firstPurchase('PRIMEIRA'),
    };
    // Every place() is a new e-mail and a new valid CPF.
    const samePhone = { ...first, zipCode: '01310-100', number: '7' };
    expect(await place(db(), 'PRIMEIRA', samePhone)).toEqual(refused);
    const sameDoor = { customerPhone: '(31) 97777-0000', zipCode: '30130010', number: '120b' };
    expect(await place(db(), 'PRIMEIRA', sameDoor)).toEqual(refused);
    // The next door on the CEP, from another phone, is someone else's first purchase.
    const nextDoor = { ...sameDoor, customerPhone: '(31) 96666-0000', number: '122' };
    expect((await place(db(), 'PRIMEIRA', nextDoor)).ok).toBe(true);
  });

  it('says what a coupon lacks for these lines (minimum, products), and takes no use', async () => {
    const minimum = await addCoupon(db(), { code: 'ACIMA500', minSubtotalCents: 50000 });
    const onlyAudio = await addCoupon(db(), { code: 'SOAUDIO', categoryIds: [AUDIO] });
    const lines = [{ productId: CABO, categoryId: null, unitPriceCents: 3990, quantity: 1 }];
    const short = priceOrder(lines, settings, { paymentMethod: 'pix', coupon: minimum });
    expect(couponMissText('ACIMA500', short.couponMiss!)).toBe(
      'Faltam R$ 460,10 para usar o cupom ACIMA500: ele vale em compras a partir de R$ 500,00.',
    );
    const other = priceOrder(lines, settings, { paymentMethod: 'pix', coupon: onlyAudio });
    expect(couponMissText('SOAUDIO', other.couponMiss!)).toBe(
      'O cupom SOAUDIO não vale para os produtos do seu carrinho.',
    );
    // An order placed anyway goes without the coupon, and the coupon keeps its uses.
    const result = await place(db(), 'SOAUDIO', {}, [cabo]);
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(await ordersWith(db(), onlyAudio.id)).toBe(0);
    expect(await usedCount(db(), onlyAudio.id)).toBe(0);
    // With a product of the category, only that product's price is discounted.
    const mixed = await place(db(), 'SOAUDIO', {}, [fone, cabo]);
    if (!mixed.ok) throw new Error(JSON.stringify(mixed));
    const [adjustment] = await db()
      .select()
      .from(orderAdjustments)
      .where(eq(orderAdjustments.orderId, mixed.orderId));
    expect(adjustment!.amountCents).toBe(-2999);
  });

  it("keeps a coupon's terms per instance until the database announces a change; never a limited coupon's", async () => {
    await addCoupon(db(), { code: 'VERAO', value: 10 });
    const limited = await addCoupon(db(), { code: 'POUCOS', usageLimit: 1 });
    const feed = await createChangeFeed(database());
    try {
      await until(async () => feed.live() || undefined, 'the feed to listen');
      const changes = feed.only('coupons');
      const value = async (code: string) => {
        const found = await findUsableCoupon(db(), code, { changes });
        return found.ok ? found.coupon.value : found.message;
      };
      expect(await value('VERAO')).toBe(10);
      // A change the feed has not announced yet is not seen: the copy is kept.
      const version = changes.version();
      await db().update(coupons).set({ value: 20 }).where(eq(coupons.code, 'VERAO'));
      if (changes.version() === version) expect(await value('VERAO')).toBe(10);
      await until(async () => ((await value('VERAO')) === 20 ? true : undefined), 'the change');
      // A use taken is not announced, and a limited coupon is read each time.
      expect(await value('POUCOS')).toBe(10);
      await db().update(coupons).set({ usedCount: 1 }).where(eq(coupons.id, limited.id));
      expect(await value('POUCOS')).toBe(COUPON_MESSAGES.usedUp('POUCOS'));
    } finally {
      await feed.close();
    }
  });

  it('refuses an order priced with terms that changed unheard, with the reason read afresh', async () => {
    await addCoupon(db(), { code: 'VERAO' });
    // A feed that never moves: the change below goes unheard, as in the instant before a notification.
    const unmoving = { version: () => 1, live: () => true };
    const stuck = { only: () => unmoving };
    const check = await findUsableCoupon(db(), 'VERAO', { changes: stuck.only() });
    expect(check.ok).toBe(true);
    await db().update(coupons).set({ active: false }).where(eq(coupons.code, 'VERAO'));
    const result = await place(db(), 'VERAO', {}, [fone], settings, stuck);
    expect(result).toEqual({
      ok: false,
      reason: 'coupon',
      error: COUPON_MESSAGES.unknown('VERAO'),
    });
    expect(await db().select().from(orders)).toEqual([]);
  });

  it('never lets 50 concurrent checkouts use a 10-use coupon more than 10 times; a cancelled order gives its use back', async () => {
    const coupon = await addCoupon(db(), { code: 'DEZUSOS', usageLimit: 10 });
    const results = await Promise.all(Array.from({ length: 50 }, () => place(db(), 'DEZUSOS')));
    const placed = results.filter((result) => result.ok);
    const refused = results.filter((result) => !result.ok);
    expect(placed).toHaveLength(10);
    expect(new Set(refused.map((result) => JSON.stringify(result)))).toEqual(
      new Set([
        JSON.stringify({ ok: false, reason: 'coupon', error: COUPON_MESSAGES.usedUp('DEZUSOS') }),
      ]),
    );
    expect(await ordersWith(db(), coupon.id)).toBe(10);
    expect(await usedCount(db(), coupon.id)).toBe(10);

    // One order expires unpaid: its use comes back, and one more shopper can take it.
    const [first] = placed;
    await db()
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - HOUR) })
      .where(eq(orders.id, first!.ok ? first!.orderId : ''));
    expect(await expireOrders(db(), null, { tracking: false })).toBe(1);
    expect(await usedCount(db(), coupon.id)).toBe(9);
    expect((await place(db(), 'DEZUSOS')).ok).toBe(true);
    expect((await place(db(), 'DEZUSOS')).ok).toBe(false);
    expect(await usedCount(db(), coupon.id)).toBe(10);
  });
});

describe('the order adjustments migration', () => {
  it("moves each order's PIX discount into its adjustments, labelled with its percentage", async () => {
    await acrossMigration(
      '_coupons_and_order_adjustments',
      async (client) => {
        for (const [subtotal, discount] of [
          [49990, 4999],
          [999, 49],
          [3990, 0],
        ]) {
          await client.query(
            `insert into orders (customer_name, customer_email, customer_phone, customer_cpf,
              shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
              shipping_state, subtotal_cents, discount_cents, total_amount_cents, order_token)
             values ('Ana', 'ana@example.com', '11987654321', '52998224725', '01310100', 'Rua',
              '1', 'Centro', 'São Paulo', 'SP', $1, $2, $3, 'token')`,
            [subtotal, discount, subtotal! - discount!],
          );
        }
      },
      async (client) => {
        const rows = await client.query<{ subtotal: number; label: string | null; amount: number }>(
          `select o.subtotal_cents as subtotal, a.label, a.amount_cents as amount
             from orders o left join order_adjustments a on a.order_id = o.id
            order by o.subtotal_cents desc`,
        );
        expect(rows.rows).toEqual([
          { subtotal: 49990, label: 'Desconto PIX (10%)', amount: -4999 },
          { subtotal: 3990, label: null, amount: null },
          { subtotal: 999, label: 'Desconto PIX (5%)', amount: -49 },
        ]);
      },
    );
  });
});
