import { data, isRouteErrorResponse, Link, redirect } from 'react-router';

import { CartFeedback, useAddToCart } from '~/components/store/add-to-cart';
import { Breadcrumbs, type Crumb } from '~/components/store/breadcrumbs';
import { PriceOffers } from '~/components/store/price-offers';
import { ProductBadges } from '~/components/store/product-badges';
import { ProductCard } from '~/components/store/product-card';
import { ProductGallery } from '~/components/store/product-gallery';
import { QuantitySelector } from '~/components/store/quantity-selector';
import { RatingStars } from '~/components/store/rating-stars';
import { RestockForm } from '~/components/store/restock-form';
import { ReviewList, type ReviewItem } from '~/components/store/review-list';
import { ShareButton } from '~/components/store/share-button';
import { ShippingEstimate } from '~/components/store/shipping-estimate';
import { seoContext, useSettings } from '~/components/store/store-data';
import { WishlistButton } from '~/components/store/wishlist-button';
import { Money } from '~/components/ui/money';
import { pageDeliveryEstimate } from '~/flows/delivery-estimate.server';
import { loadProductPage } from '~/flows/product-page.server';
import { keepDataAfter } from '~/lib/revalidation';
import { absoluteUrl, seoMeta } from '~/lib/seo';
import { categoryPath, productPath, type Product } from '~/modules/catalog';
import { formatReviewDate, type RatingSummary } from '~/modules/reviews';
import type { StoreSettings } from '~/modules/settings';

import type { Route } from './+types/product';

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  const page = await loadProductPage(
    context.db,
    context.changes,
    params.id,
    settings.enable_reviews,
  );
  if (!page) throw data(null, { status: 404 });
  const { product, rating, related } = page;
  // An old link by id (or a slug typed in capitals) moves for good to the product's address.
  if (params.id !== product.slug) {
    throw redirect(`${productPath(product)}${new URL(request.url).search}`, 301);
  }
  const { estimate, headers } = pageDeliveryEstimate(request, settings);
  const reviews = page.reviews.map((review): ReviewItem => ({
    id: review.id,
    customerName: review.customerName,
    rating: review.rating,
    comment: review.comment,
    dateTime: review.createdAt.toISOString(),
    date: formatReviewDate(review.createdAt, settings.timezone),
  }));
  return data({ product, rating, reviews, related, estimate }, { headers });
}

export const shouldRevalidate = keepDataAfter('/cart', '/preferences');

/** Cents as the decimal string schema.org and Open Graph expect: 123456 → "1234.56". */
function decimalPrice(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function productJsonLd(
  product: Product,
  rating: RatingSummary | null,
  settings: StoreSettings,
  origin: string,
) {
  const url = `${origin}${productPath(product)}`;
  const store = { '@type': 'Organization', name: settings.store_name };
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    image: product.imageUrls.map((image) => absoluteUrl(origin, image)),
    sku: product.id,
    url,
    ...(product.category ? { category: product.category.name } : {}),
    brand: { '@type': 'Brand', name: settings.store_name },
    offers: {
      '@type': 'Offer',
      url,
      price: decimalPrice(product.priceCents),
      priceCurrency: 'BRL',
      availability:
        product.stockQuantity > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      seller: store,
    },
    // Only ratings shoppers actually gave: never a made-up aggregate.
    ...(rating && rating.count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: rating.average,
            reviewCount: rating.count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}

export function meta({ loaderData, matches, params, error }: Route.MetaArgs) {
  const context = seoContext(matches);
  if (!loaderData) {
    const notFound = isRouteErrorResponse(error) && error.status === 404;
    return seoMeta(context, {
      title: notFound ? 'Produto não encontrado' : 'Algo deu errado',
      path: `/product/${encodeURIComponent(params.id)}`,
      noindex: true,
    });
  }
  const { product, rating } = loaderData;
  return [
    ...seoMeta(context, {
      title: product.name,
      description: product.description,
      path: productPath(product),
      image: product.imageUrls[0],
      type: 'product',
    }),
    { property: 'product:price:amount', content: decimalPrice(product.priceCents) },
    { property: 'product:price:currency', content: 'BRL' },
    { 'script:ld+json': productJsonLd(product, rating, context.settings, context.origin) },
  ];
}

function PurchaseForm({ product }: { product: Product }) {
  const settings = useSettings();
  const { fetcher, reply, noteQuantity } = useAddToCart(product);
  return (
    <fetcher.Form
      method="post"
      action="/cart"
      className="flex flex-col gap-4"
      onSubmit={(event) => noteQuantity(event.currentTarget)}
    >
      <input type="hidden" name="productId" value={product.id} />
      <QuantitySelector max={Math.min(product.stockQuantity, settings.max_quantity_per_item)} />
      <div className="flex flex-col gap-3 sm:flex-row">
        <button type="submit" name="intent" value="buy" className="btn btn-success sm:flex-1">
          {settings.buy_now_text}
        </button>
        <button type="submit" name="intent" value="add" className="btn btn-primary sm:flex-1">
          {settings.add_to_cart_text}
        </button>
      </div>
      <CartFeedback
        reply={reply}
        className="min-h-6 text-sm font-semibold"
        testId="cart-feedback"
      />
    </fetcher.Form>
  );
}

/** Stock is news only when it runs out: 'Últimas 3 unidades' up to this many, nothing above. */
const LOW_STOCK_MAX = 9;

function lowStockNote(stock: number): string | null {
  if (stock < 1 || stock > LOW_STOCK_MAX) return null;
  return stock === 1 ? 'Última unidade' : `Últimas ${stock} unidades`;
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, rating, reviews, related, estimate } = loaderData;
  const settings = useSettings();
  const inStock = product.stockQuantity > 0;
  const lowStock = lowStockNote(product.stockQuantity);
  const crumbs: Crumb[] = [
    { label: 'Início', to: '/' },
    { label: 'Produtos', to: '/products' },
    ...(product.category
      ? [{ label: product.category.name, to: categoryPath(product.category) }]
      : []),
    { label: product.name },
  ];

  return (
    <div className="section-spacing mx-auto flex max-w-store flex-col gap-10 px-4">
      <div className="flex flex-col gap-4">
        <Breadcrumbs items={crumbs} />

        <div className="grid gap-8 md:grid-cols-2 md:items-start">
          {/* The picture stays in view beside the longer column of details. */}
          <div className="min-w-0 md:sticky md:top-24" data-testid="product-media">
            <ProductGallery images={product.imageUrls} name={product.name} />
          </div>

          <div className="flex min-w-0 flex-col gap-5" data-testid="product-details">
            <div className="flex flex-col gap-2">
              <h1 className="text-2xl break-words text-product-title md:text-3xl">
                {product.name}
              </h1>
              {settings.enable_reviews ? (
                <div className="flex flex-wrap items-center gap-x-3">
                  <RatingStars average={rating?.average ?? 0} count={rating?.count ?? 0} />
                  {rating ? (
                    <a href="#avaliacoes" className="text-sm text-link underline">
                      Ver avaliações
                    </a>
                  ) : null}
                </div>
              ) : null}
            </div>

            <div className="flex flex-col gap-1">
              <Money cents={product.priceCents} className="product-price" />
              <PriceOffers cents={product.priceCents} />
            </div>

            {inStock ? (
              <>
                {lowStock ? (
                  <p
                    className="self-start rounded-button bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900"
                    data-testid="stock"
                  >
                    {lowStock}
                  </p>
                ) : null}
                <PurchaseForm product={product} />
              </>
            ) : (
              <div className="flex flex-col gap-2" data-testid="out-of-stock">
                <p className="self-start rounded-button border border-card-border bg-card px-3 py-1 font-bold">
                  Esgotado
                </p>
                <p className="text-sm">Este produto está esgotado no momento.</p>
                <RestockForm productId={product.id} />
              </div>
            )}

            <div className="flex flex-wrap items-start gap-3">
              {settings.enable_wishlist ? <WishlistButton productId={product.id} /> : null}
              <ShareButton path={productPath(product)} title={product.name} />
            </div>

            {inStock ? (
              <ShippingEstimate
                amountCents={product.priceCents}
                initial={estimate}
                page={productPath(product)}
              />
            ) : null}

            <ProductBadges settings={settings} />

            <section aria-labelledby="descricao" className="flex flex-col gap-3">
              <h2 id="descricao" className="text-xl">
                Descrição
              </h2>
              <p className="whitespace-pre-line text-product-description">{product.description}</p>
            </section>
          </div>
        </div>
      </div>

      {settings.enable_reviews ? (
        <section
          id="avaliacoes"
          aria-labelledby="avaliacoes-titulo"
          className="flex flex-col gap-3"
        >
          <h2 id="avaliacoes-titulo" className="text-xl">
            Avaliações
          </h2>
          {rating ? <RatingStars average={rating.average} count={rating.count} /> : null}
          <ReviewList reviews={reviews} />
        </section>
      ) : null}

      {related.length > 0 ? (
        <section
          aria-labelledby="relacionados-titulo"
          className="flex flex-col gap-4"
          data-testid="related-products"
        >
          <h2 id="relacionados-titulo" className="text-xl">
            Você também pode gostar
          </h2>
          <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            {related.map(({ product: item, rating: itemRating }) => (
              <li key={item.id}>
                <ProductCard product={item} rating={itemRating} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-2xl">{notFound ? 'Produto não encontrado' : 'Algo deu errado'}</h1>
      <p className="mt-4">
        {notFound
          ? 'O produto que você procura não existe ou foi removido da loja.'
          : 'Não conseguimos carregar este produto agora. Tente novamente em instantes.'}
      </p>
      <Link className="btn btn-primary mt-8" to="/products">
        Ver todos os produtos
      </Link>
    </div>
  );
}
