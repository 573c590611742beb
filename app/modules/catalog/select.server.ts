import { eq, getTableColumns } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { categories, products } from './schema';

/** Products as the storefront shows them: every column plus the category (or null). */
export function selectProducts(db: Db) {
  return db
    .select({
      ...getTableColumns(products),
      category: { id: categories.id, name: categories.name, slug: categories.slug },
    })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id));
}
