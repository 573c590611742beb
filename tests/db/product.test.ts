import { eq } from 'drizzle-orm';
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

  it.each([
    'abc',
    '',
    "1' or '1'='1",
    '5a3b1e00-0000-4000-8000-00000000ffffx',
    '\u0000',
    'fone\u0000',
  ])(
    'answers null for the unknown or malformed address %j (some PostgreSQL would reject)',
    async (id) => {
      expect(await getProduct(db(), id)).toBeNull();
    },
  );

  it('gives each product a slug from its name, unique, kept when the name changes', async () => {
    const made = await db()
      .insert(products)
      .values([
        { name: 'Fone de Ouvido Bluetooth Pro', priceCents: 100 },
        { name: 'Fone de ouvido  bluetooth PRO!', priceCents: 100 },
        { name: 'Café & Companhia: edição nº 2', priceCents: 100 },
        { name: '★★★', priceCents: 100 },
      ])
      .returning({ id: products.id, slug: products.slug });
    expect(made.map((row) => row.slug)).toEqual([
      'fone-de-ouvido-bluetooth-pro',
      'fone-de-ouvido-bluetooth-pro-2',
      'cafe-companhia-edicao-n-2',
      'produto',
    ]);

    await db().update(products).set({ name: 'Fone Novo' }).where(eq(products.id, made[0]!.id));
    const renamed = await getProduct(db(), 'fone-de-ouvido-bluetooth-pro');
    expect(renamed).toMatchObject({ id: made[0]!.id, name: 'Fone Novo' });
    // The old address by id still finds it, for the 301 to its slug.
    expect((await getProduct(db(), made[1]!.id))?.slug).toBe('fone-de-ouvido-bluetooth-pro-2');
    expect(await getProduct(db(), 'fone-de-ouvido')).toBeNull();
  });

  it('gives categories slugs the same way', async () => {
    const made = await db()
      .insert(categories)
      .values([{ name: 'Áudio' }, { name: 'ÁUDIO' }, { name: '---' }])
      .returning({ slug: categories.slug });
    expect(made.map((row) => row.slug)).toEqual(['audio', 'audio-2', 'categoria']);
  });
});
