import { randomUUID } from 'node:crypto';

import { asc, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { orderItems, products, productVariants, restockRequests } from '~/db/schema';
import { expireOrders } from '~/flows/order-payment.server';
import { placeOrder, type PlaceOrderResult } from '~/flows/place-order.server';
import { askForRestockAlert, confirmRestockAlert } from '~/flows/restock-alerts.server';
import type { CartLine } from '~/modules/cart';
import { cartCookieHeader, priceCart, readCart, updateCart } from '~/modules/cart/index.server';
import { issueRestockConfirmation, alertRestocked } from '~/modules/catalog/index.server';
import { checkoutFormSchema } from '~/modules/checkout';
import { getOrder } from '~/modules/orders/index.server';
import { defaultSettings } from '~/modules/settings';

import { describeDb } from '../support/db';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { VALID_CHECKOUT } from '../support/visitor';

const SETTINGS = defaultSettings();
const BY_PIX = { paymentMethod: 'pix', coupon: null } as const;
const noTracking = { tracking: false };

const OPTIONS = [
  { name: 'Tamanho', values: [{ name: 'P' }, { name: 'G' }] },
  { name: 'Cor', values: [{ name: 'Azul', color: '#1d4ed8' }, { name: 'Preto' }] },
];

interface Shirt {
  productId: string;
  /** By 'P / Azul', 'G / Azul', 'G / Preto'. */
  variants: Record<string, typeof productVariants.$inferSelect>;
}

/** A T-shirt written as the admin writes it: the product and its variants in one transaction. */
async function tshirt(
  db: Db,
  stocks: { p: number; gAzul: number; gPreto: number },
): Promise<Shirt> {
  return db.transaction(async (tx) => {
    const [product] = await tx
      .insert(products)
      .values({
        name: 'Camiseta Básica',
        priceCents: 4990,
        options: OPTIONS,
        imageUrls: ['/sample/camiseta.svg'],
      })
      .returning();
    const rows = await tx
      .insert(productVariants)
      .values([
        {
          productId: product!.id,
          position: 1,
          option1: 'P',
          option2: 'Azul',
          stockQuantity: stocks.p,
        },
        {
          productId: product!.id,
          position: 2,
          option1: 'G',
          option2: 'Azul',
          stockQuantity: stocks.gAzul,
          priceCents: 5490,
          imageUrls: ['/sample/camiseta-azul.svg'],
        },
        {
          productId: product!.id,
          position: 3,
          option1: 'G',
          option2: 'Preto',
          stockQuantity: stocks.gPreto,
        },
      ])
      .returning();
    return {
      productId: product!.id,
      variants: Object.fromEntries(rows.map((row) => [`${row.option1} / ${row.option2}`, row])),
    };
  });
}

async function variantStock(db: Db, productId: string): Promise<number[]> {
  const rows = await db
    .select({ stock: productVariants.stockQuantity })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position));
  return rows.map((row) => row.stock);
}

async function productStock(db: Db, productId: string): Promise<number> {
  const [row] = await db
    .select({ stock: products.stockQuantity })
    .from(products)
    .where(eq(products.id, productId));
  return row!.stock;
}

function place(db: Db, cart: CartLine[]): Promise<PlaceOrderResult> {
  return placeOrder(
    db,
    {
      form: checkoutFormSchema.parse({
        ...VALID_CHECKOUT,
        customerCpf: shopperCpf(),
        idempotencyKey: randomUUID(),
      }),
      cart,
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      settings: SETTINGS,
    },
    noTracking,
  );
}

const lineOf = (shirt: Shirt, key: string, quantity: number, seenPriceCents: number): CartLine => ({
  productId: shirt.productId,
  variantId: shirt.variants[key]!.id,
  quantity,
  seenPriceCents,
  seenName: '',
});

describeDb('checking out variants', ({ db }) => {
  let shirt: Shirt;

  beforeEach(async () => {
    shirt = await tshirt(db(), { p: 4, gAzul: 10, gPreto: 6 });
  });

  it('sells exactly the stock of one variant to 50 shoppers at once, leaving the others be', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => place(db(), [lineOf(shirt, 'G / Azul', 1, 5490)])),
    );

    expect(results.filter((result) => result.ok)).toHaveLength(10);
    expect(results.filter((result) => !result.ok)).toHaveLength(40);
    expect(await variantStock(db(), shirt.productId)).toEqual([4, 0, 6]);
    expect(await productStock(db(), shirt.productId)).toBe(10);
    const lines = await db().select().from(orderItems);
    expect(lines).toHaveLength(10);
    expect(new Set(lines.map((line) => line.variantId))).toEqual(
      new Set([shirt.variants['G / Azul']!.id]),
    );
  });

  it('copies the SKU and the option values to the order lines, and shows them', async () => {
    const result = await place(db(), [
      lineOf(shirt, 'P / Azul', 2, 4990),
      lineOf(shirt, 'G / Azul', 1, 5490),
    ]);
    if (!result.ok) throw new Error(JSON.stringify(result));

    const order = await getOrder(db(), result.orderId);
    expect(order!.lines).toHaveLength(2);
    // Lines are read back in no particular order.
    expect(order!.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          productId: shirt.productId,
          variantId: shirt.variants['P / Azul']!.id,
          sku: 'CAMISETA-BASICA-P-AZUL',
          options: [
            { name: 'Tamanho', value: 'P' },
            { name: 'Cor', value: 'Azul' },
          ],
          name: 'Camiseta Básica',
          unitPriceCents: 4990,
          quantity: 2,
          imageUrl: '/sample/camiseta.svg',
        }),
        expect.objectContaining({
          variantId: shirt.variants['G / Azul']!.id,
          sku: 'CAMISETA-BASICA-G-AZUL',
          options: [
            { name: 'Tamanho', value: 'G' },
            { name: 'Cor', value: 'Azul' },
          ],
          unitPriceCents: 5490,
          quantity: 1,
          // The variant's own picture before the product's.
          imageUrl: '/sample/camiseta-azul.svg',
        }),
      ]),
    );
    expect(await variantStock(db(), shirt.productId)).toEqual([2, 9, 6]);
    expect(await productStock(db(), shirt.productId)).toBe(17);
  });

  it('gives a cancelled order’s stock back to its variants', async () => {
    const result = await place(db(), [
      lineOf(shirt, 'P / Azul', 3, 4990),
      lineOf(shirt, 'G / Preto', 2, 4990),
    ]);
    expect(result.ok).toBe(true);
    expect(await variantStock(db(), shirt.productId)).toEqual([1, 10, 4]);

    // Unpaid past its deadline: the order is cancelled and its units return.
    await expireOrders(db(), null, noTracking, { now: new Date(Date.now() + 3 * 60 * 60_000) });
    expect(await variantStock(db(), shirt.productId)).toEqual([4, 10, 6]);
    expect(await productStock(db(), shirt.productId)).toBe(20);
  });

  it('refuses an order when the variant’s price changed since the cart was priced', async () => {
    await db()
      .update(productVariants)
      .set({ priceCents: 5990 })
      .where(eq(productVariants.id, shirt.variants['G / Azul']!.id));
    const result = await place(db(), [lineOf(shirt, 'G / Azul', 1, 5490)]);
    expect(result).toMatchObject({
      ok: false,
      reason: 'cart_changed',
      notices: ['O preço de “Camiseta Básica — G / Azul” mudou de R$ 54,90 para R$ 59,90.'],
    });
    expect(await variantStock(db(), shirt.productId)).toEqual([4, 10, 6]);
  });

  it('prices and buys a cart cookie from before variants as its product’s first variant', async () => {
    const [single] = await db()
      .insert(products)
      .values({ name: 'Cabo USB-C', priceCents: 3990, stockQuantity: 7 })
      .returning();
    const cookie = `vitrine_cart=${btoa(JSON.stringify([[single!.id, 2, 3990, 'Cabo USB-C']]))}`;
    const lines = await readCart(new Request('http://loja.test/', { headers: { cookie } }));
    expect(lines).toEqual([
      {
        productId: single!.id,
        variantId: null,
        quantity: 2,
        seenPriceCents: 3990,
        seenName: 'Cabo USB-C',
      },
    ]);

    const cart = await priceCart(db(), lines, SETTINGS, BY_PIX);
    expect(cart.notices).toEqual([]);
    expect(cart.subtotalCents).toBe(7980);
    const [variant] = await db()
      .select()
      .from(productVariants)
      .where(eq(productVariants.productId, single!.id));
    // Written back with the variant it means.
    expect(cart.corrected).toEqual([{ ...lines[0], variantId: variant!.id }]);

    const result = await place(db(), lines);
    expect(result.ok).toBe(true);
    expect(await productStock(db(), single!.id)).toBe(5);
    const [item] = await db().select().from(orderItems);
    expect(item).toMatchObject({ variantId: variant!.id, sku: 'CABO-USB-C', variantOptions: [] });
  });

  it('adds variants as lines of their own, and asks which one a product alone means', async () => {
    const add = (lines: CartLine[], fields: { productId?: string; variantId?: string }) =>
      updateCart(db(), lines, { intent: 'add', quantity: 1, ...fields }, SETTINGS);

    await expect(add([], { productId: shirt.productId })).resolves.toEqual({
      ok: false,
      status: 400,
      error: 'Escolha tamanho e cor.',
    });

    const first = await add([], { variantId: shirt.variants['P / Azul']!.id });
    if (!first.ok) throw new Error(first.error);
    expect(first.message).toBe('“Camiseta Básica — P / Azul” foi adicionado ao seu carrinho.');
    const second = await add(first.lines, {
      productId: shirt.productId,
      variantId: shirt.variants['G / Azul']!.id,
    });
    if (!second.ok) throw new Error(second.error);
    expect(second.lines.map((line) => [line.variantId, line.quantity])).toEqual([
      [shirt.variants['P / Azul']!.id, 1],
      [shirt.variants['G / Azul']!.id, 1],
    ]);
    expect(second.count).toBe(2);

    // A variant named with another product is no line of this cart.
    const [other] = await db()
      .insert(products)
      .values({ name: 'Boné', priceCents: 2990, stockQuantity: 3 })
      .returning();
    await expect(
      add([], { productId: other!.id, variantId: shirt.variants['P / Azul']!.id }),
    ).resolves.toMatchObject({ ok: false, status: 404 });

    // Quantity changes and removal name the variant: the other size stays.
    const removed = await updateCart(
      db(),
      second.lines,
      { intent: 'remove', variantId: shirt.variants['P / Azul']!.id },
      SETTINGS,
    );
    expect(removed).toMatchObject({
      ok: true,
      lines: [{ variantId: shirt.variants['G / Azul']!.id }],
      message: '“Camiseta Básica — P / Azul” foi removido do seu carrinho.',
    });

    // What the cart page shows of a line.
    const header = await cartCookieHeader(second.lines);
    const reread = await readCart(
      new Request('http://loja.test/', {
        headers: { cookie: header.slice(0, header.indexOf(';')) },
      }),
    );
    const priced = await priceCart(db(), reread, SETTINGS, BY_PIX);
    expect(priced.lines[1]).toMatchObject({
      productId: shirt.productId,
      variantId: shirt.variants['G / Azul']!.id,
      sku: 'CAMISETA-BASICA-G-AZUL',
      options: [
        { name: 'Tamanho', value: 'G' },
        { name: 'Cor', value: 'Azul' },
      ],
      unitPriceCents: 5490,
      imageUrl: '/sample/camiseta-azul.svg',
    });
  });

  it('says which variant sold out, naming its values', async () => {
    const lines = [lineOf(shirt, 'G / Preto', 2, 4990)];
    await db()
      .update(productVariants)
      .set({ stockQuantity: 0 })
      .where(eq(productVariants.id, shirt.variants['G / Preto']!.id));
    const cart = await priceCart(db(), lines, SETTINGS, BY_PIX);
    expect(cart.notices).toEqual([
      'O produto “Camiseta Básica — G / Preto” esgotou e foi removido do seu carrinho.',
    ]);
    expect(cart.lines).toEqual([]);
  });

  it('alerts a restock request when its own variant is back, not another', async () => {
    await db()
      .update(productVariants)
      .set({ stockQuantity: 0 })
      .where(eq(productVariants.productId, shirt.productId));
    const email = 'maria@example.com';
    await expect(
      askForRestockAlert(db(), { productId: shirt.productId, email }),
    ).resolves.toMatchObject({ ok: false, reason: 'choose', message: 'Escolha tamanho e cor.' });
    const asked = await askForRestockAlert(db(), {
      variantId: shirt.variants['G / Azul']!.id,
      email,
    });
    if (!asked.ok || !asked.confirmationDue) throw new Error(JSON.stringify(asked));
    const confirmation = await issueRestockConfirmation(db(), asked.confirmationDue);
    expect(confirmation?.product).toMatchObject({
      name: 'Camiseta Básica',
      sku: 'CAMISETA-BASICA-G-AZUL',
      options: [
        { name: 'Tamanho', value: 'G' },
        { name: 'Cor', value: 'Azul' },
      ],
    });
    await confirmRestockAlert(db(), confirmation!.token);

    // Another size back: the request waits.
    await db()
      .update(productVariants)
      .set({ stockQuantity: 5 })
      .where(eq(productVariants.id, shirt.variants['P / Azul']!.id));
    expect(await db().transaction((tx) => alertRestocked(tx, [shirt.productId]))).toBe(0);
    // Its own back: the request is answered.
    await db()
      .update(productVariants)
      .set({ stockQuantity: 2 })
      .where(eq(productVariants.id, shirt.variants['G / Azul']!.id));
    expect(await db().transaction((tx) => alertRestocked(tx, [shirt.productId]))).toBe(1);
    const [request] = await db().select().from(restockRequests);
    expect(request).toMatchObject({
      variantId: shirt.variants['G / Azul']!.id,
      notifiedAt: expect.any(Date),
    });
  });
});
