import { useEffect } from 'react';
import {
  data,
  isRouteErrorResponse,
  Link,
  redirect,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';

import { Breadcrumbs, type Crumb } from '~/components/store/breadcrumbs';
import { ProductBadges } from '~/components/store/product-badges';
import { ProductCard } from '~/components/store/product-card';
import { ProductGallery } from '~/components/store/product-gallery';
import { ProductPrice } from '~/components/store/product-price';
import { preloadRestockForm, ProductPurchase } from '~/components/store/product-purchase';
import { RatingStars } from '~/components/store/rating-stars';
import { ReviewList, type ReviewItem } from '~/components/store/review-list';
import { ShareButton } from '~/components/store/share-button';
import { ShippingEstimate } from '~/components/store/shipping-estimate';
import { seoContext, useSettings } from '~/components/store/store-data';
import { VariantPicker } from '~/components/store/variant-picker';
import { WishlistButton } from '~/components/store/wishlist-button';
import { HydrationSlice } from '~/components/ui/hydration-slice';
import { loadProductPage, productPageEstimate } from '~/flows/product-page.server';
import { keepDataAfter } from '~/lib/revalidation';
import { decimalPrice, productJsonLd } from '~/lib/product-json-ld';
import { seoMeta } from '~/lib/seo';
import { routeError } from '~/lib/route-errors';
import {
  categoryPath,
  chooseVariant,
  compareAtPrice,
  optionPickers,
  productPath,
  VARIANT_PARAM,
  variantImages,
} from '~/modules/catalog';
import { formatReviewDate } from '~/modules/reviews';

import type { Route } from './+types/product';

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  const page = await loadProductPage(
    context.readDb,
    context.changes,
    params.id,
    settings.enable_reviews,
  );
  if (!page) throw routeError(404);
  const { product, rating, related } = page;
  // An old link by id (or a slug typed in capitals) moves for good to the product's address.
  if (params.id !== product.slug) {
    throw redirect(`${productPath(product)}${new URL(request.url).search}`, 301);
  }
  // One unit of the variant the page opens on is what 'Calcular frete' prices.
  const variant = chooseVariant(
    product.variants,
    new URL(request.url).searchParams.get(VARIANT_PARAM),
  );
  const { estimate, headers } = await productPageEstimate(
    context,
    request,
    product,
    variant.sku,
    settings,
  );
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

/** The page is `private` when its saved CEP's estimate says so (pageShippingEstimate). */
export function headers({ loaderHeaders, parentHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get('Cache-Control');
  if (cacheControl) parentHeaders.set('Cache-Control', cacheControl);
  return parentHeaders;
}

const keepData = keepDataAfter('/cart', '/preferences');

/** Whether two addresses of this page differ only in the variant chosen. */
function onlyVariantChanged(current: URL, next: URL): boolean {
  if (current.pathname !== next.pathname) return false;
  const rest = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete(VARIANT_PARAM);
    params.sort();
    return params.toString();
  };
  return rest(current) === rest(next);
}

// The page holds every variant: choosing another one (or going back to the previous) reads
// nothing again.
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  if (args.formMethod === undefined || args.formMethod.toUpperCase() === 'GET') {
    if (onlyVariantChanged(args.currentUrl, args.nextUrl)) return false;
  }
  return keepData(args);
}

export function meta({ loaderData, matches, params, error, location }: Route.MetaArgs) {
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
  const variant = chooseVariant(
    product.variants,
    new URLSearchParams(location.search).get(VARIANT_PARAM),
  );
  return [
    ...seoMeta(context, {
      title: product.name,
      description: product.description,
      path: productPath(product),
      image: variantImages(product, variant)[0],
      type: 'product',
    }),
    { property: 'product:price:amount', content: decimalPrice(variant.priceCents) },
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
  const [searchParams] = useSearchParams();
  const variant = chooseVariant(product.variants, searchParams.get(VARIANT_PARAM));
  const pickers = optionPickers(product.options, product.variants, variant);
  const images = variantImages(product, variant);
  const inStock = variant.stockQuantity > 0;
  const anySoldOut = product.variants.some((each) => each.stockQuantity < 1);
  // Choosing a sold-out variant then shows its 'Avise-me' form at once.
  useEffect(() => {
    if (anySoldOut) preloadRestockForm();
  }, [anySoldOut]);
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
            {/* Another variant's pictures start again from the first. */}
            <ProductGallery key={images.join(' ')} images={images} name={product.name} />
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

            <ProductPrice cents={variant.priceCents} compareAtCents={compareAtPrice(variant)} />

            <HydrationSlice>
              {pickers.length > 0 ? (
                <VariantPicker pickers={pickers} path={productPath(product)} />
              ) : null}
              {/* Another variant starts again from one unit and a fresh 'Avise-me'. */}
              <ProductPurchase
                key={variant.id}
                product={product}
                variant={variant}
                several={product.variants.length > 1}
              />
            </HydrationSlice>

            <div className="flex flex-wrap items-start gap-3">
              {settings.enable_wishlist ? <WishlistButton productId={product.id} /> : null}
              <ShareButton path={productPath(product)} title={product.name} />
            </div>

            {inStock ? (
              <ShippingEstimate
                amountCents={variant.priceCents}
                initial={estimate}
                page={productPath(product)}
                query={{ produto: product.slug, variante: variant.sku }}
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
