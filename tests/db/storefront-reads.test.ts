import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { createChangeFeed } from '~/db/changes.server';
import { categories, products, reviews } from '~/db/schema';
import type { FeedVersion } from '~/db/version-cache.server';
import { loadProductPage } from '~/flows/product-page.server';
import { listRatedProducts, searchRatedProducts } from '~/flows/rated-products.server';
import { listCategories } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';
import { until } from '../support/until';

describeDb('the storefront’s reads, kept per catalogue version', ({ database, db }) => {
  async function fone() {
    const [audio] = await db().insert(categories).values({ name: 'Áudio' }).returning();
    const [made] = await db()
      .insert(products)
      .values([
        { name: 'Fone Azul', priceCents: 1000, stockQuantity: 3, categoryId: audio!.id },
        { name: 'Caixa de Som', priceCents: 2000, stockQuantity: 1, categoryId: audio!.id },
      ])
      .returning();
    await db()
      .insert(reviews)
      .values([
        { productId: made!.id, rating: 5 },
        { productId: made!.id, rating: 4 },
      ]);
    return made!;
  }

  /** A change feed under the test's control. */
  function fakeFeed() {
    const feed = { at: 0, isLive: true };
    const changes: FeedVersion = { version: () => feed.at, live: () => feed.isLive };
    return { feed, changes };
  }

  it('reads the product, its rating and reviews, and its related products', async () => {
    const product = await fone();
    const page = await loadProductPage(db(), fakeFeed().changes, product.slug, true);
    expect(page?.product.name).toBe('Fone Azul');
    expect(page?.rating).toEqual({ average: 4.5, count: 2 });
    expect(page?.reviews.map((review) => review.rating).sort()).toEqual([4, 5]);
    expect(page?.related.map((rated) => rated.product.name)).toEqual(['Caixa de Som']);

    // By id (old links) and in capitals too; reviews hidden when the store hides them.
    expect((await loadProductPage(db(), undefined, product.id, true))?.product.id).toBe(product.id);
    const hidden = await loadProductPage(db(), undefined, product.slug.toUpperCase(), false);
    expect(hidden).toMatchObject({ rating: null, reviews: [] });
    expect(await loadProductPage(db(), undefined, 'nao-existe', true)).toBeNull();
  });

  it('reads once per catalogue version, and every time while the feed is not live', async () => {
    const product = await fone();
    const { feed, changes } = fakeFeed();
    const stock = async () =>
      (await loadProductPage(db(), changes, product.slug, true))?.product.stockQuantity;
    expect(await stock()).toBe(3);
    await db().update(products).set({ stockQuantity: 2 }).where(eq(products.id, product.id));
    // Not announced yet: this version's reading stands.
    expect(await stock()).toBe(3);
    feed.at += 1;
    expect(await stock()).toBe(2);

    feed.isLive = false;
    await db().update(products).set({ stockQuantity: 1 }).where(eq(products.id, product.id));
    expect(await stock()).toBe(1);
  });

  it('keeps no unknown address: a product added under it is found at once', async () => {
    const { changes } = fakeFeed();
    expect(await loadProductPage(db(), changes, 'fone-azul', true)).toBeNull();
    await fone();
    expect((await loadProductPage(db(), changes, 'fone-azul', true))?.product.name).toBe(
      'Fone Azul',
    );
  });

  it('reads again once the database announces a sale (the real feed)', async () => {
    const product = await fone();
    const changes = await createChangeFeed(database());
    try {
      await until(async () => changes.live() || undefined, 'the feed to listen');
      const stock = async () =>
        (await loadProductPage(db(), changes, product.slug, true))?.product.stockQuantity;
      expect(await stock()).toBe(3);
      await db().update(products).set({ stockQuantity: 0 }).where(eq(products.id, product.id));
      await until(async () => ((await stock()) === 0 ? true : undefined), 'the sale to show');
    } finally {
      await changes.close();
    }
  });

  it('keeps listings, their ratings and the categories per version', async () => {
    const product = await fone();
    const { feed, changes } = fakeFeed();
    const listing = async () => {
      const page = await searchRatedProducts(db(), changes, { perPage: 10, q: 'fone' }, true);
      return page.products.map(({ product: { name }, rating }) => [name, rating?.count]);
    };
    const home = async () =>
      (await listRatedProducts(db(), changes, { sort: 'name' }, 2, true)).map(
        ({ product: { name }, rating }) => [name, rating?.count],
      );
    const names = async () =>
      (await listCategories(db(), {}, changes)).map((category) => category.name);
    expect(await listing()).toEqual([['Fone Azul', 2]]);
    expect(await home()).toEqual([
      ['Caixa de Som', undefined],
      ['Fone Azul', 2],
    ]);
    expect(await names()).toEqual(['Áudio']);

    await db().update(products).set({ name: 'Fone Verde' }).where(eq(products.id, product.id));
    await db().insert(reviews).values({ productId: product.id, rating: 3 });
    await db().insert(categories).values({ name: 'Bebês' });
    expect(await listing()).toEqual([['Fone Azul', 2]]);
    expect(await home()).toEqual([
      ['Caixa de Som', undefined],
      ['Fone Azul', 2],
    ]);
    expect(await names()).toEqual(['Áudio']);
    // Another query is read afresh, and the admin (no feed) always reads.
    expect(
      (await searchRatedProducts(db(), changes, { perPage: 5, q: 'fone' }, true)).products[0]
        ?.product.name,
    ).toBe('Fone Verde');
    expect((await listCategories(db())).map((category) => category.name)).toEqual([
      'Áudio',
      'Bebês',
    ]);

    feed.at += 1;
    expect(await listing()).toEqual([['Fone Verde', 3]]);
    expect(await home()).toEqual([
      ['Caixa de Som', undefined],
      ['Fone Verde', 3],
    ]);
    expect(await names()).toEqual(['Áudio', 'Bebês']);
  });
});
