import { Link } from 'react-router';

import { catalogSearch, pageWindow, type CatalogState, type CatalogView } from '~/modules/catalog';

const base = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-button px-3';

/** Previous/next and page numbers; every link keeps the filters, the order and the view. */
export function CatalogPagination({
  query,
  view,
  pageCount,
}: {
  query: CatalogState & { page: number };
  view: CatalogView;
  pageCount: number;
}) {
  if (pageCount <= 1) return null;
  const href = (page: number) => `/products${catalogSearch({ ...query, page }, view)}`;
  const { page } = query;
  return (
    <nav aria-label="Paginação" data-testid="catalog-pagination">
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          {page > 1 ? (
            <Link to={href(page - 1)} rel="prev" className={`${base} btn-outline`}>
              Anterior
            </Link>
          ) : (
            <span aria-disabled="true" className={`${base} text-product-description`}>
              Anterior
            </span>
          )}
        </li>
        {pageWindow(page, pageCount).map((n, index) =>
          n === null ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={href(n)}
                aria-label={`Página ${n}`}
                aria-current={n === page ? 'page' : undefined}
                className={`${base} ${n === page ? 'btn-primary font-semibold' : 'btn-outline'}`}
              >
                {n}
              </Link>
            </li>
          ),
        )}
        <li>
          {page < pageCount ? (
            <Link to={href(page + 1)} rel="next" className={`${base} btn-outline`}>
              Próxima
            </Link>
          ) : (
            <span aria-disabled="true" className={`${base} text-product-description`}>
              Próxima
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
