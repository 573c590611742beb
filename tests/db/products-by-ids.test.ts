import { expect, it } from 'vitest';

import { categories, products } from '~/db/schema';
import { listProductsByIds } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';

describeDb('listProductsByIds', ({ db }) => {
  it('answers the products in the order asked, with their category, skipping what is not there', async () => {
    const [category] = await db().insert(categories).values({ name: 'Áudio' }).returning();
    const [fone, caixa] = await db()
      .insert(products)
      .values([
        { name: 'Fone', priceCents: 29990, categoryId: category!.id },
        { name: 'Caixa de som', priceCents: 19990 },
      ])
      .returning();
    const found = await listProductsByIds(db(), [
      caixa!.id,
      'nao-e-um-id',
      '00000000-0000-4000-8000-000000000000',
      fone!.id,
      caixa!.id,
      '',
    ]);
    expect(found.map((product) => product.name)).toEqual(['Caixa de som', 'Fone']);
    expect(found[1]).toMatchObject({
      slug: 'fone',
      category: { id: category!.id, name: 'Áudio', slug: 'audio' },
    });
    expect(found[0]!.category).toBeNull();
  });

  it('answers nothing for no ids or only malformed ones, without asking the database to fail', async () => {
    expect(await listProductsByIds(db(), [])).toEqual([]);
    expect(await listProductsByIds(db(), ["'; drop table products; --", '1'])).toEqual([]);
  });
});
