import { and, desc, eq, gt, ne } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { products } from './schema';
import { selectProducts } from './select.server';
import type { Product } from './types';

const RELATED_LIMIT = 4;

/**
 * 'Você também pode gostar': other products of the same category that can be bought now, newest
 * first. None for a product without a category: unrelated products would only be noise.
 */
export async function relatedProducts(
  db: Db,
  product: Pick<Product, 'id' | 'categoryId'>,
  limit = RELATED_LIMIT,
): Promise<Product[]> {
  if (!product.categoryId) return [];
  return selectProducts(db)
    .where(
      and(
        eq(products.categoryId, product.categoryId),
        ne(products.id, product.id),
        gt(products.stockQuantity, 0),
      ),
    )
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit);
}
