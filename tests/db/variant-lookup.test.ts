import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { products, productVariants } from '~/db/schema';
import { lookupVariants } from '~/modules/catalog/index.server';

import { describeDb } from '../support/db';

/**
 * A product with `count` variants (sizes, SKUs NAME-0, NAME-1…), its own price on the second.
 * The database gives a new product its first variant; that one is made the first size.
 */
async function product(db: Db, name: string, count: number) {
  const [row] = await db
    .insert(products)
    .values({
      name,
      priceCents: 1000,
      options: [{ name: 'Tamanho', values: [{ name: 'P' }, { name: 'M' }, { name: 'G' }] }],
    })
    .returning({ id: products.id });
  const [first] = await db
    .update(productVariants)
    .set({ option1: 'P', sku: `${name}-0`.toUpperCase(), stockQuantity: 10 })
    .where(eq(productVariants.productId, row!.id))
    .returning({ id: productVariants.id });
  const others =
    count > 1
      ? await db
          .insert(productVariants)
          .values(
            Array.from({ length: count - 1 }, (_, index) => ({
              productId: row!.id,
              position: index + 2,
              option1: ['M', 'G'][index % 2]!,
              sku: `${name}-${index + 1}`.toUpperCase(),
              stockQuantity: 11 + index,
              ...(index === 0 ? { priceCents: 1500 } : {}),
            })),
          )
          .returning({ id: productVariants.id })
      : [];
  return { id: row!.id, variantIds: [first!.id, ...others.map((variant) => variant.id)] };
}

const skus = (found: { sku: string }[]) => found.map((variant) => variant.sku);

describeDb('looking up variants', ({ db }) => {
  it('answers each call of one shape with its own ids, however often the shape is sent', async () => {
    const shirt = await product(db(), 'camiseta', 3);
    const cap = await product(db(), 'bone', 2);
    for (let round = 0; round < 3; round++) {
      expect(skus(await lookupVariants(db(), { variantIds: [shirt.variantIds[1]!] }))).toEqual([
        'CAMISETA-1',
      ]);
      expect(skus(await lookupVariants(db(), { variantIds: [cap.variantIds[0]!] }))).toEqual([
        'BONE-0',
      ]);
      expect(skus(await lookupVariants(db(), { productIds: [cap.id] }))).toEqual([
        'BONE-0',
        'BONE-1',
      ]);
    }
    const [second] = await lookupVariants(db(), { variantIds: [shirt.variantIds[1]!] });
    expect(second).toMatchObject({ productId: shirt.id, priceCents: 1500, stockQuantity: 11 });
    expect(second!.options).toEqual([{ name: 'Tamanho', value: 'M' }]);
    const [first] = await lookupVariants(db(), { variantIds: [shirt.variantIds[0]!] });
    expect(first).toMatchObject({ priceCents: 1000, stockQuantity: 10 });
  });

  it('finds variants and products together, each once, in their product’s order', async () => {
    const shirt = await product(db(), 'camiseta', 3);
    const cap = await product(db(), 'bone', 2);
    const found = await lookupVariants(db(), {
      variantIds: [shirt.variantIds[2]!, shirt.variantIds[0]!, shirt.variantIds[2]!],
      productIds: [cap.id],
    });
    expect(found.map((variant) => variant.id).sort()).toEqual(
      [shirt.variantIds[0]!, shirt.variantIds[2]!, ...cap.variantIds].sort(),
    );
    const shirtSkus = skus(found).filter((sku) => sku.startsWith('CAMISETA'));
    expect(shirtSkus).toEqual(['CAMISETA-0', 'CAMISETA-2']);
  });

  it('finds more ids than it keeps a statement for', async () => {
    const shirt = await product(db(), 'camiseta', 3);
    const cap = await product(db(), 'bone', 3);
    const all = [...shirt.variantIds, ...cap.variantIds];
    expect(all.length).toBeGreaterThan(4);
    const found = await lookupVariants(db(), { variantIds: all });
    expect(found.map((variant) => variant.id).sort()).toEqual([...all].sort());
    const products = await lookupVariants(db(), {
      productIds: [shirt.id, cap.id, crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()],
    });
    expect(products).toHaveLength(6);
  });

  it('leaves out unknown and malformed ids, and asks nothing for none', async () => {
    const shirt = await product(db(), 'camiseta', 1);
    expect(
      skus(
        await lookupVariants(db(), {
          variantIds: ['not-a-uuid', crypto.randomUUID(), shirt.variantIds[0]!],
          productIds: ["'; drop table products; --"],
        }),
      ),
    ).toEqual(['CAMISETA-0']);
    expect(await lookupVariants(db(), { variantIds: ['x'], productIds: [] })).toEqual([]);
  });

  it('sees, in a transaction, what that transaction wrote', async () => {
    const shirt = await product(db(), 'camiseta', 1);
    // Prepared outside first: a transaction sent the outside's statement would miss its own row.
    expect(skus(await lookupVariants(db(), { productIds: [shirt.id] }))).toEqual(['CAMISETA-0']);
    const inside = await db().transaction(async (tx) => {
      await tx
        .insert(productVariants)
        .values({ productId: shirt.id, position: 2, option1: 'G', sku: 'CAMISETA-G' });
      return lookupVariants(tx as unknown as Db, { productIds: [shirt.id] });
    });
    expect(skus(inside)).toEqual(['CAMISETA-0', 'CAMISETA-G']);
  });
});
