import { randomUUID } from 'node:crypto';

import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

import type { Db } from '~/db/database.server';
import {
  categories,
  orderAdjustments,
  orderItems,
  orders,
  outbox,
  products,
  productVariants,
  sandboxPayments,
} from '~/db/schema';
import { applyPaymentStatus, markOrderPaid } from '~/flows/order-changes.server';
import { expireOrders, payOrder, refreshPayment } from '~/flows/order-payment.server';
import {
  PLACE_ORDER_MESSAGES,
  placeOrder,
  type PlaceOrderResult,
} from '~/flows/place-order.server';
import { logger } from '~/lib/logger.server';
import { databaseStatements } from '~/lib/metrics.server';
import type { CartLine } from '~/modules/cart';
import { checkoutFormSchema, type CheckoutForm } from '~/modules/checkout';
import type { TrackingParameters } from '~/modules/orders';
import { findOrderFor, getOrder } from '~/modules/orders/index.server';
import { createSandboxProvider, setSandboxPaymentStatus } from '~/modules/payments/index.server';
import { defaultSettings, type StoreSettings } from '~/modules/settings';

import { describeDb, queryRows } from '../support/db';
import { shopperAddress, shopperCpf } from '../support/shoppers';

const FONE = '5a3b1e00-0000-4000-8000-00000000c001';
const MONITOR = '5a3b1e00-0000-4000-8000-00000000c002';
const CABO = '5a3b1e00-0000-4000-8000-00000000c003';
const ADESIVO = '5a3b1e00-0000-4000-8000-00000000c004';

const STOCK = { [FONE]: 20, [MONITOR]: 3, [CABO]: 50, [ADESIVO]: 100 } as const;

const MINUTE = 60_000;
const noTracking = { tracking: false };
const withTracking = { tracking: true };

async function seed(db: Db): Promise<void> {
  const [audio] = await db.insert(categories).values({ name: 'Áudio' }).returning();
  await db.insert(products).values([
    {
      id: FONE,
      name: 'Fone de Ouvido Bluetooth Pro',
      priceCents: 29990,
      stockQuantity: STOCK[FONE],
      categoryId: audio!.id,
      imageUrls: ['/sample/fone-1.svg', '/sample/fone-2.svg'],
    },
    {
      id: MONITOR,
      name: 'Monitor 27" Full HD',
      priceCents: 123456,
      stockQuantity: STOCK[MONITOR],
    },
    { id: CABO, name: 'Cabo USB-C', priceCents: 3990, stockQuantity: STOCK[CABO] },
    { id: ADESIVO, name: 'Adesivo', priceCents: 500, stockQuantity: STOCK[ADESIVO] },
  ]);
  await rememberVariants(db);
}

/** Each product's one variant (the database made it): what the cart's lines name. */
const VARIANT = new Map<string, string>();

async function rememberVariants(db: Db): Promise<void> {
  VARIANT.clear();
  const rows = await db
    .select({ id: productVariants.id, productId: productVariants.productId })
    .from(productVariants);
  for (const row of rows) VARIANT.set(row.productId, row.id);
}

/** A cart line as the cart action writes it: today's price and name. */
const line = (productId: string, quantity: number, seenPriceCents: number, seenName: string) => ({
  productId,
  variantId: VARIANT.get(productId) ?? null,
  quantity,
  seenPriceCents,
  seenName,
});
const fone = (quantity = 1) => line(FONE, quantity, 29990, 'Fone de Ouvido Bluetooth Pro');
const monitor = (quantity = 1) => line(MONITOR, quantity, 123456, 'Monitor 27" Full HD');
const cabo = (quantity = 1) => line(CABO, quantity, 3990, 'Cabo USB-C');
const adesivo = (quantity = 1) => line(ADESIVO, quantity, 500, 'Adesivo');

/** What the checkout form posts, through the same schema as the route. */
function form(idempotencyKey: string = randomUUID(), customerCpf = '529.982.247-25'): CheckoutForm {
  return checkoutFormSchema.parse({
    customerName: 'Maria da Silva',
    customerEmail: 'Maria@Example.com',
    customerCpf,
    customerPhone: '(11) 98765-4321',
    zipCode: '01310-100',
    street: 'Avenida Paulista',
    number: '1000',
    complement: 'Apto 12',
    neighborhood: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    paymentMethod: 'pix',
    idempotencyKey,
  });
}

interface PlaceOptions {
  key?: string;
  token?: string;
  /** Each order its own shopper unless given: a CPF and a client address of its own. */
  cpf?: string;
  address?: string;
  settings?: StoreSettings;
  tracking?: boolean;
  trackingParameters?: TrackingParameters;
}

function place(db: Db, cart: CartLine[], options: PlaceOptions = {}): Promise<PlaceOrderResult> {
  return placeOrder(
    db,
    {
      form: form(options.key, options.cpf ?? shopperCpf()),
      cart,
      orderToken: options.token ?? randomUUID(),
      clientAddress: options.address ?? shopperAddress(),
      trackingParameters: options.trackingParameters ?? {},
      settings: options.settings ?? defaultSettings(),
    },
    { tracking: options.tracking ?? false },
  );
}

/** Places an order that must go through, and returns its id. */
async function placed(db: Db, cart: CartLine[], options: PlaceOptions = {}): Promise<string> {
  const result = await place(db, cart, options);
  if (!result.ok) throw new Error(`Order refused: ${JSON.stringify(result)}`);
  return result.orderId;
}

/** The order's row with its adjustments as stored (kind, label, amount), in their order. */
async function orderRow(db: Db, orderId: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error(`No order ${orderId}`);
  const adjustments = await db
    .select({
      kind: orderAdjustments.kind,
      label: orderAdjustments.label,
      amountCents: orderAdjustments.amountCents,
    })
    .from(orderAdjustments)
    .where(eq(orderAdjustments.orderId, orderId))
    .orderBy(orderAdjustments.position);
  return { ...row, adjustments };
}

const itemRows = (db: Db, orderId: string) =>
  db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productName));

const outboxRows = (db: Db) =>
  db.select({ topic: outbox.topic, payload: outbox.payload }).from(outbox).orderBy(asc(outbox.id));

async function stockOf(db: Db, productId: string): Promise<number> {
  const [row] = await db
    .select({ stock: products.stockQuantity })
    .from(products)
    .where(eq(products.id, productId));
  return row!.stock;
}

async function count(db: Db, table: 'orders' | 'order_items' | 'outbox'): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from ${sql.identifier(table)}`,
  );
  return row!.count;
}

/** Everything checkout writes: compared before and after a refused checkout. */
async function footprint(db: Db) {
  const stock = await db
    .select({ id: products.id, stock: products.stockQuantity })
    .from(products)
    .orderBy(products.id);
  return {
    orders: await count(db, 'orders'),
    items: await count(db, 'order_items'),
    outbox: await count(db, 'outbox'),
    stock,
  };
}

describeDb('placing an order', ({ db, backend }) => {
  beforeEach(async () => {
    await seed(db());
  });

  it('writes a pending order with copies of its products, priced and reserved from the database', async () => {
    const settings = {
      ...defaultSettings(),
      shipping_mode: 'flat_rate' as const,
      default_shipping_cost_cents: 1500,
      free_shipping_threshold_cents: 1_000_000,
      pix_expiration_minutes: 45,
    };
    const token = randomUUID();
    const key = randomUUID();
    const before = Date.now();
    const result = await place(db(), [fone(2), monitor(1)], {
      key,
      token,
      cpf: '529.982.247-25',
      settings,
      trackingParameters: { utm_source: 'instagram', utm_campaign: 'natal' },
    });
    const after = Date.now();

    // The new order comes back as written, for the payment that follows.
    expect(result).toEqual({
      ok: true,
      orderId: expect.any(String),
      created: true,
      order: expect.objectContaining({ status: 'pending' }),
    });
    if (!result.ok) return;
    const order = await orderRow(db(), result.orderId);
    expect(order).toMatchObject({
      status: 'pending',
      idempotencyKey: key,
      orderToken: token,
      customerName: 'Maria da Silva',
      customerEmail: 'maria@example.com',
      customerCpf: '52998224725',
      customerPhone: '11987654321',
      shippingZip: '01310100',
      shippingStreet: 'Avenida Paulista',
      shippingNumber: '1000',
      shippingComplement: 'Apto 12',
      shippingNeighborhood: 'Bela Vista',
      shippingCity: 'São Paulo',
      shippingState: 'SP',
      subtotalCents: 2 * 29990 + 123456,
      shippingCostCents: 1500,
      totalAmountCents: 2 * 29990 + 123456 + 1500,
      paymentMethod: 'pix',
      paymentId: null,
      paymentStatus: null,
      paidAt: null,
      cancelReason: null,
      trackingParameters: { utm_source: 'instagram', utm_campaign: 'natal' },
    });
    // The deadline comes from the settings until a payment brings its own.
    expect(order.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 45 * MINUTE);
    expect(order.expiresAt!.getTime()).toBeLessThanOrEqual(after + 45 * MINUTE);

    expect(
      (await itemRows(db(), result.orderId)).map(
        ({ id: _id, orderId: _order, variantId: _v, sku: _s, variantOptions: _o, ...item }) => item,
      ),
    ).toEqual([
      {
        productId: FONE,
        productName: 'Fone de Ouvido Bluetooth Pro',
        productPriceCents: 29990,
        quantity: 2,
        totalPriceCents: 59980,
        imageUrl: '/sample/fone-1.svg',
      },
      {
        productId: MONITOR,
        productName: 'Monitor 27" Full HD',
        productPriceCents: 123456,
        quantity: 1,
        totalPriceCents: 123456,
        imageUrl: null,
      },
    ]);

    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 2);
    expect(await stockOf(db(), MONITOR)).toBe(STOCK[MONITOR] - 1);
    expect(await stockOf(db(), CABO)).toBe(STOCK[CABO]);
    expect(await outboxRows(db())).toEqual([
      { topic: 'email.order_received', payload: { orderId: result.orderId } },
    ]);

    // Copies, not references: what the product becomes later does not change the order.
    await db()
      .update(products)
      .set({ name: 'Fone Novo', priceCents: 1, imageUrls: [] })
      .where(eq(products.id, FONE));
    const [item] = await itemRows(db(), result.orderId);
    expect(item).toMatchObject({
      productName: 'Fone de Ouvido Bluetooth Pro',
      productPriceCents: 29990,
      imageUrl: '/sample/fone-1.svg',
    });
  });

  it('charges free shipping above the threshold, from the settings', async () => {
    const settings = {
      ...defaultSettings(),
      shipping_mode: 'flat_rate' as const,
      default_shipping_cost_cents: 1500,
      free_shipping_threshold_cents: 50_000,
    };
    const cheap = await placed(db(), [cabo(1)], { settings });
    const dear = await placed(db(), [fone(2)], { settings });
    expect(await orderRow(db(), cheap)).toMatchObject({
      subtotalCents: 3990,
      shippingCostCents: 1500,
      totalAmountCents: 5490,
    });
    expect(await orderRow(db(), dear)).toMatchObject({
      subtotalCents: 59980,
      shippingCostCents: 0,
      totalAmountCents: 59980,
    });
  });

  it('queues the sales-tracking report only when tracking is on', async () => {
    const tracked = await placed(db(), [fone()], { tracking: true });
    const untracked = await placed(db(), [cabo()], { tracking: false });
    expect(await outboxRows(db())).toEqual([
      { topic: 'email.order_received', payload: { orderId: tracked } },
      { topic: 'tracking.order', payload: { orderId: tracked, paymentStatus: 'pending' } },
      { topic: 'email.order_received', payload: { orderId: untracked } },
    ]);
  });

  it("holds the order's e-mail back a few seconds, for the PIX code it carries, and not its report", async () => {
    const before = Date.now();
    const orderId = await placed(db(), [fone()], { tracking: true });
    const after = Date.now();
    const rows = await db()
      .select({ topic: outbox.topic, runAt: outbox.runAt, placedAt: orders.createdAt })
      .from(outbox)
      .innerJoin(orders, sql`${orders.id}::text = ${outbox.payload}->>'orderId'`)
      .where(eq(orders.id, orderId))
      .orderBy(asc(outbox.id));
    expect(rows.map((row) => row.topic)).toEqual(['email.order_received', 'tracking.order']);
    // The e-mail's time is the server's clock five seconds on; the report's, the database's now.
    expect(rows[0]!.runAt.getTime()).toBeGreaterThanOrEqual(before + 5_000);
    expect(rows[0]!.runAt.getTime()).toBeLessThanOrEqual(after + 5_000);
    expect(rows[1]!.runAt).toEqual(rows[1]!.placedAt);
  });

  it('gives the first order back for the same submission sent twice, reserving once', async () => {
    const key = randomUUID();
    const token = randomUUID();
    const first = await place(db(), [fone(2)], { key, token });
    const second = await place(db(), [fone(2)], { key, token });

    expect(first).toMatchObject({ ok: true, orderId: expect.any(String), created: true });
    expect(second).toEqual({ ok: true, orderId: first.ok && first.orderId, created: false });
    expect(await count(db(), 'orders')).toBe(1);
    expect(await count(db(), 'order_items')).toBe(1);
    expect(await count(db(), 'outbox')).toBe(1);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 2);
  });

  it('gives one order for the same submission sent several times at once', async () => {
    const key = randomUUID();
    const token = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => place(db(), [fone(2)], { key, token })),
    );

    const orderIds = new Set(results.map((result) => result.ok && result.orderId));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(orderIds.size).toBe(1);
    expect(results.filter((result) => result.ok && result.created)).toHaveLength(1);
    expect(await count(db(), 'orders')).toBe(1);
    expect(await count(db(), 'outbox')).toBe(1);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 2);
  });

  it('gives one order for a double click on the last units in stock', async () => {
    // The second copy finds no stock left: it must still answer with the first copy's order,
    // not send the shopper, whose order exists, back to a cart saying the product sold out.
    const key = randomUUID();
    const token = randomUUID();
    const results = await Promise.all([
      place(db(), [monitor(3)], { key, token }),
      place(db(), [monitor(3)], { key, token }),
    ]);

    expect(results).toMatchObject([
      { ok: true, orderId: expect.any(String), created: expect.any(Boolean) },
      { ok: true, orderId: expect.any(String), created: expect.any(Boolean) },
    ]);
    expect(await count(db(), 'orders')).toBe(1);
    expect(await stockOf(db(), MONITOR)).toBe(0);
  });

  it('refuses a submission key used by another browser, writing nothing', async () => {
    const key = randomUUID();
    await placed(db(), [fone()], { key, token: randomUUID() });
    const before = await footprint(db());

    await expect(place(db(), [fone()], { key, token: randomUUID() })).resolves.toEqual({
      ok: false,
      reason: 'refused',
      error: 'Este formulário já foi usado. Recarregue a página e tente de novo.',
    });
    expect(await footprint(db())).toEqual(before);
  });

  it('refuses a cart whose price changed, saying so, and writes nothing', async () => {
    await db().update(products).set({ priceCents: 27990 }).where(eq(products.id, FONE));
    const before = await footprint(db());

    const result = await place(db(), [fone(2), cabo(1)]);

    expect(result).toEqual({
      ok: false,
      reason: 'cart_changed',
      notices: ['O preço de “Fone de Ouvido Bluetooth Pro” mudou de R$ 299,90 para R$ 279,90.'],
      corrected: [line(FONE, 2, 27990, 'Fone de Ouvido Bluetooth Pro'), cabo(1)],
    });
    expect(await footprint(db())).toEqual(before);
  });

  it('refuses a price changed after the cart was priced, as the order takes the stock', async ({
    skip,
  }) => {
    // The order's transaction is held at the shopper's lock (another connection holds it) after
    // its cart was priced; the price changes meanwhile. One connection cannot do this.
    if (backend !== 'postgres') skip();
    const token = randomUUID();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const blocker = db().transaction(async (tx) => {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`vitrine:open-orders:token:${token}`}, 0))`,
      );
      holding();
      await released;
    });
    await held;
    const before = await footprint(db());
    const placing = place(db(), [fone(1)], { token });
    await vi.waitFor(
      async () => {
        const [waiting] = await queryRows<{ n: number }>(
          db(),
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
        );
        expect(waiting!.n).toBe(1);
      },
      { timeout: 5_000, interval: 20 },
    );
    await db().update(products).set({ priceCents: 27990 }).where(eq(products.id, FONE));
    release();
    await blocker;

    await expect(placing).resolves.toEqual({
      ok: false,
      reason: 'cart_changed',
      notices: ['O preço de “Fone de Ouvido Bluetooth Pro” mudou de R$ 299,90 para R$ 279,90.'],
      corrected: [line(FONE, 1, 27990, 'Fone de Ouvido Bluetooth Pro')],
    });
    expect(await footprint(db())).toEqual(before);
  });

  it('refuses a cart holding a product removed since, and writes nothing', async () => {
    await db().delete(products).where(eq(products.id, MONITOR));
    const before = await footprint(db());

    const result = await place(db(), [monitor(1), cabo(1)]);

    expect(result).toEqual({
      ok: false,
      reason: 'cart_changed',
      notices: [
        'O produto “Monitor 27" Full HD” não está mais disponível e foi removido do seu carrinho.',
      ],
      corrected: [cabo(1)],
    });
    expect(await footprint(db())).toEqual(before);
  });

  it('refuses a quantity above the stock left, and writes nothing', async () => {
    const before = await footprint(db());

    const result = await place(db(), [cabo(2), monitor(5)]);

    expect(result).toEqual({
      ok: false,
      reason: 'cart_changed',
      notices: [
        'Só temos 3 unidades de “Monitor 27" Full HD” em estoque; a quantidade no seu carrinho foi ajustada.',
      ],
      corrected: [cabo(2), monitor(3)],
    });
    expect(await footprint(db())).toEqual(before);
  });

  it('sends a shopper whose only product sold out meanwhile back to the cart, naming it', async () => {
    await placed(db(), [monitor(3)]);
    const before = await footprint(db());

    await expect(place(db(), [monitor(1)])).resolves.toEqual({
      ok: false,
      reason: 'cart_changed',
      notices: ['O produto “Monitor 27" Full HD” esgotou e foi removido do seu carrinho.'],
      corrected: [],
    });
    expect(await footprint(db())).toEqual(before);
  });

  it('checks out a cart whose cookie had no room for the product names', async () => {
    // A full cart with long names loses the names in its cookie (cartCookieHeader); they only
    // serve to name a deleted product, so the order must still go through.
    const result = await place(db(), [line(FONE, 1, 29990, ''), line(CABO, 2, 3990, '')]);
    expect(result).toMatchObject({ ok: true, orderId: expect.any(String), created: true });
    expect(await stockOf(db(), CABO)).toBe(STOCK[CABO] - 2);
  });

  it('refuses an empty cart', async () => {
    await expect(place(db(), [])).resolves.toEqual({
      ok: false,
      reason: 'refused',
      error: 'Seu carrinho está vazio.',
    });
    expect(await count(db(), 'orders')).toBe(0);
  });

  it('refuses a total below the payment minimum of R$ 5,01, and writes nothing', async () => {
    const before = await footprint(db());
    await expect(place(db(), [adesivo(1)])).resolves.toEqual({
      ok: false,
      reason: 'refused',
      error: 'Valor mínimo para pagamento é R$ 5,01',
    });
    expect(await footprint(db())).toEqual(before);

    // One cent more is enough; and shipping counts, since the minimum is about what is charged.
    await db().update(products).set({ priceCents: 501 }).where(eq(products.id, ADESIVO));
    await expect(place(db(), [line(ADESIVO, 1, 501, 'Adesivo')])).resolves.toMatchObject({
      ok: true,
    });
    await db().update(products).set({ priceCents: 500 }).where(eq(products.id, ADESIVO));
    const flatRate = {
      ...defaultSettings(),
      shipping_mode: 'flat_rate' as const,
      default_shipping_cost_cents: 1,
      free_shipping_threshold_cents: 0,
    };
    await expect(place(db(), [adesivo(1)], { settings: flatRate })).resolves.toMatchObject({
      ok: true,
    });
    expect(await stockOf(db(), ADESIVO)).toBe(STOCK[ADESIVO] - 2);
  });

  it("refuses a subtotal below the store's minimum order value, and writes nothing", async () => {
    const settings = { ...defaultSettings(), min_order_value_cents: 30_000 };
    const before = await footprint(db());

    await expect(place(db(), [fone(1)], { settings })).resolves.toEqual({
      ok: false,
      reason: 'refused',
      error: 'O valor mínimo do pedido é R$ 300,00.',
    });
    expect(PLACE_ORDER_MESSAGES.orderMinimum(30_000)).toBe('O valor mínimo do pedido é R$ 300,00.');
    expect(await footprint(db())).toEqual(before);

    // The minimum itself is enough.
    await expect(
      place(db(), [fone(1)], { settings: { ...settings, min_order_value_cents: 29_990 } }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('sells exactly the stock to 50 shoppers checking out at once', async () => {
    await db().update(products).set({ stockQuantity: 10 }).where(eq(products.id, CABO));

    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        place(db(), [cabo(1)], { key: randomUUID(), token: randomUUID() }),
      ),
    );

    const sold = results.filter((result) => result.ok);
    expect(sold).toHaveLength(10);
    expect(sold.every((result) => result.ok && result.created)).toBe(true);
    expect(new Set(sold.map((result) => result.ok && result.orderId)).size).toBe(10);
    expect(results.filter((result) => !result.ok)).toHaveLength(40);
    expect(await stockOf(db(), CABO)).toBe(0);
    expect(await count(db(), 'orders')).toBe(10);
    const [units] = await queryRows<{ units: number }>(
      db(),
      sql`select coalesce(sum(quantity), 0)::int as units from order_items where product_id = ${CABO}`,
    );
    expect(units!.units).toBe(10);
    expect(await count(db(), 'outbox')).toBe(10);
  });
});

describeDb("an order's statements", ({ db, backend }) => {
  beforeEach(async () => {
    await seed(db());
  });

  it('takes two statements, however many lines it has, and no transaction', async () => {
    // The server's counter of what it sends (/metrics), which the checkout bench divides by
    // the orders; a transaction would add its begin and commit to it on PostgreSQL.
    const sent = async () => (await databaseStatements.get()).values[0]?.value ?? 0;
    const before = await sent();
    const one = await place(db(), [fone(1)]);
    const afterOne = await sent();
    const two = await place(db(), [fone(1), monitor(1)]);
    const afterTwo = await sent();
    const tracked = await place(db(), [fone(1)], { tracking: true });
    const afterTracked = await sent();
    expect(one.ok && two.ok && tracked.ok).toBe(true);
    // The lines priced (1); then the locks and open orders, the stock of each line, the order with
    // its lines, the timeline's first line, its e-mail and sales report and the abandoned
    // checkouts it closes (1).
    expect(afterOne - before).toBe(2);
    expect(afterTwo - afterOne).toBe(2);
    expect(afterTracked - afterTwo).toBe(2);
  });

  it('is planned once for its shape on PostgreSQL, not again for every order', async ({ skip }) => {
    if (backend !== 'postgres') skip();
    // Sent one after the other, the orders and these queries share a connection, and so its
    // prepared statements. PostgreSQL plans a prepared statement for its values five times, then
    // keeps one plan for all values unless that plan looks dearer.
    const genericPlans = async () => {
      const [row] = await queryRows<{ generic: number }>(
        db(),
        sql`select coalesce(sum(generic_plans), 0)::int as generic
            from pg_prepared_statements where name like 'vitrine_order_insert_%'`,
      );
      return row!.generic;
    };
    const before = await genericPlans();
    for (let n = 0; n < 8; n++) await placed(db(), [fone(1)]);
    expect((await genericPlans()) - before).toBeGreaterThanOrEqual(3);
  });
});

describeDb('the limit of unpaid orders per shopper', ({ db }) => {
  beforeEach(async () => {
    await seed(db());
  });

  const sandbox = () =>
    createSandboxProvider({ db: db(), settings: async () => defaultSettings() });
  const OWN = PLACE_ORDER_MESSAGES.tooManyPending;
  const ELSEWHERE = PLACE_ORDER_MESSAGES.tooManyPendingElsewhere;

  it('refuses the 4th unpaid order of one browser, pointing to its newest, and writes nothing', async () => {
    const token = randomUUID();
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push(await placed(db(), [cabo()], { token }));
    const before = await footprint(db());

    await expect(place(db(), [fone()], { token })).resolves.toEqual({
      ok: false,
      reason: 'too_many_pending',
      error: OWN,
      openOrderId: ids[2],
    });
    expect(OWN).toBe(
      'Você já tem pedidos aguardando pagamento. Pague um deles ou aguarde o prazo do PIX para ' +
        'fazer um novo pedido.',
    );
    expect(await footprint(db())).toEqual(before);
    // Another browser, CPF and address is another shopper.
    await expect(place(db(), [fone()])).resolves.toMatchObject({ ok: true });
  });

  it('refuses the 4th unpaid order of one CPF from other browsers, showing none of them', async () => {
    const cpf = shopperCpf();
    for (let n = 0; n < 3; n++) await placed(db(), [cabo()], { cpf });
    const before = await footprint(db());

    // The same CPF typed without its mask is the same CPF.
    await expect(place(db(), [fone()], { cpf: cpf.replace(/\D/g, '') })).resolves.toEqual({
      ok: false,
      reason: 'too_many_pending',
      error: ELSEWHERE,
      openOrderId: null,
    });
    expect(await footprint(db())).toEqual(before);
  });

  it('refuses the 4th unpaid order of one client address, an IPv6 network counting as one', async () => {
    await placed(db(), [cabo()], { address: '203.0.113.7' });
    await placed(db(), [cabo()], { address: '::ffff:203.0.113.7' });
    // This browser has one open order, made from elsewhere: it is the one to pay.
    const token = randomUUID();
    const mine = await placed(db(), [cabo()], { address: '203.0.113.7', token });
    await expect(place(db(), [fone()], { address: '203.0.113.7', token })).resolves.toEqual({
      ok: false,
      reason: 'too_many_pending',
      error: ELSEWHERE,
      openOrderId: mine,
    });
    await expect(place(db(), [fone()], { address: '203.0.113.8' })).resolves.toMatchObject({
      ok: true,
    });

    for (const host of ['1', '2', '3']) {
      await placed(db(), [cabo()], { address: `2001:db8:1:2::${host}` });
    }
    await expect(
      place(db(), [fone()], { address: '2001:0db8:0001:0002:ffff:ffff:ffff:ffff' }),
    ).resolves.toMatchObject({ ok: false, reason: 'too_many_pending' });
    await expect(place(db(), [fone()], { address: '2001:db8:1:3::1' })).resolves.toMatchObject({
      ok: true,
    });
  });

  it('lets a burst of parallel checkouts of one shopper through only up to the limit', async () => {
    await db().update(products).set({ stockQuantity: 1000 }).where(eq(products.id, CABO));
    const cpf = shopperCpf();
    const token = randomUUID();
    const address = shopperAddress();
    const bursts = [{ cpf }, { token }, { address }];
    for (const who of bursts) {
      const results = await Promise.all(
        Array.from({ length: 12 }, () => place(db(), [cabo()], who)),
      );
      expect(
        results.filter((result) => result.ok),
        JSON.stringify(who),
      ).toHaveLength(3);
      expect(
        results.filter((result) => !result.ok && result.reason === 'too_many_pending'),
      ).toHaveLength(9);
    }
    expect(await count(db(), 'orders')).toBe(9);
    expect(await stockOf(db(), CABO)).toBe(1000 - 9);
  });

  it('frees a slot when an order is paid, cancelled or past its PIX deadline', async () => {
    const token = randomUUID();
    const refused = () => place(db(), [cabo()], { token });
    const [first, second, third] = [
      await placed(db(), [cabo()], { token }),
      await placed(db(), [cabo()], { token }),
      await placed(db(), [cabo()], { token }),
    ];
    await expect(refused()).resolves.toMatchObject({ reason: 'too_many_pending' });

    await markOrderPaid(db(), first!, noTracking);
    const fourth = await placed(db(), [cabo()], { token });
    await expect(refused()).resolves.toMatchObject({ reason: 'too_many_pending' });

    const payment = await payOrder(db(), sandbox(), second!);
    if (!payment.ok) throw new Error(payment.error);
    await applyPaymentStatus(
      db(),
      { orderId: second!, paymentId: payment.paymentId, status: 'rejected' },
      noTracking,
    );
    await placed(db(), [cabo()], { token });
    await expect(refused()).resolves.toMatchObject({ reason: 'too_many_pending' });

    // Past its deadline it no longer counts, even before the expiry job cancels it. The count runs
    // in the database under the placer's locks, so it reads the deadline by the database's clock,
    // the one every instance shares.
    await db()
      .update(orders)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(orders.id, third!));
    await placed(db(), [cabo()], { token });
    expect(await orderRow(db(), fourth)).toMatchObject({ status: 'pending' });
  });

  it('follows the max_pending_orders setting', async () => {
    const settings = { ...defaultSettings(), max_pending_orders: 1 };
    const token = randomUUID();
    await placed(db(), [cabo()], { token, settings });
    await expect(place(db(), [cabo()], { token, settings })).resolves.toMatchObject({
      reason: 'too_many_pending',
    });
    // Raised again, the same browser may go on.
    await expect(place(db(), [cabo()], { token })).resolves.toMatchObject({ ok: true });
  });

  it('keeps only a hash of the client address, and only while the order is unpaid', async () => {
    const orderId = await placed(db(), [cabo()], { address: '203.0.113.7' });
    const row = await orderRow(db(), orderId);
    expect(row.clientAddressHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain('203.0.113');

    await markOrderPaid(db(), orderId, noTracking);
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'confirmed',
      clientAddressHash: null,
    });
  });
});

describeDb('quantities at checkout', ({ db }) => {
  beforeEach(async () => {
    await seed(db());
  });

  it("sends a cart above the store's limit per product back to the cart, capped there, writing nothing", async () => {
    const before = await footprint(db());
    const result = await place(db(), [fone(9999), cabo(2)]);

    expect(result).toEqual({
      ok: false,
      reason: 'cart_changed',
      notices: [
        'Cada pedido pode ter até 10 unidades de “Fone de Ouvido Bluetooth Pro”; a quantidade ' +
          'no seu carrinho foi ajustada.',
      ],
      corrected: [fone(10), cabo(2)],
    });
    expect(await footprint(db())).toEqual(before);
    // The corrected cart goes through with the limit.
    const orderId = await placed(db(), [fone(10), cabo(2)]);
    expect((await itemRows(db(), orderId)).map((item) => item.quantity)).toEqual([2, 10]);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 10);
  });
});

describeDb('the PIX discount at checkout', ({ db }) => {
  // R$ 499,90: 10% off is R$ 49,99.
  const CAIXA = '5a3b1e00-0000-4000-8000-00000000c005';
  const caixa = (quantity = 1) => line(CAIXA, quantity, 49990, 'Caixa de Som');
  const flatRate = {
    ...defaultSettings(),
    shipping_mode: 'flat_rate' as const,
    default_shipping_cost_cents: 1500,
    free_shipping_threshold_cents: 1_000_000,
  };

  beforeEach(async () => {
    await seed(db());
    await db()
      .insert(products)
      .values({ id: CAIXA, name: 'Caixa de Som', priceCents: 49990, stockQuantity: 10 });
  });

  it('charges the subtotal less the discount plus shipping, once for a repeated submission', async () => {
    const settings = { ...flatRate, pix_discount_percent: 10 };
    const key = randomUUID();
    const token = randomUUID();
    const first = await place(db(), [caixa()], { key, token, settings });
    const again = await place(db(), [caixa()], { key, token, settings });
    if (!first.ok) throw new Error(JSON.stringify(first));
    expect(again).toEqual({ ok: true, orderId: first.orderId, created: false });
    expect(await count(db(), 'orders')).toBe(1);
    expect(await stockOf(db(), CAIXA)).toBe(9);

    expect(await orderRow(db(), first.orderId)).toMatchObject({
      subtotalCents: 49990,
      shippingCostCents: 1500,
      adjustments: [{ kind: 'pix', label: 'Desconto PIX (10%)', amountCents: -4999 }],
      totalAmountCents: 49990 - 4999 + 1500,
    });
    // The order as the pages and e-mails read it, and the PIX asked for, carry the same total.
    const pix = { kind: 'pix', label: 'Desconto PIX (10%)', cents: -4999 };
    expect(first.order).toMatchObject({ adjustments: [pix], totalCents: 46491 });
    expect(await getOrder(db(), first.orderId)).toMatchObject({
      subtotalCents: 49990,
      shippingCents: 1500,
      adjustments: [pix],
      totalCents: 46491,
    });
    const payment = await payOrder(
      db(),
      createSandboxProvider({ db: db(), settings: async () => defaultSettings() }),
      first.orderId,
    );
    if (!payment.ok) throw new Error(payment.error);
    const [book] = await db()
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.id, payment.paymentId));
    expect(book).toMatchObject({ orderId: first.orderId, amountCents: 46491 });
  });

  it('earns free shipping on the subtotal before the discount', async () => {
    const settings = {
      ...flatRate,
      free_shipping_threshold_cents: 49_990,
      pix_discount_percent: 10,
    };
    const orderId = await placed(db(), [caixa()], { settings });
    expect(await orderRow(db(), orderId)).toMatchObject({
      subtotalCents: 49990,
      shippingCostCents: 0,
      adjustments: [{ kind: 'pix', label: 'Desconto PIX (10%)', amountCents: -4999 }],
      totalAmountCents: 44991,
    });
  });

  it('changes nothing at 0%', async () => {
    const orderId = await placed(db(), [caixa()], { settings: flatRate });
    expect(await orderRow(db(), orderId)).toMatchObject({
      subtotalCents: 49990,
      shippingCostCents: 1500,
      adjustments: [],
      totalAmountCents: 51490,
    });
  });

  it('refuses a total the discount takes below the payment minimum, writing nothing', async () => {
    const before = await footprint(db());
    // R$ 10,00 less 50% is R$ 5,00: under the R$ 5,01 a PIX may ask for.
    const result = await place(db(), [adesivo(2)], {
      settings: { ...defaultSettings(), pix_discount_percent: 50 },
    });
    expect(result).toEqual({
      ok: false,
      reason: 'refused',
      error: PLACE_ORDER_MESSAGES.paymentMinimum,
    });
    expect(await footprint(db())).toEqual(before);
  });
});

describeDb("an order's pages", ({ db }) => {
  beforeEach(async () => {
    await seed(db());
  });

  it('open for the browser that placed it or the key of its e-mails, and for nobody else', async () => {
    const token = randomUUID();
    const orderId = await placed(db(), [fone(1)], { token });
    const { accessKey } = (await getOrder(db(), orderId))!;
    const found = (access: Parameters<typeof findOrderFor>[2]) =>
      findOrderFor(db(), orderId, access).then((order) => order?.id ?? null);

    expect(await found({ token })).toBe(orderId);
    expect(await found({ token: randomUUID(), key: accessKey })).toBe(orderId);
    expect(await found({ token: null, key: accessKey })).toBe(orderId);
    expect(await found({ token: randomUUID() })).toBeNull();
    expect(await found({ token: null, key: randomUUID() })).toBeNull();
    expect(await found({ token: null, key: "x' or 1=1" })).toBeNull();
    expect(await found({ token: null, key: null })).toBeNull();
    expect(await findOrderFor(db(), 'not-an-id', { token })).toBeNull();
  });
});

describeDb('paying an order (sandbox)', ({ db }) => {
  const sandbox = (now?: () => Date) =>
    createSandboxProvider({ db: db(), settings: async () => defaultSettings(), now });

  beforeEach(async () => {
    await seed(db());
    // A payment approved after its order was cancelled is logged as an error for staff.
    vi.spyOn(logger, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A placed order with a sandbox payment. */
  async function paidUp(cart: CartLine[] = [fone(2)]) {
    const orderId = await placed(db(), cart);
    const payment = await payOrder(db(), sandbox(), orderId);
    if (!payment.ok) throw new Error(payment.error);
    return { orderId, paymentId: payment.paymentId };
  }

  const topics = async () => (await outboxRows(db())).map((row) => row.topic);

  it('records a PIX payment on the order, with its code and deadline, and reuses it', async () => {
    const orderId = await placed(db(), [fone(2)]);
    const before = Date.now();
    const payment = await payOrder(db(), sandbox(), orderId);
    const after = Date.now();

    expect(payment).toEqual({
      ok: true,
      paymentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      paymentUrl: null,
    });
    if (!payment.ok) return;
    const order = await orderRow(db(), orderId);
    expect(order).toMatchObject({
      status: 'pending',
      paymentProvider: 'sandbox',
      paymentId: payment.paymentId,
      paymentStatus: 'pending',
      pixCode: expect.stringMatching(/^000201/),
    });
    // The sandbox's PIX lasts 30 minutes, and that is the order's deadline now.
    expect(order.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 30 * MINUTE);
    expect(order.expiresAt!.getTime()).toBeLessThanOrEqual(after + 30 * MINUTE);
    const [book] = await db()
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.id, payment.paymentId));
    expect(book).toMatchObject({ orderId, amountCents: 59980, pixCode: order.pixCode });

    // Paying again while the PIX is live hands back the same one.
    await expect(payOrder(db(), sandbox(), orderId)).resolves.toEqual(payment);
    expect(await db().select().from(sandboxPayments)).toHaveLength(1);
  });

  it('confirms the order once when the payment is approved; a replay changes nothing', async () => {
    const { orderId, paymentId } = await paidUp();
    const change = { orderId, paymentId, status: 'approved' as const };

    await expect(applyPaymentStatus(db(), change, withTracking)).resolves.toBe('confirmed');
    const confirmed = await orderRow(db(), orderId);
    expect(confirmed).toMatchObject({ status: 'confirmed', paymentStatus: 'approved' });
    expect(confirmed.paidAt).toBeInstanceOf(Date);
    expect(await outboxRows(db())).toEqual([
      { topic: 'email.order_received', payload: { orderId } },
      { topic: 'email.payment_confirmed', payload: { orderId } },
      { topic: 'tracking.order', payload: { orderId, paymentStatus: 'approved' } },
    ]);

    await expect(applyPaymentStatus(db(), change, withTracking)).resolves.toBe('unchanged');
    expect(await orderRow(db(), orderId)).toEqual(confirmed);
    expect(await count(db(), 'outbox')).toBe(3);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 2);
  });

  it('cancels the order and puts its stock back when the payment is rejected', async () => {
    const { orderId, paymentId } = await paidUp();
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 2);

    await expect(
      applyPaymentStatus(db(), { orderId, paymentId, status: 'rejected' }, noTracking),
    ).resolves.toBe('cancelled');
    const cancelled = await orderRow(db(), orderId);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancelReason: 'rejected',
      paymentStatus: 'rejected',
      paidAt: null,
    });
    expect(cancelled.cancelledAt).toBeInstanceOf(Date);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
    expect(await topics()).toEqual(['email.order_received']);

    // Said again, it releases nothing more.
    await expect(
      applyPaymentStatus(db(), { orderId, paymentId, status: 'rejected' }, noTracking),
    ).resolves.toBe('unchanged');
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
  });

  it('keeps a payment approved after the cancellation for staff, without reviving the order', async () => {
    const { orderId, paymentId } = await paidUp();
    await applyPaymentStatus(db(), { orderId, paymentId, status: 'rejected' }, noTracking);

    await expect(
      applyPaymentStatus(db(), { orderId, paymentId, status: 'approved' }, noTracking),
    ).resolves.toBe('late');
    const order = await orderRow(db(), orderId);
    expect(order).toMatchObject({
      status: 'cancelled',
      cancelReason: 'rejected',
      paymentStatus: 'approved',
      paidAt: null,
    });
    expect(order.latePaymentAt).toBeInstanceOf(Date);
    // The stock stays released and no "payment confirmed" e-mail goes out.
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
    expect(await topics()).toEqual(['email.order_received']);
    expect(logger.error).toHaveBeenCalledOnce();
  });

  it('ignores news about a payment the order no longer uses', async () => {
    const { orderId, paymentId: stale } = await paidUp();
    // The first PIX expired and the shopper asked for another.
    const later = new Date(Date.now() + 31 * MINUTE);
    const fresh = await payOrder(db(), sandbox(), orderId, { now: later });
    expect(fresh).toMatchObject({ ok: true });
    if (!fresh.ok) return;
    expect(fresh.paymentId).not.toBe(stale);
    const before = await orderRow(db(), orderId);
    expect(before.paymentId).toBe(fresh.paymentId);

    await expect(
      applyPaymentStatus(db(), { orderId, paymentId: stale, status: 'approved' }, noTracking),
    ).resolves.toBe('unchanged');
    await expect(
      applyPaymentStatus(db(), { orderId, paymentId: stale, status: 'rejected' }, noTracking),
    ).resolves.toBe('unchanged');
    expect(await orderRow(db(), orderId)).toEqual(before);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 2);
    expect(await count(db(), 'outbox')).toBe(1);

    await expect(
      applyPaymentStatus(
        db(),
        { orderId, paymentId: fresh.paymentId, status: 'approved' },
        noTracking,
      ),
    ).resolves.toBe('confirmed');
  });

  it('asks the provider when a page refreshes the order, confirming it once paid', async () => {
    const { orderId, paymentId } = await paidUp();
    const pending = (await getOrder(db(), orderId))!;

    const unpaid = await refreshPayment(db(), sandbox(), pending, noTracking);
    expect(unpaid.order).toEqual(pending);
    expect(await orderRow(db(), orderId)).toMatchObject({ status: 'pending' });

    await setSandboxPaymentStatus(db(), paymentId, 'approved');
    const paid = await refreshPayment(db(), sandbox(), pending, noTracking);
    expect(paid.order).toMatchObject({ id: orderId, status: 'confirmed' });
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'approved',
    });
    expect(await topics()).toEqual(['email.order_received', 'email.payment_confirmed']);
  });

  it('marks an order paid by hand once (PIX with the store key)', async () => {
    const orderId = await placed(db(), [fone(1)]);

    await expect(markOrderPaid(db(), orderId, noTracking)).resolves.toBe('confirmed');
    const paid = await orderRow(db(), orderId);
    expect(paid).toMatchObject({ status: 'confirmed', paymentStatus: 'approved' });
    expect(paid.paidAt).toBeInstanceOf(Date);

    await expect(markOrderPaid(db(), orderId, noTracking)).resolves.toBe('unchanged');
    expect(await orderRow(db(), orderId)).toEqual(paid);
    expect(await topics()).toEqual(['email.order_received', 'email.payment_confirmed']);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 1);
    await expect(markOrderPaid(db(), randomUUID(), noTracking)).resolves.toBe('missing');
  });

  it('cancels unpaid orders past their deadline, releasing their stock, and leaves the rest', async () => {
    // Due: a sandbox PIX (30 minutes) and an order that never got a payment (60 minutes).
    const { orderId: withPix } = await paidUp([fone(2)]);
    const noPayment = await placed(db(), [cabo(3)]);
    // Not due: the store gives four hours.
    const notDue = await placed(db(), [monitor(1)], {
      settings: { ...defaultSettings(), pix_expiration_minutes: 240 },
    });
    const later = new Date(Date.now() + 2 * 60 * MINUTE);

    await expect(
      expireOrders(
        db(),
        sandbox(() => later),
        withTracking,
        { now: later },
      ),
    ).resolves.toBe(2);

    expect(await orderRow(db(), withPix)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'expired',
      paymentStatus: 'expired',
    });
    expect(await orderRow(db(), noPayment)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'expired',
      paymentStatus: null,
    });
    expect(await orderRow(db(), notDue)).toMatchObject({ status: 'pending', cancelReason: null });
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
    expect(await stockOf(db(), CABO)).toBe(STOCK[CABO]);
    expect(await stockOf(db(), MONITOR)).toBe(STOCK[MONITOR] - 1);
    expect((await outboxRows(db())).filter((row) => row.topic === 'tracking.order')).toEqual([
      { topic: 'tracking.order', payload: { orderId: withPix, paymentStatus: 'expired' } },
      { topic: 'tracking.order', payload: { orderId: noPayment, paymentStatus: 'expired' } },
    ]);

    // Nothing is due now, and nothing runs twice.
    await expect(
      expireOrders(
        db(),
        sandbox(() => later),
        withTracking,
      ),
    ).resolves.toBe(0);
    await expect(
      expireOrders(
        db(),
        sandbox(() => later),
        withTracking,
        { now: later },
      ),
    ).resolves.toBe(0);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
  });

  it('leaves an order alone before its deadline', async () => {
    const { orderId } = await paidUp();
    await expect(expireOrders(db(), sandbox(), noTracking)).resolves.toBe(0);
    expect(await orderRow(db(), orderId)).toMatchObject({ status: 'pending' });
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 2);
  });

  it('cancels an expired order once when two expiry runs race', async () => {
    const { orderId } = await paidUp([fone(2)]);
    const later = new Date(Date.now() + 2 * 60 * MINUTE);

    const cancelled = await Promise.all([
      expireOrders(
        db(),
        sandbox(() => later),
        withTracking,
        { now: later },
      ),
      expireOrders(
        db(),
        sandbox(() => later),
        withTracking,
        { now: later },
      ),
    ]);

    expect(cancelled[0]! + cancelled[1]!).toBe(1);
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'expired',
    });
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
    expect(await topics()).toEqual(['email.order_received', 'tracking.order']);
  });

  it('confirms instead of cancelling an order paid at the last minute', async () => {
    const { orderId, paymentId } = await paidUp([fone(2)]);
    // Approved before its PIX ran out, but nobody told the store.
    await expect(setSandboxPaymentStatus(db(), paymentId, 'approved')).resolves.toBe(true);
    const later = new Date(Date.now() + 2 * 60 * MINUTE);

    await expect(
      expireOrders(
        db(),
        sandbox(() => later),
        noTracking,
        { now: later },
      ),
    ).resolves.toBe(0);

    const order = await orderRow(db(), orderId);
    expect(order).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'approved',
      cancelReason: null,
    });
    expect(order.paidAt).toBeInstanceOf(Date);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 2);
    expect(await topics()).toEqual(['email.order_received', 'email.payment_confirmed']);
  });
});
