import type { Db } from '~/db/database.server';

import { searchProducts } from './search.server';
import type { ProductOptions } from './types';

/** How many products a product picker offers at once; typing finds the others. */
export const PRODUCT_OPTIONS_LIMIT = 30;

/**
 * Products for a picker in the admin, matching what was typed (every word, accents and case
 * aside), in the order a Brazilian reads names. Never the whole catalogue: a store with
 * thousands of products would send them all with every page.
 */
export async function listProductOptions(db: Db, q = ''): Promise<ProductOptions> {
  const page = await searchProducts(db, {
    q: q || undefined,
    page: 1,
    perPage: PRODUCT_OPTIONS_LIMIT,
    sort: 'name',
  });
  return {
    options: page.products.map((product) => ({ id: product.id, name: product.name })),
    total: page.total,
  };
}
