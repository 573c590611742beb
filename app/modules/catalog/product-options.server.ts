import { asc, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { products } from './schema';

/** Every product's id and name, for a select in the admin, in the order a Brazilian reads them. */
export function listProductOptions(db: Db): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: products.id, name: products.name })
    .from(products)
    .orderBy(asc(sql`vitrine_fold(${products.name})`), asc(products.id));
}
