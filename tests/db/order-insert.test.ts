import { randomUUID } from 'node:crypto';

import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { coupons, orders, products, productVariants } from '~/db/schema';
import { stockClaimParts } from '~/modules/catalog/index.server';
import type { OrderLine } from '~/modules/orders';
import { getOrder, insertOrder } from '~/modules/orders/index.server';
import { markCheckoutsConverted } from '~/modules/recovery/index.server';

import { describeDb, queryRows } from '../support/db';
import { newOrder, SEDEX_SHIPPING, writtenOrder } from '../support/orders';

type NewOrder = Parameters<typeof insertOrder>[1];

const line = (name: string, cents: number, quantity = 1): OrderLine => ({
  productId: null,
  variantId: null,
  sku: `SKU-${name}`,
  options: [{ name: 'Tamanho', value: name }],
  name,
  unitPriceCents: cents,
  quantity,
  totalCents: cents * quantity,
  imageUrl: null,
});

/** An order of these lines for this e-mail, its PIX deadline a fixed moment to read back. */
const orderOf = (email: string, lines: OrderLine[], extra: Partial<NewOrder> = {}) =>
  newOrder({ email, lines, expiresAt: new Date('2031-01-02T03:04:05.678Z'), ...extra });

const place = (db: Db, order: NewOrder, tracking = false) => writtenOrder(db, order, { tracking });

const storedLines = async (db: Db, orderId: string) =>
  (await getOrder(db, orderId))?.lines.map((each) => [each.name, each.quantity, each.totalCents]);

const jobs = (db: Db, orderId: string) =>
  queryRows<{ topic: string }>(
    db,
    sql`select topic from outbox where payload->>'orderId' = ${orderId} order by topic`,
  );

describeDb('an order’s statement', ({ db }) => {
  it('writes each order of one shape with its own values, again and again', async () => {
    const written = [];
    for (const name of ['P', 'M', 'G']) {
      const order = await place(db(), orderOf(`${name}@example.com`, [line(name, 1000, 2)]));
      written.push(order);
    }
    for (const [at, name] of ['P', 'M', 'G'].entries()) {
      const stored = await getOrder(db(), written[at]!.id);
      expect(stored?.customer.email).toBe(`${name}@example.com`);
      expect(stored?.lines.map((each) => each.options)).toEqual([
        [{ name: 'Tamanho', value: name }],
      ]);
      expect(await storedLines(db(), written[at]!.id)).toEqual([[name, 2, 2000]]);
      expect(stored?.payment.expiresAt?.toISOString()).toBe('2031-01-02T03:04:05.678Z');
      expect(await jobs(db(), written[at]!.id)).toHaveLength(1);
    }
  });

  it('writes orders of other shapes: more lines than it keeps a statement for, adjustments, shipping, tracking', async () => {
    const many = Array.from({ length: 6 }, (_, at) => line(`L${at}`, 100 * (at + 1)));
    const long = await place(db(), orderOf('long@example.com', many));
    expect(await storedLines(db(), long.id)).toHaveLength(6);

    const [coupon] = await db()
      .insert(coupons)
      .values({ code: 'DEZ', kind: 'fixed', value: 1000 })
      .returning({ id: coupons.id });
    const adjusted = await place(
      db(),
      orderOf('desconto@example.com', [line('A', 10_000)], {
        adjustments: [
          {
            kind: 'coupon',
            label: 'Cupom DEZ',
            cents: -1000,
            couponId: coupon!.id,
            couponCode: 'DEZ',
          },
          { kind: 'pix', label: 'Desconto PIX', cents: -450, couponId: null, couponCode: null },
        ],
        totalCents: 8550,
        shippingCents: 2590,
        shipping: SEDEX_SHIPPING,
      }),
      true,
    );
    const stored = await getOrder(db(), adjusted.id);
    expect(stored?.adjustments.map((each) => [each.label, each.cents])).toEqual([
      ['Cupom DEZ', -1000],
      ['Desconto PIX', -450],
    ]);
    expect(stored?.shipping).toMatchObject({ service: 'SEDEX', businessDays: 3 });
    expect(await jobs(db(), adjusted.id)).toHaveLength(2);

    // Without a carrier, the column is empty (SQL's null), not JSON's null.
    const [plain] = await queryRows<{ empty: boolean }>(
      db(),
      sql`select shipping_method is null as empty from orders where id = ${long.id}`,
    );
    expect(plain?.empty).toBe(true);
  });

  it('takes its claims in turn, and writes nothing, claims taken included, when one takes nothing', async () => {
    const made = await db()
      .insert(products)
      .values([
        { name: 'Caneca', priceCents: 2500, stockQuantity: 10 },
        { name: 'Camiseta', priceCents: 5000, stockQuantity: 3 },
      ])
      .returning({ id: products.id, name: products.name });
    const stock = async () =>
      Object.fromEntries(
        (
          await db()
            .select({
              productId: productVariants.productId,
              id: productVariants.id,
              units: productVariants.stockQuantity,
            })
            .from(productVariants)
        ).map((row) => [made.find((product) => product.id === row.productId)!.name, row]),
      );
    const variants = await stock();
    const claim = (name: string, quantity: number, priceCents: number) => ({
      productId: variants[name]!.productId,
      variantId: variants[name]!.id,
      quantity,
      priceCents,
    });
    const order = orderOf('estoque@example.com', [line('Caneca', 2500), line('Camiseta', 5000, 4)]);

    // The T-shirt has 3 units: whichever claim comes first, the mug's units go back with it.
    const claims = stockClaimParts([claim('Caneca', 1, 2500), claim('Camiseta', 4, 5000)]);
    const refused = await insertOrder(db(), order, { tracking: false }, { claims });
    const shirt = claims.find(
      (part) => part.values[`${part.key}variantId`] === variants.Camiseta!.id,
    );
    expect(refused).toEqual({ ok: false, refusal: { reason: 'claim', claim: shirt } });
    expect((await stock()).Caneca!.units).toBe(10);
    expect((await stock()).Camiseta!.units).toBe(3);
    expect(
      await db().select().from(orders).where(eq(orders.customerEmail, 'estoque@example.com')),
    ).toEqual([]);

    // A price other than the product's takes nothing either.
    const repriced = await insertOrder(
      db(),
      { ...order, idempotencyKey: randomUUID() },
      { tracking: false },
      { claims: stockClaimParts([claim('Caneca', 1, 2400)]) },
    );
    expect(repriced.ok).toBe(false);

    // One statement cannot update a row twice: two claims of one variant are refused at once.
    expect(() => stockClaimParts([claim('Caneca', 1, 2500), claim('Caneca', 2, 2500)])).toThrow();

    const placed = await writtenOrder(
      db(),
      { ...order, idempotencyKey: randomUUID() },
      { tracking: false },
      { claims: stockClaimParts([claim('Caneca', 1, 2500), claim('Camiseta', 3, 5000)]) },
    );
    expect(await storedLines(db(), placed.id)).toHaveLength(2);
    expect((await stock()).Caneca!.units).toBe(9);
    expect((await stock()).Camiseta!.units).toBe(0);
  });

  it('writes nothing when its transaction rolls back', async () => {
    const order = orderOf('desfeito@example.com', [line('X', 500)]);
    // Twice, so the second runs a statement already built.
    for (let round = 0; round < 2; round++) {
      await expect(
        db().transaction(async (tx) => {
          await insertOrder(tx, { ...order, idempotencyKey: randomUUID() }, { tracking: false });
          throw new Error('desfazer');
        }),
      ).rejects.toThrow('desfazer');
    }
    expect(
      await db().select().from(orders).where(eq(orders.customerEmail, 'desfeito@example.com')),
    ).toEqual([]);
  });

  it('closes the browser’s saved checkout with the order it became', async () => {
    const [saved] = await queryRows<{ id: string }>(
      db(),
      sql`insert into abandoned_checkouts (email, lines, value_cents, typed_at, expires_at)
          values ('salvo@example.com', '[]', 700, now(), now() + interval '1 day') returning id`,
    );
    const order = orderOf('salvo@example.com', [line('S', 700)]);
    const placed = await writtenOrder(
      db(),
      order,
      { tracking: false },
      {
        alongside: (orderId) =>
          markCheckoutsConverted({
            checkoutId: saved!.id,
            email: 'SALVO@example.com',
            orderId,
            totalCents: 700,
            now: new Date('2030-05-06T07:08:09Z'),
          }),
      },
    );
    const [row] = await queryRows<{ status: string; order_id: string; order_total_cents: number }>(
      db(),
      sql`select status, order_id, order_total_cents from abandoned_checkouts where id = ${saved!.id}`,
    );
    expect(row).toEqual({ status: 'converted', order_id: placed.id, order_total_cents: 700 });
  });
});
