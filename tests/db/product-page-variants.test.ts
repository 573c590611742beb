import { expect, it } from 'vitest';

import { products, productVariants } from '~/db/schema';
import { getProductWithVariants } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';

describeDb('getProductWithVariants', ({ db }) => {
  it('reads a product with its variants in order, each price resolved from the product', async () => {
    const product = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(products)
        .values({
          name: 'Tapete Sala',
          priceCents: 19990,
          imageUrls: ['/tapete.svg'],
          options: [{ name: 'Tamanho', values: [{ name: '1,5 × 2 m' }, { name: '2 × 3 m' }] }],
        })
        .returning();
      await tx.insert(productVariants).values([
        {
          productId: row!.id,
          position: 2,
          option1: '2 × 3 m',
          priceCents: 34990,
          compareAtPriceCents: 39990,
          stockQuantity: 2,
          imageUrls: ['/grande.svg'],
        },
        { productId: row!.id, position: 1, option1: '1,5 × 2 m', stockQuantity: 0 },
      ]);
      return row!;
    });

    const read = await getProductWithVariants(db(), product.slug.toUpperCase());
    expect(read).toMatchObject({ id: product.id, name: 'Tapete Sala', stockQuantity: 2 });
    expect(read?.options).toEqual([
      { name: 'Tamanho', values: [{ name: '1,5 × 2 m' }, { name: '2 × 3 m' }] },
    ]);
    expect(read?.variants).toEqual([
      {
        id: expect.any(String),
        sku: 'TAPETE-SALA-1-5-2-M',
        values: ['1,5 × 2 m'],
        priceCents: 19990,
        compareAtPriceCents: null,
        stockQuantity: 0,
        imageUrls: [],
        gtin: '',
        mpn: '',
      },
      {
        id: expect.any(String),
        sku: 'TAPETE-SALA-2-3-M',
        values: ['2 × 3 m'],
        priceCents: 34990,
        compareAtPriceCents: 39990,
        stockQuantity: 2,
        imageUrls: ['/grande.svg'],
        gtin: '',
        mpn: '',
      },
    ]);
  });

  it('reads a product inserted alone with the default variant the database gave it', async () => {
    const [product] = await db()
      .insert(products)
      .values({ name: 'Avulso', priceCents: 500, stockQuantity: 4 })
      .returning();
    const read = await getProductWithVariants(db(), product!.id);
    expect(read?.options).toEqual([]);
    expect(read?.variants).toEqual([
      expect.objectContaining({ values: [], priceCents: 500, stockQuantity: 4, imageUrls: [] }),
    ]);
  });

  it.each(['abc', '', '\u0000', '5a3b1e00-0000-4000-8000-00000000ffff'])(
    'answers null for the unknown or malformed address %j',
    async (asked) => {
      expect(await getProductWithVariants(db(), asked)).toBeNull();
    },
  );
});
