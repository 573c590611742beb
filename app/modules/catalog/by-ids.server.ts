import { inArray } from 'drizzle-orm';

import { isUuid } from '~/db/columns';
import type { Db } from '~/db/database.server';

import { products } from './schema';
import { selectProducts } from './select.server';
import type { Product } from './types';

/**
 * The storefront's products with these ids (a shopper's favourites), in the order asked;
 * unknown, repeated or malformed ids are simply absent.
 */
export async function listProductsByIds(db: Db, ids: readonly string[]): Promise<Product[]> {
  // PostgreSQL rejects a malformed uuid with an error instead of matching nothing.
  const wanted = [...new Set(ids)].filter((id) => isUuid(id));
  if (wanted.length === 0) return [];
  const rows = await selectProducts(db).where(inArray(products.id, wanted));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}
