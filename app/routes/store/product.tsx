import { data, isRouteErrorResponse, Link, redirect } from 'react-router';

import { Breadcrumbs, type Crumb } from '~/components/store/breadcrumbs';
import { PriceOffers } from '~/components/store/price-offers';
import { ProductBadges } from '~/components/store/product-badges';
import { ProductCard } from '~/components/store/product-card';
import { ProductGallery } from '~/components/store/product-gallery';
import { ProductPurchase } from '~/components/store/product-purchase';
import { RatingStars } from '~/components/store/rating-stars';
import { ReviewList, type ReviewItem } from '~/components/store/review-list';
import { ShareButton } from '~/components/store/share-button';
import { ShippingEstimate } from '~/components/store/shipping-estimate';
import { seoContext, useSettings } from '~/components/store/store-data';
import { WishlistButton } from '~/components/store/wishlist-button';
import { Money } from '~/components/ui/money';
import { HydrationSlice } from '~/components/ui/hydration-slice';
import { pageDeliveryEstimate } from '~/flows/delivery-estimate.server';
import { loadProductPage } from '~/flows/product-page.server';
import { keepDataAfter } from '~/lib/revalidation';
import { decimalPrice, productJsonLd, seoMeta } from '~/lib/seo';
import { categoryPath, productPath } from '~/modules/catalog';
import { formatReviewDate } from '~/modules/reviews';

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
    source: review.source,
    dateTime: review.createdAt.toISOString(),
    date: formatReviewDate(review.createdAt, settings.timezone),
  }));
  return data({ product, rating, reviews, related, estimate }, { headers });
}

export const shouldRevalidate = keepDataAfter('/cart', '/preferences');

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
    {
      'script:ld+json': productJsonLd(
        { ...product, path: productPath(product) },
        rating,
        context.settings,
        context.origin,
      ),
    },
  ];
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, rating, reviews, related, estimate } = loaderData;
  const settings = useSettings();
  const inStock = product.stockQuantity > 0;
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

            <HydrationSlice>
              <ProductPurchase product={product} />
            </HydrationSlice>

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
