import type { Db } from '~/db/database.server';
import type { Product } from '~/modules/catalog';
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
