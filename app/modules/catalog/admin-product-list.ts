import { parsePage, withPage } from '~/lib/pagination';

import { MAX_QUERY_LENGTH } from './catalog-params';

export const ADMIN_PRODUCTS_PER_PAGE = 20;

/** Units at or below which the list flags stock as low (SPEC §9's yellow), per product and variant. */
export const LOW_STOCK_MAX = 10;

/**
 * The admin list's query string (`q`, `pagina`). Nothing in it can fail the page: a value that
 * makes no sense falls back to the default.
 */
export function parseAdminProductParams(searchParams: URLSearchParams): {
  q: string;
  page: number;
} {
  // Control characters are no text to search for (and PostgreSQL refuses a NUL in a string).
  const q = (searchParams.get('q') ?? '')
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_QUERY_LENGTH)
    .trim();
  return { q, page: parsePage(searchParams) };
}

/** The list's address for a search and page (defaults left out). */
export function adminProductListPath({ q, page }: { q: string; page: number }): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  const search = withPage(params, page).toString();
  return search ? `/admin/products?${search}` : '/admin/products';
}
