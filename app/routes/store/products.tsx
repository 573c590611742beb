import { useEffect, useRef } from 'react';
import { Form, Link, useNavigate, useNavigation } from 'react-router';

import { keepDataAfter } from '~/lib/revalidation';
import { CatalogPagination } from '~/components/store/catalog-pagination';
import { ProductCard } from '~/components/store/product-card';
import { withRatings } from '~/flows/rated-products.server';
import { seoMeta } from '~/lib/seo';
import { seoContext, useSettings } from '~/lib/store-data';
import {
  catalogSearch,
  formatReais,
  lastPageNotice,
  parseCatalogParams,
  SORT_LABELS,
  SORT_PARAMS,
  type CatalogSort,
  type CatalogView,
} from '~/modules/catalog';
import { listCategories, searchProducts } from '~/modules/catalog/index.server';

import type { Route } from './+types/products';

export async function loader({ request, context }: Route.LoaderArgs) {
  const [settings, categories] = await Promise.all([
    context.settings.get(),
    listCategories(context.db),
  ]);
  const { query, notices, view } = parseCatalogParams(new URL(request.url).searchParams, {
    categories,
    perPage: settings.products_per_page,
  });
  const result = await searchProducts(context.db, query);
  if (query.page > result.pageCount) notices.push(lastPageNotice(query.page, result.pageCount));
  return {
    categories,
    query: { ...query, page: result.page },
    view,
    notices,
    total: result.total,
    pageCount: result.pageCount,
    products: await withRatings(context.db, result.products, settings.enable_reviews),
  };
}

export const shouldRevalidate = keepDataAfter('/cart', '/preferences');

export function meta({ matches }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), { title: 'Produtos', path: '/products' });
}

const TYPED_FIELDS = new Set(['q', 'min', 'max']);
const TYPING_PAUSE_MS = 500;

/**
 * The filter values as a URL: blank fields and the default order are left out, so a link
 * someone shares reads `/products?q=fone` rather than a row of empty parameters.
 */
function filterUrl(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (typeof value !== 'string' || value.trim() === '') continue;
    if (name === 'ordem' && value === SORT_PARAMS.newest) continue;
    params.set(name, value.trim());
  }
  const search = params.toString();
  return search ? `/products?${search}` : '/products';
}

/** A price typed the Brazilian way ("1.234,56"); the server reads and corrects it. */
function PriceField({ name, label, value }: { name: string; label: string; value?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`catalog-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={`catalog-${name}`}
        name={name}
        inputMode="decimal"
        autoComplete="off"
        defaultValue={value}
        placeholder="0,00"
        maxLength={20}
        className="field"
      />
    </div>
  );
}

function Filters({
  categories,
  query,
  view,
}: {
  categories: { id: string; name: string }[];
  query: Route.ComponentProps['loaderData']['query'];
  view: CatalogView;
}) {
  const settings = useSettings();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const typing = useRef(false);

  const values: Record<string, string> = {
    q: query.q ?? '',
    categoria: query.categoryId ?? '',
    min: query.minCents === undefined ? '' : formatReais(query.minCents),
    max: query.maxCents === undefined ? '' : formatReais(query.maxCents),
    ordem: SORT_PARAMS[query.sort],
  };
  const valuesKey = JSON.stringify(values);

  // Back/forward and corrected values (a swapped price range) change the URL under the form;
  // the fields follow it, except one the shopper is still typing in.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    for (const [name, value] of Object.entries(JSON.parse(valuesKey) as Record<string, string>)) {
      const field = form.elements.namedItem(name);
      if (
        (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) &&
        !(typing.current && field === document.activeElement)
      ) {
        field.value = value;
      }
    }
  }, [valuesKey]);

  useEffect(() => () => clearTimeout(typingTimer.current), []);

  function apply(replace: boolean) {
    clearTimeout(typingTimer.current);
    typing.current = false;
    if (formRef.current)
      navigate(filterUrl(formRef.current), { replace, preventScrollReset: true });
  }

  return (
    <Form
      ref={formRef}
      method="get"
      action="/products"
      role="search"
      aria-label="Filtrar produtos"
      className="grid grid-cols-2 gap-3 rounded-card border border-card-border bg-card p-4 md:grid-cols-6 md:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        apply(false);
      }}
      onChange={(event) => {
        const target: EventTarget = event.target;
        if (target instanceof HTMLSelectElement) {
          apply(false);
        } else if (target instanceof HTMLInputElement && TYPED_FIELDS.has(target.name)) {
          clearTimeout(typingTimer.current);
          // Refining a search already in the URL replaces that entry, so Back does not
          // step through every pause in typing.
          const replace = values[target.name] !== '';
          typing.current = true;
          typingTimer.current = setTimeout(() => apply(replace), TYPING_PAUSE_MS);
        }
      }}
    >
      <div className="col-span-2 flex flex-col gap-1">
        <label htmlFor="catalog-q" className="text-sm font-medium">
          Buscar
        </label>
        <input
          id="catalog-q"
          type="search"
          name="q"
          defaultValue={values.q}
          placeholder={settings.search_placeholder_text}
          maxLength={200}
          className="field"
        />
      </div>
      <div className="col-span-2 flex flex-col gap-1 md:col-span-1">
        <label htmlFor="catalog-category" className="text-sm font-medium">
          Categoria
        </label>
        <select
          id="catalog-category"
          name="categoria"
          defaultValue={values.categoria}
          className="field"
        >
          <option value="">Todas as categorias</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
      </div>
      <PriceField name="min" label="Preço mínimo (R$)" value={values.min} />
      <PriceField name="max" label="Preço máximo (R$)" value={values.max} />
      <div className="col-span-2 flex flex-col gap-1 md:col-span-1">
        <label htmlFor="catalog-sort" className="text-sm font-medium">
          Ordenar por
        </label>
        <select id="catalog-sort" name="ordem" defaultValue={values.ordem} className="field">
          {(Object.keys(SORT_PARAMS) as CatalogSort[]).map((sort) => (
            <option key={sort} value={SORT_PARAMS[sort]}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
      {view === 'list' ? <input type="hidden" name="vista" value="lista" /> : null}
      <div className="col-span-2 flex flex-wrap gap-2 md:col-span-6">
        <button type="submit" className="btn btn-primary">
          {settings.filter_text}
        </button>
        <Link to="/products" className="btn btn-outline">
          {settings.clear_filters_text}
        </Link>
      </div>
    </Form>
  );
}

function ViewToggle({
  query,
  view,
}: {
  query: Route.ComponentProps['loaderData']['query'];
  view: CatalogView;
}) {
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
  const { categories, query, view, notices, total, pageCount, products } = loaderData;
  const settings = useSettings();
  const loading = useNavigation().state === 'loading';

  return (
    <div className="section-spacing mx-auto flex max-w-store flex-col gap-6 px-4">
      <h1 className="text-3xl font-bold">Produtos</h1>
      <Filters categories={categories} query={query} view={view} />
      <div role="status" data-testid="catalog-notices">
        {notices.length > 0 ? (
          <ul className="flex flex-col gap-1 rounded-card border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            {notices.map((notice) => (
              <li key={notice}>{notice}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p data-testid="catalog-count" aria-live="polite">
          {`${total} produto(s) encontrado(s)`}
        </p>
        <ViewToggle query={query} view={view} />
      </div>
      <section aria-label="Resultados" aria-busy={loading} className={loading ? 'opacity-70' : ''}>
        {products.length === 0 ? (
          <p className="rounded-card border border-card-border bg-card p-6 text-center">
            {settings.no_products_message}
          </p>
        ) : (
          <ul
            className={
              view === 'list'
                ? 'flex flex-col gap-4'
                : 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4'
            }
            data-testid="catalog-results"
            data-view={view}
          >
            {products.map(({ product, rating }) => (
              <li key={product.id}>
                <ProductCard product={product} rating={rating} layout={view} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <CatalogPagination query={query} view={view} pageCount={pageCount} />
    </div>
  );
}
