import { expect, it } from 'vitest';

import { createChangeFeed } from '~/db/changes.server';
import { products } from '~/db/schema';
import {
  listProducts,
  searchProducts,
  type CatalogueChanges,
} from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';
import { until } from '../support/until';

describeDb('catalogue counts and paging', ({ database, db }) => {
  const base = Date.parse('2026-01-01T12:00:00Z');
  let added = 0;

  /** Inserts products straight into the table, each one second newer than the one before. */
  async function add(...names: string[]) {
    await db()
      .insert(products)
      .values(
        names.map((name) => ({
          name,
          priceCents: 1000,
          createdAt: new Date(base + added++ * 1000),
        })),
      );
  }

  /** A change feed under the test's control: what the count cache reads of context.changes. */
  function fakeFeed() {
    const feed = { at: 0, isLive: true };
    const changes: CatalogueChanges = { version: () => feed.at, live: () => feed.isLive };
    return { feed, changes };
  }

  const total = async (changes: CatalogueChanges, q?: string) =>
    (await searchProducts(db(), { perPage: 10, q }, changes)).total;

  it('counts once per catalogue version and filters', async () => {
    const { feed, changes } = fakeFeed();
    await add('Cabo USB', 'Cabo HDMI', 'Fone');
    expect(await total(changes)).toBe(3);
    expect(await total(changes, 'cabo')).toBe(2);

    // A write the feed has not announced yet: the counts of this version are kept as they were.
    await add('Cabo de Força');
    expect(await total(changes)).toBe(3);
    expect(await total(changes, ' cabo ')).toBe(2);
    // Other filters are counted afresh.
    expect(await total(changes, 'força')).toBe(1);

    feed.at += 1;
    expect(await total(changes)).toBe(4);
    expect(await total(changes, 'cabo')).toBe(3);
  });

  it('counts every time while the feed is not live', async () => {
    const { feed, changes } = fakeFeed();
    feed.isLive = false;
    await add('Cabo USB');
    expect(await total(changes)).toBe(1);
    await add('Cabo HDMI');
    expect(await total(changes)).toBe(2);
  });

  it('keeps each feed’s counts apart, and the admin’s list (no feed) always counts', async () => {
    const one = fakeFeed().changes;
    const other = fakeFeed().changes;
    await add('Cabo USB');
    expect(await total(one)).toBe(1);
    await add('Cabo HDMI');
    expect(await total(one)).toBe(1);
    expect(await total(other)).toBe(2);
    expect((await searchProducts(db(), { perPage: 10 })).total).toBe(2);
  });

  it('counts again once the database announces a change (the real feed)', async () => {
    const changes = await createChangeFeed(database());
    try {
      await until(async () => changes.live() || undefined, 'the feed to listen');
      await add('Cabo USB');
      await until(async () => ((await total(changes)) === 1 ? true : undefined), 'the first count');
      const before = changes.version();
      await add('Cabo HDMI');
      await until(
        async () => (changes.version() > before ? true : undefined),
        'the insert to be announced',
      );
      expect(await total(changes)).toBe(2);
    } finally {
      await changes.close();
    }
  });

  it('serves no page past maxPage: the deepest one instead, and says how many there are', async () => {
    await add('A', 'B', 'C', 'D', 'E', 'F', 'G');
    const page = await searchProducts(db(), { perPage: 2, page: 9, maxPage: 2, sort: 'name' });
    expect(page).toMatchObject({ total: 7, page: 2, pageCount: 2 });
    expect(page.products.map((product) => product.name)).toEqual(['C', 'D']);

    // Below the limit nothing changes: the last page is the last one.
    const all = await searchProducts(db(), { perPage: 2, page: 9, maxPage: 10, sort: 'name' });
    expect(all).toMatchObject({ total: 7, page: 4, pageCount: 4 });
  });

  it('lists the first products in order without counting them', async () => {
    await add('Antigo', 'Do meio', 'Novo', 'Cabo Novo');
    expect((await listProducts(db(), { sort: 'newest' }, 2)).map((p) => p.name)).toEqual([
      'Cabo Novo',
      'Novo',
    ]);
    expect((await listProducts(db(), { q: 'novo', sort: 'name' }, 5)).map((p) => p.name)).toEqual([
      'Cabo Novo',
      'Novo',
    ]);
  });
});
