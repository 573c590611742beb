import { eq } from 'drizzle-orm';

import { isUuid } from '~/db/columns';
import type { Db } from '~/db/database.server';

import type { Product } from './types';
import { products } from './schema';
import { selectProducts } from './select.server';

/** One product with its category, or null when the id is unknown or not a UUID at all. */
export async function getProduct(db: Db, id: string): Promise<Product | null> {
  // PostgreSQL rejects a malformed uuid with an error; a bad URL is simply "not found".
  if (!isUuid(id)) return null;
  const [product] = await selectProducts(db).where(eq(products.id, id)).limit(1);
  return product ?? null;
}
