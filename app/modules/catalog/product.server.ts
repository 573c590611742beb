import { desc, eq, or } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';

import type { Product } from './types';
import { products } from './schema';
import { selectProducts } from './select.server';

const SLUG = /^[a-z0-9-]{1,200}$/;

/**
 * One product with its category, found by its slug or, for links from before slugs, by its id;
 * null when neither matches.
 */
export async function getProduct(db: Db, asked: string): Promise<Product | null> {
  // Slugs are lower case; a link typed or shared in capitals still finds its product.
  const slugOrId = asked.toLowerCase();
  // Only what a slug or an id can be reaches the query: PostgreSQL rejects a malformed uuid,
  // and a NUL in any text, with an error.
  const id = isUuid(slugOrId);
  if (!id && !SLUG.test(slugOrId)) return null;
  const [product] = await selectProducts(db)
    .where(
      id ? or(eq(products.slug, slugOrId), eq(products.id, slugOrId)) : eq(products.slug, slugOrId),
    )
    .orderBy(desc(eq(products.slug, slugOrId)))
    .limit(1);
  return product ?? null;
}
