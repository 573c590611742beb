import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { orderItems, orders, products, reviews } from '~/db/schema';
import { findOrderToReview, reviewOrderProduct } from '~/flows/buyer-reviews.server';
import { withRatings } from '~/flows/rated-products.server';
import { seedSampleStore } from '~/flows/seed-sample-store.server';
import { getProduct } from '~/modules/catalog/index.server';
import type { OrderStatus } from '~/modules/orders';
import { addReview, listAdminReviews, setReviewStatus } from '~/modules/reviews/index.admin.server';
import { listProductReviews } from '~/modules/reviews/index.server';

import { describeDb } from '../support/db';
import { insertOrderRow } from '../support/orders';

describeDb('buyer reviews', ({ db }) => {
  async function product(name: string) {
    const [row] = await db().insert(products).values({ name, priceCents: 1000 }).returning();
    return row!.id;
  }

  /** An order of Maria da Silva with one line per product (the first twice), in `status`. */
  async function order(status: OrderStatus, productIds: (string | null)[]) {
    const row = await insertOrderRow(db(), { cents: 1000 * productIds.length, status });
    await db()
      .insert(orderItems)
      .values(
        productIds.map((productId, index) => ({
          orderId: row.id,
          productId,
          productName: `Produto ${index + 1}`,
          productPriceCents: 1000,
          quantity: 1,
          totalPriceCents: 1000,
        })),
      );
    return { id: row.id, key: row.accessKey };
  }

  const review = (
    target: { id: string; key: string },
    productId: string,
    extra: { rating?: number; comment?: string | null; key?: string | null } = {},
  ) =>
    reviewOrderProduct(db(), {
      orderId: target.id,
      access: { token: null, key: extra.key === undefined ? target.key : extra.key },
      productId,
      rating: extra.rating ?? 5,
      comment: extra.comment ?? null,
    });

  const rating = async (d: Db, productId: string) =>
    (await withRatings(d, [(await getProduct(d, productId))!], true))[0]!.rating;

  it("lists a delivered order's products once each, only with the order's key", async () => {
    const fone = await product('Fone');
    const mouse = await product('Mouse');
    const delivered = await order('delivered', [fone, mouse, fone, null]);

    const found = await findOrderToReview(db(), delivered.id, { token: null, key: delivered.key });
    expect(found).toMatchObject({ kind: 'open', orderId: delivered.id });
    expect(
      found.kind === 'open' && found.products.map((p) => [p.productId, p.review]).sort(),
    ).toEqual(
      [
        [fone, null],
        [mouse, null],
      ].sort(),
    );
    expect(await findOrderToReview(db(), delivered.id, { token: null, key: randomUUID() })).toEqual(
      { kind: 'missing' },
    );
    expect(await findOrderToReview(db(), delivered.id, { token: null, key: null })).toEqual({
      kind: 'missing',
    });
    // The browser that placed it may open it too.
    expect(
      await findOrderToReview(db(), delivered.id, { token: 'token-do-navegador', key: null }),
    ).toMatchObject({ kind: 'open' });
  });

  it('lets only a delivered order be reviewed', async () => {
    const fone = await product('Fone');
    for (const status of ['pending', 'confirmed', 'shipped', 'cancelled'] as const) {
      const placed = await order(status, [fone]);
      expect(
        await findOrderToReview(db(), placed.id, { token: null, key: placed.key }),
      ).toMatchObject({ kind: 'not-delivered' });
      expect(await review(placed, fone)).toBe('not-delivered');
    }
    expect(await db().select().from(reviews)).toEqual([]);
  });

  it('saves one verified review per product of the order, waiting for approval', async () => {
    const fone = await product('Fone');
    const mouse = await product('Mouse');
    const delivered = await order('delivered', [fone]);

    const answers = await Promise.all([
      review(delivered, fone, { rating: 4, comment: 'Chegou rápido.' }),
      review(delivered, fone, { rating: 1 }),
    ]);
    expect(answers.sort()).toEqual(['already', 'saved']);
    expect(await review(delivered, mouse)).toBe('not-in-order');
    expect(await review(delivered, fone, { key: randomUUID() })).toBe('missing');

    const saved = await db().select().from(reviews);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      productId: fone,
      orderId: delivered.id,
      customerName: 'Maria',
      source: 'buyer',
      status: 'pending',
    });
    const found = await findOrderToReview(db(), delivered.id, { token: null, key: delivered.key });
    expect(found.kind === 'open' && found.products[0]!.review).toMatchObject({
      status: 'pending',
    });
  });

  it('shows a buyer review and counts it only while staff keep it visible', async () => {
    const fone = await product('Fone');
    const staff = await addReview(db(), {
      id: randomUUID(),
      productId: fone,
      customerName: 'Ana Souza',
      rating: 2,
      comment: null,
    });
    expect(staff.ok).toBe(true);
    const delivered = await order('delivered', [fone]);
    expect(await review(delivered, fone, { rating: 5 })).toBe('saved');
    const [buyer] = await db().select().from(reviews).where(eq(reviews.source, 'buyer'));

    // Waiting: not in the store, not in the rating; first in the staff's list.
    expect((await listProductReviews(db(), fone)).map((r) => r.source)).toEqual(['staff']);
    expect(await rating(db(), fone)).toEqual({ average: 2, count: 1 });
    const list = await listAdminReviews(db(), { page: 1, perPage: 20 });
    expect(list).toMatchObject({ total: 2, pending: 1 });
    expect(list.reviews.map((r) => [r.source, r.status])).toEqual([
      ['buyer', 'pending'],
      ['staff', 'visible'],
    ]);

    expect(await setReviewStatus(db(), buyer!.id, 'visible')).toEqual({ ok: true, id: buyer!.id });
    const shown = await listProductReviews(db(), fone);
    expect(shown.find((r) => r.id === buyer!.id)).toMatchObject({
      source: 'buyer',
      customerName: 'Maria',
      rating: 5,
    });
    expect(await rating(db(), fone)).toEqual({ average: 3.5, count: 2 });
    expect((await listAdminReviews(db(), { page: 1, perPage: 20 })).pending).toBe(0);

    expect(await setReviewStatus(db(), buyer!.id, 'hidden')).toMatchObject({ ok: true });
    expect((await listProductReviews(db(), fone)).map((r) => r.source)).toEqual(['staff']);
    expect(await rating(db(), fone)).toEqual({ average: 2, count: 1 });
    expect(await setReviewStatus(db(), randomUUID(), 'visible')).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it("keeps the buyer's review when the order goes, and marks the sample store's as examples", async () => {
    const fone = await product('Fone');
    const delivered = await order('delivered', [fone]);
    await review(delivered, fone);
    await db().delete(orders).where(eq(orders.id, delivered.id));
    expect(await db().select({ orderId: reviews.orderId }).from(reviews)).toEqual([
      { orderId: null },
    ]);

    await db().delete(reviews);
    await seedSampleStore(db());
    const sample = await db()
      .select({ source: reviews.source, status: reviews.status })
      .from(reviews);
    expect(sample.length).toBeGreaterThan(0);
    expect(new Set(sample.map((r) => `${r.source}/${r.status}`))).toEqual(
      new Set(['sample/visible']),
    );
  });
});
