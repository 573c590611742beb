import { desc, eq, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { effectivePriceSql } from '~/modules/pricing/index.server';

import { categories, products } from './schema';
import { optionValuesOf } from './variant-label';
import type { FeedProduct } from './types';

interface VariantRow {
  sku: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  priceCents: number;
  compareAtPriceCents: number | null;
  stockQuantity: number;
  imageUrls: string[];
  gtin: string;
  mpn: string;
}

// A product's variants in its own row, as JSON: a product's text is read once, not once per
// variant (on PGlite, parsing the rows was 40% of building a feed of 60,000 variants).
const variantsJson = sql<VariantRow[]>`(
  select json_agg(json_build_object(
    'sku', v.sku,
    'option1', v.option1,
    'option2', v.option2,
    'option3', v.option3,
    'priceCents', ${effectivePriceSql(sql`v.price_cents`, products.priceCents)},
    'compareAtPriceCents', v.compare_at_price_cents,
    'stockQuantity', v.stock_quantity,
    'imageUrls', v.image_urls,
    'gtin', v.gtin,
    'mpn', v.mpn
  ) order by v.position, v.id)
  from product_variants v where v.product_id = ${products.id}
)`;

/**
 * Every product with its variants, newest product first and each product's variants in their
 * order: one read of the whole catalogue, for the feeds (a product is visible once it exists).
 */
export async function listFeedProducts(db: Db): Promise<FeedProduct[]> {
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      slug: products.slug,
      description: products.description,
      brand: products.brand,
      googleProductCategory: products.googleProductCategory,
      condition: products.condition,
      category: categories.name,
      imageUrls: products.imageUrls,
      productOptions: products.options,
      variants: variantsJson,
    })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .orderBy(desc(products.createdAt), desc(products.id));
  return rows.map(({ productOptions, variants, ...product }) => ({
    ...product,
    variants: (variants ?? []).map((variant) => ({
      sku: variant.sku,
      options: optionValuesOf(productOptions, variant),
      priceCents: variant.priceCents,
      compareAtPriceCents: variant.compareAtPriceCents,
      stockQuantity: variant.stockQuantity,
      imageUrls: variant.imageUrls,
      gtin: variant.gtin,
      mpn: variant.mpn,
    })),
  }));
}
