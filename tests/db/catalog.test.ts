import { expect, it } from 'vitest';

import { categories, products } from '~/db/schema';
import { searchProducts } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';

describeDb('catalog', ({ db }) => {
  it('lists products newest first with their category, up to the limit', async () => {
    const [category] = await db().insert(categories).values({ name: 'Áudio' }).returning();
    const base = Date.parse('2026-01-01T12:00:00Z');
    await db()
      .insert(products)
      .values(
        ['Antigo', 'Do meio', 'Novo'].map((name, index) => ({
          name,
          priceCents: 1000 + index,
          categoryId: index === 1 ? null : category!.id,
          imageUrls: [`/a-${index}.svg`, `/b-${index}.svg`],
          createdAt: new Date(base + index * 1000),
        })),
      );

    const { products: listed } = await searchProducts(db(), { sort: 'newest', perPage: 2 });

    expect(listed.map((product) => product.name)).toEqual(['Novo', 'Do meio']);
    expect(listed[0]).toMatchObject({
      priceCents: 1002,
      imageUrls: ['/a-2.svg', '/b-2.svg'],
      category: { id: category!.id, name: 'Áudio' },
    });
    expect(listed[1]?.category).toBeNull();
  });
});
