import type { Db } from '~/db/database.server';

import type { CategoryRecord, ProductRecord } from './types';
import { categories, products } from './schema';

/** Creates the category, or puts an existing one with the same id back to these values. */
export async function putCategory(db: Db, category: CategoryRecord): Promise<void> {
  const { id, ...values } = category;
  await db
    .insert(categories)
    .values(category)
    .onConflictDoUpdate({ target: categories.id, set: values });
}

/** Creates the product, or puts an existing one with the same id back to these values. */
export async function putProduct(db: Db, product: ProductRecord): Promise<void> {
  const { id, ...values } = product;
  await db
    .insert(products)
    .values(product)
    .onConflictDoUpdate({ target: products.id, set: { ...values, updatedAt: new Date() } });
}
