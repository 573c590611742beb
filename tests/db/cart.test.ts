import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { categories, products, productVariants } from '~/db/schema';
import {
  cartCookieHeader,
  countUnits,
  priceCart,
  readCart,
  updateCart,
} from '~/modules/cart/index.server';
import { MAX_CART_LINES, type CartIntent, type CartLine } from '~/modules/cart';
import { defaultSettings } from '~/modules/settings';

import { describeDb } from '../support/db';

const FONE = '5a3b1e00-0000-4000-8000-000000000d01';
const MONITOR = '5a3b1e00-0000-4000-8000-000000000d06';
const CABO = '5a3b1e00-0000-4000-8000-000000000d08';
const UNKNOWN = '5a3b1e00-0000-4000-8000-0000000000ff';

const freeShipping = defaultSettings();
// Every order is paid by PIX: pricing as the checkout does, without a coupon.
const BY_PIX = { paymentMethod: 'pix', coupon: null } as const;
const flatRate = {
  ...freeShipping,
  shipping_mode: 'flat_rate' as const,
  default_shipping_cost_cents: 1500,
  free_shipping_threshold_cents: 50_000,
};

async function seed(db: Db) {
  const [audio] = await db.insert(categories).values({ name: 'Áudio' }).returning();
  await db.insert(products).values([
    {
      id: FONE,
      name: 'Fone de Ouvido Bluetooth Pro',
      priceCents: 29990,
      stockQuantity: 75,
      categoryId: audio!.id,
      imageUrls: ['/sample/fone-1.svg', '/sample/fone-2.svg'],
    },
    { id: MONITOR, name: 'Monitor 27" Full HD', priceCents: 123456, stockQuantity: 12 },
    { id: CABO, name: 'Cabo USB-C', priceCents: 3990, stockQuantity: 0 },
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

const line = (productId: string, quantity: number, seenPriceCents: number, seenName = '') => ({
  productId,
  variantId: VARIANT.get(productId) ?? null,
  quantity,
  seenPriceCents,
  seenName,
});

async function requestWith(lines: CartLine[]): Promise<Request> {
  const header = await cartCookieHeader(lines);
  return new Request('http://loja.test/', {
    headers: { cookie: header.slice(0, header.indexOf(';')) },
  });
}

describeDb('cart pricing', ({ db }) => {
  it('prices an unchanged cart from the database, with nothing to say', async () => {
    await seed(db());
    const lines = [
      line(FONE, 2, 29990, 'Fone de Ouvido Bluetooth Pro'),
      line(MONITOR, 1, 123456, 'Monitor 27" Full HD'),
    ];

    const cart = await priceCart(db(), lines, freeShipping, BY_PIX);

    expect(cart).toMatchObject({
      notices: [],
      subtotalCents: 2 * 29990 + 123456,
      shippingCents: 0,
      totalCents: 2 * 29990 + 123456,
      itemCount: 3,
      changed: false,
      corrected: lines,
    });
    expect(cart.lines[0]).toEqual({
      productId: FONE,
      variantId: VARIANT.get(FONE),
      sku: 'FONE-DE-OUVIDO-BLUETOOTH-PRO',
      options: [],
      name: 'Fone de Ouvido Bluetooth Pro',
      slug: 'fone-de-ouvido-bluetooth-pro',
      imageUrl: '/sample/fone-1.svg',
      // Coupons may be limited to a category: pricing reads it.
      categoryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      categoryName: 'Áudio',
      unitPriceCents: 29990,
      quantity: 2,
      lineTotalCents: 59980,
      // 75 in stock, but the store's limit per order (10 by default) comes first.
      maxQuantity: 10,
    });
    expect(cart.lines[1]).toMatchObject({ imageUrl: null, categoryId: null, categoryName: null });
  });

  it('removes a deleted product and names it', async () => {
    await seed(db());
    await db().delete(products).where(eq(products.id, MONITOR));

    const cart = await priceCart(
      db(),
      [line(MONITOR, 1, 123456, 'Monitor 27" Full HD'), line(FONE, 1, 29990, 'Fone')],
      freeShipping,
      BY_PIX,
    );

    expect(cart.notices).toEqual([
      'O produto “Monitor 27" Full HD” não está mais disponível e foi removido do seu carrinho.',
    ]);
    expect(cart.lines.map((priced) => priced.productId)).toEqual([FONE]);
    expect(cart).toMatchObject({ changed: true, itemCount: 1, subtotalCents: 29990 });
    expect(cart.corrected.map((corrected) => corrected.productId)).toEqual([FONE]);
  });

  it('says a product was removed even when the cookie had no room for its name', async () => {
    const cart = await priceCart(db(), [line(UNKNOWN, 1, 100)], freeShipping, BY_PIX);
    expect(cart.notices).toEqual([
      'Um produto do seu carrinho não está mais disponível e foi removido.',
    ]);
    expect(cart).toMatchObject({ lines: [], corrected: [], totalCents: 0, changed: true });
  });

  it('charges the new price after a price change, showing the old and the new one', async () => {
    await seed(db());
    await db().update(products).set({ priceCents: 27990 }).where(eq(products.id, FONE));

    const cart = await priceCart(db(), [line(FONE, 2, 29990, 'Fone')], freeShipping, BY_PIX);

    expect(cart.notices).toEqual([
      'O preço de “Fone de Ouvido Bluetooth Pro” mudou de R$ 299,90 para R$ 279,90.',
    ]);
    expect(cart).toMatchObject({ subtotalCents: 55980, totalCents: 55980, changed: true });
    // Written back, the new price is what the shopper has now been shown.
    expect(cart.corrected).toEqual([line(FONE, 2, 27990, 'Fone de Ouvido Bluetooth Pro')]);
    const again = await priceCart(db(), cart.corrected, freeShipping, BY_PIX);
    expect(again).toMatchObject({ notices: [], changed: false });
  });

  it('lowers a quantity above the stock left', async () => {
    await seed(db());
    await db().update(products).set({ stockQuantity: 1 }).where(eq(products.id, MONITOR));

    const cart = await priceCart(db(), [line(MONITOR, 3, 123456, 'Monitor')], freeShipping, BY_PIX);

    expect(cart.notices).toEqual([
      'Só temos 1 unidade de “Monitor 27" Full HD” em estoque; a quantidade no seu carrinho foi ajustada.',
    ]);
    expect(cart.lines[0]).toMatchObject({ quantity: 1, lineTotalCents: 123456, maxQuantity: 1 });
    expect(cart).toMatchObject({ itemCount: 1, changed: true });
  });

  it("lowers a quantity above the store's limit per order to that limit, saying so", async () => {
    await seed(db());
    const cart = await priceCart(
      db(),
      [line(FONE, 9999, 29990, 'Fone'), line(MONITOR, 12, 123456, 'Monitor')],
      { ...freeShipping, max_quantity_per_item: 10 },
      BY_PIX,
    );
    expect(cart.notices).toEqual([
      'Cada pedido pode ter até 10 unidades de “Fone de Ouvido Bluetooth Pro”; a quantidade no ' +
        'seu carrinho foi ajustada.',
      'Cada pedido pode ter até 10 unidades de “Monitor 27" Full HD”; a quantidade no seu ' +
        'carrinho foi ajustada.',
    ]);
    expect(cart.lines.map(({ quantity, maxQuantity }) => ({ quantity, maxQuantity }))).toEqual([
      { quantity: 10, maxQuantity: 10 },
      { quantity: 10, maxQuantity: 10 },
    ]);
    expect(cart).toMatchObject({ itemCount: 20, changed: true });
    expect(cart.corrected.map((kept) => kept.quantity)).toEqual([10, 10]);

    // A store that allows more: the stock is the limit again.
    const roomy = await priceCart(
      db(),
      [line(MONITOR, 9999, 123456, 'Monitor')],
      { ...freeShipping, max_quantity_per_item: 999 },
      BY_PIX,
    );
    expect(roomy.notices).toEqual([
      'Só temos 12 unidades de “Monitor 27" Full HD” em estoque; a quantidade no seu carrinho ' +
        'foi ajustada.',
    ]);
    expect(roomy.lines[0]).toMatchObject({ quantity: 12, maxQuantity: 12 });
  });

  it('removes a product that sold out', async () => {
    await seed(db());
    const cart = await priceCart(
      db(),
      [line(CABO, 2, 3990, 'Cabo USB-C'), line(FONE, 1, 29990, 'Fone de Ouvido Bluetooth Pro')],
      freeShipping,
      BY_PIX,
    );
    expect(cart.notices).toEqual([
      'O produto “Cabo USB-C” esgotou e foi removido do seu carrinho.',
    ]);
    expect(cart.lines.map((priced) => priced.productId)).toEqual([FONE]);
  });

  it('adds flat-rate shipping below the free threshold, and none to an empty cart', async () => {
    await seed(db());
    const small = await priceCart(db(), [line(FONE, 1, 29990)], flatRate, BY_PIX);
    expect(small).toMatchObject({ subtotalCents: 29990, shippingCents: 1500, totalCents: 31490 });
    const large = await priceCart(db(), [line(FONE, 2, 29990)], flatRate, BY_PIX);
    expect(large).toMatchObject({ shippingCents: 0, totalCents: 59980 });
    const empty = await priceCart(db(), [], flatRate, BY_PIX);
    expect(empty).toMatchObject({ shippingCents: 0, totalCents: 0, itemCount: 0, changed: false });
  });

  it("counts the badge's units from the cookie alone, without asking the database", async () => {
    const request = await requestWith([line(FONE, 3, 1), line(UNKNOWN, 4, 100)]);
    expect(countUnits(await readCart(request))).toBe(3 + 4);
    expect(countUnits(await readCart(new Request('http://loja.test/')))).toBe(0);
  });
});

describeDb('cart actions', ({ db }) => {
  // Above every stock here, so the stock tests see the stock; the store's limit has its own test.
  const roomy = { max_quantity_per_item: 999 };
  const apply = (lines: CartLine[], intent: CartIntent, limits = roomy) =>
    updateCart(db(), lines, intent, limits);

  it('adds a product at its current price, then increments it', async () => {
    await seed(db());
    const first = await apply([], { intent: 'add', productId: FONE, quantity: 1 });
    expect(first).toEqual({
      ok: true,
      lines: [line(FONE, 1, 29990, 'Fone de Ouvido Bluetooth Pro')],
      count: 1,
      capped: false,
      message: '“Fone de Ouvido Bluetooth Pro” foi adicionado ao seu carrinho.',
    });
    const second = await apply(first.ok ? first.lines : [], {
      intent: 'buy',
      productId: MONITOR,
      quantity: 2,
    });
    const third = await apply(second.ok ? second.lines : [], {
      intent: 'add',
      productId: FONE,
      quantity: 3,
    });
    expect(third).toMatchObject({
      ok: true,
      count: 6,
      lines: [
        line(FONE, 4, 29990, 'Fone de Ouvido Bluetooth Pro'),
        line(MONITOR, 2, 123456, 'Monitor 27" Full HD'),
      ],
    });
  });

  it('keeps the price first seen when the same product is added again', async () => {
    await seed(db());
    const result = await apply([line(FONE, 1, 31990, 'Fone')], {
      intent: 'add',
      productId: FONE,
      quantity: 1,
    });
    // The cart page still owes the shopper the notice about the change.
    expect(result).toMatchObject({ ok: true, lines: [line(FONE, 2, 31990, 'Fone')] });
  });

  it('caps at the stock, and says so', async () => {
    await seed(db());
    const result = await apply([line(MONITOR, 10, 123456, 'Monitor')], {
      intent: 'add',
      productId: MONITOR,
      quantity: 5,
    });
    expect(result).toEqual({
      ok: true,
      lines: [line(MONITOR, 12, 123456, 'Monitor')],
      count: 12,
      capped: true,
      message:
        'Só temos 12 unidades de “Monitor 27" Full HD” em estoque; seu carrinho ficou com 12.',
    });
  });

  it("caps every way a quantity comes in at the store's limit per order, and says so", async () => {
    await seed(db());
    const limits = { max_quantity_per_item: 10 };
    const message =
      'Cada pedido pode ter até 10 unidades de “Fone de Ouvido Bluetooth Pro”; seu carrinho ' +
      'ficou com 10.';
    for (const intent of ['add', 'buy', 'set'] as const) {
      await expect(
        apply([], { intent, productId: FONE, quantity: 9999 }, limits),
        intent,
      ).resolves.toEqual({
        ok: true,
        lines: [line(FONE, 10, 29990, 'Fone de Ouvido Bluetooth Pro')],
        count: 10,
        capped: true,
        message,
      });
    }
    // Adding to what the cart holds counts both.
    await expect(
      apply(
        [line(FONE, 8, 29990, 'Fone')],
        { intent: 'add', productId: FONE, quantity: 3 },
        limits,
      ),
    ).resolves.toMatchObject({ ok: true, lines: [line(FONE, 10, 29990, 'Fone')], capped: true });
    // Another line already above the limit (an old or forged cookie) is counted as it will be.
    await expect(
      apply(
        [line(MONITOR, 9999, 123456, 'Monitor')],
        { intent: 'add', productId: FONE, quantity: 1 },
        limits,
      ),
    ).resolves.toMatchObject({ ok: true, count: 11, capped: false });
  });

  it('refuses an unknown product and a sold-out one', async () => {
    await seed(db());
    await expect(apply([], { intent: 'add', productId: UNKNOWN, quantity: 1 })).resolves.toEqual({
      ok: false,
      status: 404,
      error: 'Produto não encontrado.',
    });
    await expect(apply([], { intent: 'buy', productId: CABO, quantity: 1 })).resolves.toEqual({
      ok: false,
      status: 409,
      error: 'O produto “Cabo USB-C” está esgotado.',
    });
    await expect(apply([], { intent: 'set', productId: UNKNOWN, quantity: 2 })).resolves.toEqual({
      ok: false,
      status: 404,
      error: 'Produto não encontrado.',
    });
  });

  it('refuses a new product once the cart holds the most distinct products', async () => {
    await seed(db());
    const full = Array.from({ length: MAX_CART_LINES }, (_, index) =>
      line(`5a3b1e00-0000-4000-8000-${(0xa000 + index).toString(16).padStart(12, '0')}`, 1, 100),
    );
    await expect(apply(full, { intent: 'add', productId: FONE, quantity: 1 })).resolves.toEqual({
      ok: false,
      status: 409,
      error: `Seu carrinho já tem ${MAX_CART_LINES} produtos diferentes. Finalize esta compra ou remova algum item.`,
    });
  });

  it('sets a quantity in place, capped at the stock; 0 removes the line', async () => {
    await seed(db());
    const lines = [line(FONE, 1, 29990, 'Fone'), line(MONITOR, 1, 123456, 'Monitor')];
    await expect(apply(lines, { intent: 'set', productId: FONE, quantity: 3 })).resolves.toEqual({
      ok: true,
      lines: [line(FONE, 3, 29990, 'Fone'), line(MONITOR, 1, 123456, 'Monitor')],
      count: 4,
      capped: false,
      message: 'Quantidade de “Fone de Ouvido Bluetooth Pro” atualizada para 3.',
    });
    await expect(
      apply(lines, { intent: 'set', productId: MONITOR, quantity: 50 }),
    ).resolves.toMatchObject({ ok: true, capped: true, count: 13 });
    await expect(apply(lines, { intent: 'set', productId: FONE, quantity: 0 })).resolves.toEqual({
      ok: true,
      lines: [line(MONITOR, 1, 123456, 'Monitor')],
      count: 1,
      capped: false,
      message: '“Fone de Ouvido Bluetooth Pro” foi removido do seu carrinho.',
    });
  });

  it('removes a line, even one whose product no longer exists, and clears the cart', async () => {
    await seed(db());
    const lines = [line(UNKNOWN, 1, 100, 'Sumiu'), line(FONE, 2, 29990, 'Fone')];
    await expect(apply(lines, { intent: 'remove', productId: UNKNOWN })).resolves.toEqual({
      ok: true,
      lines: [line(FONE, 2, 29990, 'Fone')],
      count: 2,
      capped: false,
      message: 'O produto foi removido do seu carrinho.',
    });
    await expect(apply(lines, { intent: 'clear' })).resolves.toEqual({
      ok: true,
      lines: [],
      count: 0,
      capped: false,
      message: 'Seu carrinho foi esvaziado.',
    });
  });

  it('counts what the badge will show: corrections included, other lines left for the cart page', async () => {
    await seed(db());
    const lines = [line(UNKNOWN, 3, 100, 'Sumiu'), line(CABO, 1, 3990, 'Cabo')];
    const result = await apply(lines, { intent: 'add', productId: FONE, quantity: 1 });
    expect(result).toMatchObject({ ok: true, count: 1 });
    expect(result.ok && result.lines.map((kept) => kept.productId)).toEqual([UNKNOWN, CABO, FONE]);
    const cookie = await requestWith(result.ok ? result.lines : []);
    await expect(readCart(cookie)).resolves.toHaveLength(3);
  });
});
