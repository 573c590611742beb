import type { Db } from '~/db/database.server';
import { createVersionCache, type FeedVersion } from '~/db/version-cache.server';
import type { ProductWithVariants } from '~/modules/catalog';
import { getProductWithVariants, relatedProducts } from '~/modules/catalog/index.server';
import type { ShippingEstimate } from '~/modules/orders';
import type { RatingSummary, Review } from '~/modules/reviews';
import { listProductReviews } from '~/modules/reviews/index.server';
import type { StoreSettings } from '~/modules/settings';

import { pageShippingEstimate } from './delivery-estimate.server';
import { withRatings, type RatedProduct } from './rated-products.server';
import { productGoods, type EstimateScope } from './shipping-quote.server';

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

/**
 * 'Calcular frete' on the product page: one unit of the variant it opens on (`sku`), priced for
 * the CEP asked or remembered (pageShippingEstimate, whose headers the page answers with); none
 * for a SKU the product does not have.
 */
export async function productPageEstimate(
  scope: EstimateScope,
  request: Request,
  product: Pick<ProductWithVariants, 'variants'>,
  sku: string | null,
  settings: StoreSettings,
): Promise<{ estimate: ShippingEstimate | null; headers: Record<string, string> }> {
  const goods = productGoods(product.variants, sku);
  return goods
    ? pageShippingEstimate(scope, request, goods, settings)
    : { estimate: null, headers: {} };
}
