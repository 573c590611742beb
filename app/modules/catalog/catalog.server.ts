import { desc, eq, getTableColumns } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import type { CategoryRecord, Product, ProductRecord } from './types';
import { categories, products } from './schema';

export async function listProducts(db: Db, options: { limit: number }): Promise<Product[]> {
  const rows = await db
    .select({ ...getTableColumns(products), category: categories })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(options.limit);
  return rows.map(({ category, ...product }) => ({
    ...product,
    category: category ? { id: category.id, name: category.name } : null,
  }));
}

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
