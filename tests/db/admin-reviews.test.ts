import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { products, reviews } from '~/db/schema';
import { withRatings } from '~/flows/rated-products.server';
import { getProduct } from '~/modules/catalog/index.server';
import { REVIEW_MESSAGES } from '~/modules/reviews';
import { addReview, deleteReview, listAdminReviews } from '~/modules/reviews/index.admin.server';
import { listProductReviews } from '~/modules/reviews/index.server';

import { describeDb } from '../support/db';

describeDb('admin reviews', ({ db }) => {
  async function product(name: string) {
    const [row] = await db().insert(products).values({ name, priceCents: 1000 }).returning();
    return row!.id;
  }
  const review = (productId: string, rating: number, extra: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    productId,
    customerName: 'Ana Souza',
    rating,
    comment: null,
    ...extra,
  });

  it('adds a review once per form key, and the store rating counts it', async () => {
    const fone = await product('Fone');
    const input = review(fone, 4, { comment: 'Muito bom' });

    const answers = await Promise.all([addReview(db(), input), addReview(db(), input)]);
    expect(answers).toEqual([
      { ok: true, id: input.id },
      { ok: true, id: input.id },
    ]);
    expect(await addReview(db(), review(fone, 2))).toMatchObject({ ok: true });

    const listed = await listProductReviews(db(), fone);
    expect(listed).toHaveLength(2);
    expect(listed.find((r) => r.id === input.id)).toMatchObject({
      customerName: 'Ana Souza',
      rating: 4,
      comment: 'Muito bom',
    });
    const [rated] = await withRatings(db(), [(await getProduct(db(), fone))!], true);
    expect(rated!.rating).toEqual({ average: 3, count: 2 });
  });

  it('refuses a review for a product that is gone, and an old key for another product', async () => {
    const fone = await product('Fone');
    const mouse = await product('Mouse');
    const first = review(fone, 5);
    await addReview(db(), first);

    expect(await addReview(db(), review(randomUUID(), 5))).toEqual({
      ok: false,
      status: 409,
      error: REVIEW_MESSAGES.productGone,
    });
    expect(await addReview(db(), { ...first, productId: mouse })).toEqual({
      ok: false,
      status: 409,
      error: REVIEW_MESSAGES.formReused,
    });
    expect(await db().select().from(reviews)).toHaveLength(1);
  });

  it('lists every review with its product, newest first, page by page', async () => {
    const fone = await product('Fone');
    const mouse = await product('Mouse');
    const base = Date.parse('2026-03-01T12:00:00Z');
    await db()
      .insert(reviews)
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          productId: i % 2 === 0 ? fone : mouse,
          customerName: `Cliente ${i}`,
          rating: (i % 5) + 1,
          createdAt: new Date(base + i * 1000),
        })),
      );

    const first = await listAdminReviews(db(), { page: 1, perPage: 2 });
    expect(first).toMatchObject({ total: 5, page: 1, pageCount: 3 });
    expect(first.reviews.map((r) => [r.customerName, r.product.name])).toEqual([
      ['Cliente 4', 'Fone'],
      ['Cliente 3', 'Mouse'],
    ]);
    const last = await listAdminReviews(db(), { page: 99, perPage: 2 });
    expect(last.page).toBe(3);
    expect(last.reviews.map((r) => r.customerName)).toEqual(['Cliente 0']);
    expect((await listAdminReviews(db(), { page: 0, perPage: 2 })).page).toBe(1);
  });

  it('shows an empty first page when there are none', async () => {
    expect(await listAdminReviews(db(), { page: 3, perPage: 20 })).toEqual({
      reviews: [],
      total: 0,
      pending: 0,
      page: 1,
      pageCount: 1,
    });
  });

  it('deletes a review, and the store rating no longer counts it', async () => {
    const fone = await product('Fone');
    const five = review(fone, 5);
    const one = review(fone, 1);
    await addReview(db(), five);
    await addReview(db(), one);

    expect(await deleteReview(db(), one.id)).toEqual({ ok: true, id: one.id });
    expect(await deleteReview(db(), one.id)).toEqual({
      ok: false,
      status: 404,
      error: REVIEW_MESSAGES.notFound,
    });

    const [rated] = await withRatings(db(), [(await getProduct(db(), fone))!], true);
    expect(rated!.rating).toEqual({ average: 5, count: 1 });
    const left = await db().select().from(reviews).where(eq(reviews.productId, fone));
    expect(left.map((r) => r.id)).toEqual([five.id]);
  });
});
