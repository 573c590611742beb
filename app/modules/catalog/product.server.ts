import { eq, getTableColumns } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import type { Product } from './types';
import { categories, products } from './schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One product with its category, or null when the id is unknown or not a UUID at all. */
export async function getProduct(db: Db, id: string): Promise<Product | null> {
  // PostgreSQL rejects a malformed uuid with an error; a bad URL is simply "not found".
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select({ ...getTableColumns(products), category: categories })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .where(eq(products.id, id))
    .limit(1);
  if (!row) return null;
  const { category, ...product } = row;
  return { ...product, category: category ? { id: category.id, name: category.name } : null };
}
