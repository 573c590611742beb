import type { Db } from '~/db/database.server';
import { createVersionCache, type FeedVersion } from '~/db/version-cache.server';
import type { ProductWithVariants } from '~/modules/catalog';
import { getProductWithVariants, relatedProducts } from '~/modules/catalog/index.server';
import type { RatingSummary, Review } from '~/modules/reviews';
import { listProductReviews } from '~/modules/reviews/index.server';

import { withRatings, type RatedProduct } from './rated-products.server';

export interface ProductPageData {
  /** With its variants, read in the product's own row. */
  product: ProductWithVariants;
  rating: RatingSummary | null;
  /** Newest first; none when the store hides reviews. */
  reviews: Review[];
  related: RatedProduct[];
}

// A product page reads four queries (its variants come in the product's row); each page cache
// entry (per variant, cart count, consent, colour scheme and CEP) renders it again, so the reads
// are kept per catalogue version: a few hundred of the most visited products take a few megabytes.
const pages = createVersionCache<ProductPageData | null>({
  maxEntries: 500,
  maxAgeMs: 5 * 60_000,
  // An unknown address is not kept: anyone can make up as many as they like.
  keep: (page) => page !== null,
});

/**
 * What the product page shows of the product found by `asked` (its slug, or its id for links
 * from before slugs): the product with its variants, its rating and reviews, and related
 * products with theirs; null when no product matches. Read at most once per version of `changes`.
 */
export function loadProductPage(
  db: Db,
  changes: FeedVersion | undefined,
  asked: string,
  showReviews: boolean,
): Promise<ProductPageData | null> {
  return pages(changes, `${showReviews ? 'reviews' : 'none'}:${asked.toLowerCase()}`, async () => {
    const product = await getProductWithVariants(db, asked);
    if (!product) return null;
    // The product's rating comes with its related products' ratings, in one query.
    const [[own, ...related], reviews] = await Promise.all([
      relatedProducts(db, product).then((products) =>
        withRatings(db, [product, ...products], showReviews),
      ),
      showReviews ? listProductReviews(db, product.id) : [],
    ]);
    return { product, rating: own?.rating ?? null, reviews, related };
  });
}
