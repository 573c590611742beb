import { eq, getTableColumns, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { effectivePriceSql } from '~/modules/pricing/index.server';

import { categories, products } from './schema';
import type { ProductCardSummary } from './types';

const price = effectivePriceSql(sql`v.price_cents`, products.priceCents);

// Read off product_variants_product_idx for the few rows of a page; the lowest-priced variant's
// 'de' price and the first variant's picture come from the same scan.
const card = sql<ProductCardSummary>`(
  select jsonb_build_object(
    'fromCents', min(${price}),
    'toCents', max(${price}),
    'compareAtCents', (array_agg(v.compare_at_price_cents
      order by ${price}, v.position, v.id))[1],
    'variantCount', count(*),
    'imageUrl', (array_agg(v.image_urls[1] order by v.position, v.id))[1])
  from product_variants v where v.product_id = ${products.id})`;

/** Products as the storefront shows them: every column, the category (or null) and the card's summary of the variants. */
export function selectProducts(db: Db) {
  return db
    .select({
      ...getTableColumns(products),
      category: { id: categories.id, name: categories.name, slug: categories.slug },
      card,
    })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id));
}
