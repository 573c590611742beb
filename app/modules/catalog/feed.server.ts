import { asc, desc, eq } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { effectivePriceSql } from '~/modules/pricing/index.server';

import { categories, products, productVariants } from './schema';
import { optionValuesOf } from './variant-label';
import type { FeedVariant } from './types';

/**
 * Every variant of every product, newest product first and each product's variants in their
 * order: one read of the whole catalogue, for the feeds (a product is visible once it exists).
 */
export async function listFeedVariants(db: Db): Promise<FeedVariant[]> {
  const rows = await db
    .select({
      productId: products.id,
      name: products.name,
      slug: products.slug,
      description: products.description,
      brand: products.brand,
      googleProductCategory: products.googleProductCategory,
      condition: products.condition,
      category: categories.name,
      productImageUrls: products.imageUrls,
      productOptions: products.options,
      sku: productVariants.sku,
      option1: productVariants.option1,
      option2: productVariants.option2,
      option3: productVariants.option3,
      priceCents: effectivePriceSql(productVariants.priceCents, products.priceCents),
      compareAtPriceCents: productVariants.compareAtPriceCents,
      stockQuantity: productVariants.stockQuantity,
      imageUrls: productVariants.imageUrls,
      gtin: productVariants.gtin,
      mpn: productVariants.mpn,
    })
    .from(productVariants)
    .innerJoin(products, eq(productVariants.productId, products.id))
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .orderBy(
      desc(products.createdAt),
      desc(products.id),
      asc(productVariants.position),
      asc(productVariants.id),
    );
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.productId, (counts.get(row.productId) ?? 0) + 1);
  return rows.map(({ productOptions, option1, option2, option3, ...row }) => ({
    ...row,
    variantCount: counts.get(row.productId)!,
    options: optionValuesOf(productOptions, { option1, option2, option3 }),
  }));
}
