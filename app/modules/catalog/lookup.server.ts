import { eq, inArray } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { distinctUuids } from '~/lib/uuid';

import { categories, products } from './schema';

/** What the cart needs to know about a product to price a line and check its stock. */
export interface ProductSummary {
  id: string;
  name: string;
  slug: string;
  priceCents: number;
  stockQuantity: number;
  /** The main image, if the product has any. */
  imageUrl: string | null;
  categoryId: string | null;
  categoryName: string | null;
}

/** The products with these ids, in one query; unknown or malformed ids are simply absent. */
export async function lookupProducts(db: Db, ids: readonly string[]): Promise<ProductSummary[]> {
  const wanted = distinctUuids(ids);
  if (wanted.length === 0) return [];
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      slug: products.slug,
      priceCents: products.priceCents,
      stockQuantity: products.stockQuantity,
      imageUrls: products.imageUrls,
      categoryId: products.categoryId,
      categoryName: categories.name,
    })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .where(inArray(products.id, wanted));
  return rows.map(({ imageUrls, ...product }) => ({ ...product, imageUrl: imageUrls[0] ?? null }));
}
