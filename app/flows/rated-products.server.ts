import type { Db } from '~/db/database.server';
import { createVersionCache, type FeedVersion } from '~/db/version-cache.server';
import type { CatalogPage, CatalogQuery, ListQuery, Product } from '~/modules/catalog';
import { listProducts, searchProducts } from '~/modules/catalog/index.server';
import type { RatingSummary } from '~/modules/reviews';
import { ratingSummaries } from '~/modules/reviews/index.server';

export interface RatedProduct {
  product: Product;
  /** Real reviews only; absent when nobody reviewed it or the store hides reviews. */
  rating?: RatingSummary;
}

/** Pairs product cards with their ratings in one query, or none when `enable_reviews` is off. */
export async function withRatings(
  db: Db,
  products: Product[],
  showReviews: boolean,
): Promise<RatedProduct[]> {
  const ratings = showReviews
    ? await ratingSummaries(
        db,
        products.map((product) => product.id),
      )
    : new Map<string, RatingSummary>();
  return products.map((product) => ({ product, rating: ratings.get(product.id) }));
}

export interface RatedCatalogPage extends Omit<CatalogPage, 'products'> {
  products: RatedProduct[];
}

// Listings are read again for each page cache entry of the same address (per cart count,
// consent and colour scheme), so their reads are kept per catalogue version; a page of cards
// is a few tens of kilobytes.
const MAX_AGE_MS = 5 * 60_000;
const catalogPages = createVersionCache<RatedCatalogPage>({
  maxEntries: 200,
  maxAgeMs: MAX_AGE_MS,
});
const productLists = createVersionCache<RatedProduct[]>({ maxEntries: 50, maxAgeMs: MAX_AGE_MS });

/** One page of the storefront's catalogue with ratings, read once per version of `changes`. */
export function searchRatedProducts(
  db: Db,
  changes: FeedVersion | undefined,
  query: CatalogQuery,
  showReviews: boolean,
): Promise<RatedCatalogPage> {
  return catalogPages(changes, JSON.stringify([showReviews, query]), async () => {
    const page = await searchProducts(db, query, changes);
    return { ...page, products: await withRatings(db, page.products, showReviews) };
  });
}

/** The first `limit` products with ratings (see listProducts), read once per version. */
export function listRatedProducts(
  db: Db,
  changes: FeedVersion | undefined,
  query: ListQuery,
  limit: number,
  showReviews: boolean,
): Promise<RatedProduct[]> {
  return productLists(changes, JSON.stringify([showReviews, limit, query]), async () =>
    withRatings(db, await listProducts(db, query, limit), showReviews),
  );
}
