import { expect, it } from 'vitest';

import { categories, products } from '~/db/schema';
import { getProduct } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';

describeDb('getProduct', ({ db }) => {
  it('finds a product with its category', async () => {
    const [category] = await db().insert(categories).values({ name: 'Áudio' }).returning();
    const [product] = await db()
      .insert(products)
      .values({
        name: 'Fone',
        description: 'Sem fio',
        priceCents: 29990,
        stockQuantity: 3,
        categoryId: category!.id,
        imageUrls: ['/a.svg', '/b.svg'],
      })
      .returning();
    await db().insert(products).values({ name: 'Outro', priceCents: 100 });

    expect(await getProduct(db(), product!.id)).toMatchObject({
      id: product!.id,
      name: 'Fone',
      description: 'Sem fio',
      priceCents: 29990,
      stockQuantity: 3,
      imageUrls: ['/a.svg', '/b.svg'],
      category: { id: category!.id, name: 'Áudio' },
    });
  });

  it('gives a product without a category a null category', async () => {
    const [product] = await db()
      .insert(products)
      .values({ name: 'Avulso', priceCents: 100 })
      .returning();
    expect((await getProduct(db(), product!.id))?.category).toBeNull();
  });

  it('answers null for an unknown id', async () => {
    expect(await getProduct(db(), '5a3b1e00-0000-4000-8000-00000000ffff')).toBeNull();
  });

  it.each(['abc', '', "1' or '1'='1", '5a3b1e00-0000-4000-8000-00000000ffffx'])(
    'answers null for the malformed id %j, which PostgreSQL would reject',
    async (id) => {
      expect(await getProduct(db(), id)).toBeNull();
    },
  );
});
