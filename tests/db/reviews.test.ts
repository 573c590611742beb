import { expect, it } from 'vitest';

import { products, reviews } from '~/db/schema';
import { listProductReviews, ratingSummaries } from '~/modules/reviews/index.server';

import { describeDb } from '../support/db';

describeDb('reviews', ({ db }) => {
  async function product(name: string) {
    const [row] = await db().insert(products).values({ name, priceCents: 1000 }).returning();
    return row!.id;
  }

  it('summarises ratings per product, rounded to one decimal, leaving unreviewed ones out', async () => {
    const [fone, mouse, teclado] = [
      await product('Fone'),
      await product('Mouse'),
      await product('Teclado'),
    ];
    await db()
      .insert(reviews)
      .values([
        { productId: fone, rating: 5 },
        { productId: fone, rating: 4 },
        { productId: fone, rating: 4 },
        { productId: mouse, rating: 3 },
      ]);

    const summaries = await ratingSummaries(db(), [fone, mouse, teclado, fone]);

    expect(summaries.get(fone)).toEqual({ average: 4.3, count: 3 });
    expect(summaries.get(mouse)).toEqual({ average: 3, count: 1 });
    expect(summaries.has(teclado)).toBe(false);
    expect(summaries.size).toBe(2);
    expect((await ratingSummaries(db(), [])).size).toBe(0);
  });

  it("lists a product's reviews newest first, names kept as stored", async () => {
    const fone = await product('Fone');
    const other = await product('Mouse');
    const base = Date.parse('2026-03-01T12:00:00Z');
    await db()
      .insert(reviews)
      .values([
        {
          productId: fone,
          customerName: 'Ana',
          rating: 5,
          comment: 'Ótimo',
          createdAt: new Date(base),
        },
        { productId: fone, customerName: '', rating: 2, createdAt: new Date(base + 2000) },
        { productId: fone, customerName: 'Bia', rating: 4, createdAt: new Date(base + 1000) },
        { productId: other, customerName: 'Caio', rating: 1, createdAt: new Date(base + 3000) },
      ]);

    const listed = await listProductReviews(db(), fone);

    expect(listed.map((review) => review.customerName)).toEqual(['', 'Bia', 'Ana']);
    expect(listed[2]).toMatchObject({ rating: 5, comment: 'Ótimo', createdAt: new Date(base) });
    expect(listed[0]!.comment).toBeNull();
    expect(await listProductReviews(db(), 'not-a-uuid')).toEqual([]);
  });
});
