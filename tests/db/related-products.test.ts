import { expect, it } from 'vitest';

import { categories, products } from '~/db/schema';
import { relatedProducts } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';

describeDb('relatedProducts', ({ db }) => {
  async function category(name: string) {
    const [made] = await db().insert(categories).values({ name }).returning();
    return made!.id;
  }

  // Each a minute older than the one before, so "newest first" has one answer.
  async function product(name: string, categoryId: string | null, stockQuantity = 5, age = 0) {
    const [made] = await db()
      .insert(products)
      .values({
        name,
        priceCents: 1000,
        stockQuantity,
        categoryId,
        createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0) - age * 60_000),
      })
      .returning();
    return made!;
  }

  it('gives up to four other in-stock products of the same category, newest first', async () => {
    const audio = await category('Áudio');
    const other = await category('Informática');
    const fone = await product('Fone', audio, 5, 3);
    await product('Caixa de som', audio, 5, 1);
    await product('Headset', audio, 2, 2);
    await product('Microfone', audio, 1, 4);
    await product('Rádio', audio, 9, 5);
    await product('Vitrola', audio, 3, 6);
    await product('Esgotado', audio, 0, 0);
    await product('Teclado', other, 5, 0);
    await product('Avulso', null, 5, 0);

    const related = await relatedProducts(db(), fone);
    expect(related.map((item) => item.name)).toEqual([
      'Caixa de som',
      'Headset',
      'Microfone',
      'Rádio',
    ]);
    expect(related[0]).toMatchObject({ category: { id: audio, name: 'Áudio', slug: 'audio' } });
    expect((await relatedProducts(db(), fone, 10)).map((item) => item.name)).toEqual([
      'Caixa de som',
      'Headset',
      'Microfone',
      'Rádio',
      'Vitrola',
    ]);
  });

  it('gives nothing when the category has no other product in stock', async () => {
    const audio = await category('Áudio');
    const fone = await product('Fone', audio);
    await product('Esgotado', audio, 0);
    expect(await relatedProducts(db(), fone)).toEqual([]);
  });

  it('gives nothing for a product without a category', async () => {
    const loose = await product('Avulso', null);
    await product('Outro avulso', null);
    expect(await relatedProducts(db(), loose)).toEqual([]);
  });
});
