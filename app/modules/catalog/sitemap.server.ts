import { desc } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { products } from './schema';

/** Every product's slug and last change, most recently changed first, for /sitemap.xml. */
export async function listSitemapProducts(
  db: Db,
  options: { limit: number },
): Promise<{ slug: string; updatedAt: Date }[]> {
  return db
    .select({ slug: products.slug, updatedAt: products.updatedAt })
    .from(products)
    .orderBy(desc(products.updatedAt), desc(products.id))
    .limit(options.limit);
}
