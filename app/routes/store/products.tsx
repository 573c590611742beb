import { Link, redirect, useNavigation } from 'react-router';

import { CatalogFilters, CatalogFiltersButton } from '~/components/store/catalog-filters';
import { FilterChips } from '~/components/store/filter-chips';
import { PRIORITY_CARDS, ProductCard } from '~/components/store/product-card';
import { seoContext, useSettings } from '~/components/store/store-data';
import { Pagination } from '~/components/ui/pagination';
import { HydrationSlice } from '~/components/ui/hydration-slice';
import { searchRatedProducts } from '~/flows/rated-products.server';
import { formatInteger } from '~/lib/money';
import { keepDataAfter } from '~/lib/revalidation';
import { seoMeta } from '~/lib/seo';
import {
  CATALOGUE_MAX_PAGE,
  catalogSearch,
  pageNotice,
  parseCatalogParams,
  type CatalogParams,
  type CatalogView,
} from '~/modules/catalog';
import { listCategories, optionFacets, suggestSearch } from '~/modules/catalog/index.server';

import type { Route } from './+types/products';

export async function loader({ request, context }: Route.LoaderArgs) {
  const [settings, categories] = await Promise.all([
    context.settings.get(),
    listCategories(context.readDb, {}, context.changes),
  ]);
  const { query, notices, view, redirectSearch } = parseCatalogParams(
    new URL(request.url).searchParams,
    { categories, perPage: settings.products_per_page },
  );
  // An old link names the category by its id: the same page, at its address with the slug.
  if (redirectSearch !== undefined) throw redirect(`/products${redirectSearch}`, 301);
  const [result, facets] = await Promise.all([
    searchRatedProducts(
      context.readDb,
      context.changes,
      { ...query, maxPage: CATALOGUE_MAX_PAGE },
      settings.enable_reviews,
    ),
    optionFacets(context.readDb, query, context.changes),
  ]);
  const notice = pageNotice(query.page, result, query.perPage);
  if (notice) notices.push(notice);
  // A near miss ('tecaldo') offers the search it was probably meant to be.
  const suggestion =
    result.total === 0 && query.q
      ? await suggestSearch(context.readDb, query, context.changes)
      : undefined;
  return {
    categories,
    facets,
    query: { ...query, page: result.page },
    view,
    notices,
    total: result.total,
    pageCount: result.pageCount,
    products: result.products,
    suggestion: suggestion ?? null,
  };
}

export const shouldRevalidate = keepDataAfter('/cart', '/preferences');

/** The page's heading and title: what was searched for, or the whole catalogue. */
function heading(q: string | undefined): string {
  return q ? `Resultados para “${q}”` : 'Produtos';
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), { title: heading(loaderData?.query.q), path: '/products' });
}

function countText(total: number, noProducts: string): string {
  if (total === 0) return noProducts;
  const n = formatInteger(total);
  return total === 1 ? `${n} produto encontrado` : `${n} produtos encontrados`;
}

function ViewToggle({ query, view }: { query: CatalogParams['query']; view: CatalogView }) {
  const options: { view: CatalogView; label: string }[] = [
    { view: 'grid', label: 'Grade' },
    { view: 'list', label: 'Lista' },
  ];
  return (
    <nav aria-label="Visualização" className="flex gap-1">
      {options.map((option) => {
        const active = option.view === view;
        return (
          <Link
            key={option.view}
            to={`/products${catalogSearch(query, option.view)}`}
            preventScrollReset
            aria-current={active ? 'true' : undefined}
            className={`btn px-3 text-sm ${active ? 'btn-primary' : 'btn-outline'}`}
          >
            {option.label}
          </Link>
        );
      })}
    </nav>
  );
}

export default function ProductsPage({ loaderData }: Route.ComponentProps) {
  const { categories, facets, query, view, notices, total, pageCount, products, suggestion } =
    loaderData;
  const settings = useSettings();
  const loading = useNavigation().state === 'loading';
  const filtered =
    query.q !== undefined ||
    query.categoryId !== undefined ||
    query.minCents !== undefined ||
    query.maxCents !== undefined ||
    query.options !== undefined;

  return (
    <div className="section-spacing mx-auto flex max-w-store flex-col gap-4 px-4">
      <h1 className="text-3xl font-bold break-words">{heading(query.q)}</h1>
      <div role="status" data-testid="catalog-notices">
        {notices.length > 0 ? (
          <ul className="flex flex-col gap-1 rounded-card border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            {notices.map((notice) => (
              <li key={notice}>{notice}</li>
            ))}
          </ul>
        ) : null}
      </div>
      {/* Below 1024 px the filters are a sheet (closed, out of the reading order) and the
          results come first; from 1024 px the filters stand in the left column. */}
      <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)] lg:items-start">
        {/* The sheet and its button hydrate on their own: a tap on one takes no more (ADR 023). */}
        <HydrationSlice>
          <CatalogFilters categories={categories} facets={facets} query={query} view={view} />
        </HydrationSlice>
        <div className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p data-testid="catalog-count" aria-live="polite" className="font-medium">
              {countText(total, settings.no_products_message)}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <HydrationSlice>
                <CatalogFiltersButton query={query} />
              </HydrationSlice>
              {total > 0 ? (
                <HydrationSlice>
                  <ViewToggle query={query} view={view} />
                </HydrationSlice>
              ) : null}
            </div>
          </div>
          <FilterChips query={query} categories={categories} view={view} />
          {/* The results hydrate apart from the filters above them: a tap on those takes less. */}
          <HydrationSlice>
            <section
              aria-labelledby="catalog-results-title"
              aria-busy={loading}
              className={loading ? 'opacity-70' : ''}
            >
              {/* The cards' names are h3: this keeps the outline whole where the filters' h2 is
                out of sight (phones). */}
              <h2 id="catalog-results-title" className="sr-only">
                Resultados
              </h2>
              {products.length === 0 ? (
                <div className="flex flex-col items-center gap-3 rounded-card border border-card-border bg-card p-6 text-center">
                  {suggestion ? (
                    <p className="text-lg" data-testid="catalog-suggestion">
                      Você quis dizer{' '}
                      <Link
                        to={`/products${catalogSearch({ ...query, q: suggestion, page: 1 }, view)}`}
                        className="font-semibold text-link underline"
                      >
                        {suggestion}
                      </Link>
                      ?
                    </p>
                  ) : null}
                  <p>
                    {filtered
                      ? 'Confira a grafia, use menos palavras ou tire algum filtro.'
                      : 'A loja ainda não tem produtos à venda.'}
                  </p>
                  {filtered ? (
                    <Link to="/products" className="btn btn-outline">
                      Ver todos os produtos
                    </Link>
                  ) : null}
                </div>
              ) : (
                <ul
                  className={
                    view === 'list'
                      ? 'flex flex-col gap-4'
                      : 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4'
                  }
                  data-testid="catalog-results"
                  data-view={view}
                >
                  {products.map(({ product, rating }, index) => (
                    <li key={product.id}>
                      <ProductCard
                        product={product}
                        rating={rating}
                        layout={view}
                        priority={index < PRIORITY_CARDS}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <Pagination
              look="store"
              page={query.page}
              pageCount={pageCount}
              href={(page) => `/products${catalogSearch({ ...query, page }, view)}`}
            />
          </HydrationSlice>
        </div>
      </div>
    </div>
  );
}
