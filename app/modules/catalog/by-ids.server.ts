import { inArray } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { distinctUuids } from '~/lib/uuid';

import { products } from './schema';
import { selectProducts } from './select.server';
import type { Product } from './types';

/**
 * The storefront's products with these ids (a shopper's favourites), in the order asked;
 * unknown, repeated or malformed ids are simply absent.
 */
export async function listProductsByIds(db: Db, ids: readonly string[]): Promise<Product[]> {
  const wanted = distinctUuids(ids);
  if (wanted.length === 0) return [];
  const rows = await selectProducts(db).where(inArray(products.id, wanted));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}
