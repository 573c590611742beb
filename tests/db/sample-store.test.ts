import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { categories, products, reviews } from '~/db/schema';
import { initializeStore, seedSampleStore } from '~/flows/seed-sample-store.server';
import { searchProducts } from '~/modules/catalog/index.server';

import { describeDb, queryRows } from '../support/db';

async function counts(db: Parameters<typeof seedSampleStore>[0]) {
  const [row] = await queryRows<{
    categories: number;
    products: number;
    reviews: number;
    coupons: number;
  }>(
    db,
    sql`select (select count(*)::int from categories) as categories,
               (select count(*)::int from products) as products,
               (select count(*)::int from reviews) as reviews,
               (select count(*)::int from coupons) as coupons`,
  );
  return row;
}

describeDb('sample store', ({ db }) => {
  it('is created on the first start of an empty database, and only then', async () => {
    expect(await initializeStore(db(), { seed: true })).toBe('seeded');
    expect(await counts(db())).toEqual({ categories: 5, products: 10, reviews: 6, coupons: 2 });

    // The store deletes a product; a restart must not bring it back.
    await db().delete(products).where(eq(products.name, 'Smartwatch Fitness'));
    expect(await initializeStore(db(), { seed: true })).toBe('existing');
    expect(await counts(db())).toMatchObject({ products: 9 });
  });

  it('is not created when seeding is off', async () => {
    expect(await initializeStore(db(), { seed: false })).toBe('created');
    expect(await counts(db())).toEqual({ categories: 0, products: 0, reviews: 0, coupons: 0 });
    expect(await initializeStore(db(), { seed: true })).toBe('existing');
    expect(await counts(db())).toEqual({ categories: 0, products: 0, reviews: 0, coupons: 0 });
  });

  it('is put back by a re-seed without touching the store’s own products', async () => {
    await initializeStore(db(), { seed: true });
    await db()
      .update(products)
      .set({ priceCents: 1 })
      .where(eq(products.name, 'Mouse Sem Fio Ergonômico'));
    await db().delete(categories).where(eq(categories.name, 'Acessórios'));
    await db().insert(products).values({ name: 'Produto da loja', priceCents: 5000 });

    await seedSampleStore(db());

    expect(await counts(db())).toEqual({ categories: 5, products: 11, reviews: 6, coupons: 2 });
    const mouse = await db()
      .select()
      .from(products)
      .where(eq(products.name, 'Mouse Sem Fio Ergonômico'));
    expect(mouse[0]?.priceCents).toBe(12990);
  });

  it('has local images, integer prices and real reviews', async () => {
    await initializeStore(db(), { seed: true });
    const { products: listed } = await searchProducts(db(), { perPage: 10 });
    expect(listed).toHaveLength(10);
    for (const product of listed) {
      expect(Number.isInteger(product.priceCents)).toBe(true);
      expect(product.imageUrls.length).toBeGreaterThan(0);
      for (const url of product.imageUrls) expect(url).toMatch(/^\/sample\/[\w-]+\.svg$/);
      expect(product.category?.name).toBeTruthy();
    }
    const ratings = await db().select({ rating: reviews.rating }).from(reviews);
    expect(ratings.every(({ rating }) => rating >= 1 && rating <= 5)).toBe(true);
  });
});
