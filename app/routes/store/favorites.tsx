import { useEffect } from 'react';
import { Link, useFetcher } from 'react-router';

import { ProductCard } from '~/components/store/product-card';
import { seoContext } from '~/components/store/store-data';
import { HeartIcon } from '~/components/ui/icons';
import { withRatings } from '~/flows/rated-products.server';
import { keepDataAfter } from '~/lib/revalidation';
import { seoMeta } from '~/lib/seo';
import { toggleWishlist, useWishlistIds } from '~/lib/wishlist';
import { routeError } from '~/lib/route-errors';
import { listProductsByIds } from '~/modules/catalog/index.server';

import type { Route } from './+types/favorites';

// A shopper's favourites fit many times over; more is a hand-made address, not a wishlist.
const MAX_IDS = 100;

/** The ids asked for in `?ids=a,b,c`: trimmed, non-empty, at most MAX_IDS. */
function askedIds(url: URL): string[] {
  const raw = url.searchParams.get('ids') ?? '';
  return raw
    .split(',', MAX_IDS)
    .map((id) => id.trim())
    .filter(Boolean);
}

/**
 * The favourites live in the shopper's browser (localStorage), so the page asks this loader for
 * their products with `?ids=…`; ids that are malformed or no longer exist are simply left out.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const settings = await context.settings.get();
  if (!settings.enable_wishlist) throw routeError(404);
  const requested = askedIds(new URL(request.url));
  const products = await listProductsByIds(context.readDb, requested);
  return {
    requested,
    products: await withRatings(context.readDb, products, settings.enable_reviews),
  };
}

export const shouldRevalidate = keepDataAfter('/cart', '/preferences');

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), { title: 'Favoritos', path: '/favoritos', noindex: true });
}

function EmptyFavorites() {
  return (
    <div
      className="flex flex-col items-center gap-4 rounded-card border border-card-border bg-card px-4 py-12 text-center"
      data-testid="favorites-empty"
    >
      <HeartIcon className="h-12 w-12 text-icon" />
      <p className="text-lg font-semibold">Você ainda não tem favoritos.</p>
      <p className="text-product-description">
        Toque em “Favoritar” na página de um produto para guardá-lo aqui.
      </p>
      <Link to="/products" className="btn btn-primary">
        Ver produtos
      </Link>
    </div>
  );
}

export default function Favorites({ loaderData }: Route.ComponentProps) {
  const ids = useWishlistIds();
  const fetcher = useFetcher<typeof loader>();
  const loaded = fetcher.data ?? loaderData;
  const wanted = ids?.slice(0, MAX_IDS) ?? [];
  // Ask for favourites the server has not described yet (the first visit, another tab's heart).
  const missing = wanted.filter((id) => !loaded.requested.includes(id));
  const query = missing.length > 0 ? wanted.join(',') : null;

  useEffect(() => {
    if (query !== null) fetcher.load(`/favoritos?ids=${encodeURIComponent(query)}`);
    // fetcher.load is stable enough for this; the query alone decides when to ask again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);

  const byId = new Map(loaded.products.map((entry) => [entry.product.id, entry]));
  // Newest favourite first, and one removed here disappears at once.
  const shown = wanted.flatMap((id) => byId.get(id) ?? []);

  return (
    <div className="section-spacing mx-auto max-w-store px-4">
      <h1 className="mb-6 text-2xl sm:text-3xl">Favoritos</h1>
      <noscript>
        <p className="rounded-card border border-card-border bg-card p-4">
          Seus favoritos ficam guardados neste navegador e precisam de JavaScript para aparecer.
          Ative o JavaScript ou{' '}
          <Link to="/products" className="text-link underline">
            veja todos os produtos
          </Link>
          .
        </p>
      </noscript>
      <div role="status" className="text-product-description">
        {query !== null && shown.length === 0 ? <p>Carregando seus favoritos…</p> : null}
      </div>
      {ids === null ? null : ids.length === 0 ? (
        <EmptyFavorites />
      ) : shown.length === 0 && query === null ? (
        <EmptyFavorites />
      ) : (
        <ul
          className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4"
          data-testid="favorites-list"
        >
          {shown.map(({ product, rating }) => (
            <li key={product.id} className="flex flex-col gap-2">
              <div className="flex-1">
                <ProductCard product={product} rating={rating} />
              </div>
              <button
                type="button"
                className="btn btn-outline w-full px-2 text-sm"
                onClick={() => toggleWishlist(product.id)}
                data-testid="favorite-remove"
              >
                <HeartIcon className="h-5 w-5 shrink-0 text-red-700" filled />
                Remover
                <span className="sr-only"> {product.name} dos favoritos</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
