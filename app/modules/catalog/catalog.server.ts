import { and, eq, notInArray, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import type { CategoryRecord, ProductRecord, VariantRecord } from './types';
import { categories, products, productVariants } from './schema';

/** Creates the category, or puts an existing one with the same id back to these values. */
export async function putCategory(db: Db, category: CategoryRecord): Promise<void> {
  const { id, ...values } = category;
  await db
    .insert(categories)
    .values(category)
    .onConflictDoUpdate({ target: categories.id, set: values });
}

/** Creates the product, or puts an existing one with the same id back to these values. */
export async function putProduct(db: Db, product: ProductRecord): Promise<void> {
  const { id, ...values } = product;
  await db
    .insert(products)
    .values(product)
    .onConflictDoUpdate({ target: products.id, set: { ...values, updatedAt: new Date() } });
}

/**
 * Creates the product with exactly these variants, or puts an existing one (same ids) back to
 * them; call it in a transaction. The product's stock is theirs: the database sums it (ADR 029),
 * so the product row is written without one.
 */
export async function putProductWithVariants(
  db: Db,
  product: Omit<ProductRecord, 'stockQuantity'>,
  variants: readonly VariantRecord[],
): Promise<void> {
  const { id, ...values } = product;
  await db
    .insert(products)
    .values({ ...product, stockQuantity: 0 })
    .onConflictDoUpdate({ target: products.id, set: { ...values, updatedAt: new Date() } });
  const rows = variants.map((variant, index) => ({
    position: index + 1,
    ...variant,
    productId: id,
  }));
  await db
    .insert(productVariants)
    .values(rows)
    .onConflictDoUpdate({
      target: productVariants.id,
      set: {
        position: sql`excluded.position`,
        sku: sql`excluded.sku`,
        option1: sql`excluded.option1`,
        option2: sql`excluded.option2`,
        option3: sql`excluded.option3`,
        priceCents: sql`excluded.price_cents`,
        compareAtPriceCents: sql`excluded.compare_at_price_cents`,
        stockQuantity: sql`excluded.stock_quantity`,
        imageUrls: sql`excluded.image_urls`,
        gtin: sql`excluded.gtin`,
        mpn: sql`excluded.mpn`,
        updatedAt: new Date(),
      },
    });
  // Then its other variants go (a default one made before, say): after the new ones, as a
  // product may not lose its last variant.
  await db.delete(productVariants).where(
    and(
      eq(productVariants.productId, id),
      notInArray(
        productVariants.id,
        rows.map((row) => row.id),
      ),
    ),
  );
}
