import { desc, eq, getTableColumns, or, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';
import { effectivePriceSql } from '~/modules/pricing/index.server';

import type { Product } from './types';
import { categories, products } from './schema';
import { selectProducts } from './select.server';
import type { PageVariant, ProductWithVariants } from './variant-choice';

const SLUG = /^[a-z0-9-]{1,200}$/;

/**
 * The condition finding the product by its slug or, for links from before slugs, by its id, and
 * the order that puts a slug match first; null when `asked` can be neither.
 */
function findBy(asked: string): { where: SQL; first: SQL } | null {
  // Slugs are lower case; a link typed or shared in capitals still finds its product.
  const slugOrId = asked.toLowerCase();
  // Only what a slug or an id can be reaches the query: PostgreSQL rejects a malformed uuid,
  // and a NUL in any text, with an error.
  const id = isUuid(slugOrId);
  if (!id && !SLUG.test(slugOrId)) return null;
  return {
    where: id
      ? or(eq(products.slug, slugOrId), eq(products.id, slugOrId))!
      : eq(products.slug, slugOrId),
    first: desc(eq(products.slug, slugOrId)),
  };
}

/**
 * One product with its category, found by its slug or, for links from before slugs, by its id;
 * null when neither matches.
 */
export async function getProduct(db: Db, asked: string): Promise<Product | null> {
  const found = findBy(asked);
  if (!found) return null;
  const [product] = await selectProducts(db).where(found.where).orderBy(found.first).limit(1);
  return product ?? null;
}

// The variants come in the product's own row, as JSON: the product page pays no second read.
const variantsJson = sql<PageVariant[]>`(
  select coalesce(json_agg(json_build_object(
    'id', v.id,
    'sku', v.sku,
    'values', array_remove(array[v.option1, v.option2, v.option3], null),
    'priceCents', ${effectivePriceSql(sql`v.price_cents`, products.priceCents)},
    'compareAtPriceCents', v.compare_at_price_cents,
    'stockQuantity', v.stock_quantity,
    'imageUrls', v.image_urls,
    'gtin', v.gtin,
    'mpn', v.mpn
  ) order by v.position, v.created_at, v.id), '[]'::json)
  from product_variants v where v.product_id = ${products.id}
)`;

/** What the product page shows of a product: as getProduct, with its variants in order. */
export async function getProductWithVariants(
  db: Db,
  asked: string,
): Promise<ProductWithVariants | null> {
  const found = findBy(asked);
  if (!found) return null;
  const [product] = await db
    .select({
      ...getTableColumns(products),
      category: { id: categories.id, name: categories.name, slug: categories.slug },
      variants: variantsJson,
    })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .where(found.where)
    .orderBy(found.first)
    .limit(1);
  return product ?? null;
}
