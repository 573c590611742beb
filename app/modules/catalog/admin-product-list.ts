import { MAX_QUERY_LENGTH } from './catalog-params';

export const ADMIN_PRODUCTS_PER_PAGE = 20;

/**
 * The admin list's query string (`q`, `page`). Nothing in it can fail the page: a value that
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
  return { q, page: parseAdminPage(searchParams.get('page')) };
}

/**
 * A page number from an admin list's query string (the products' `page`, the reviews'
 * `pagina`); anything else is the first page. A page past the last is the lister's to clamp.
 */
export function parseAdminPage(text: string | null): number {
  const value = text?.trim() ?? '';
  return /^\d{1,9}$/.test(value) ? Math.max(1, Number(value)) : 1;
}

/** The list's address for a search and page (defaults left out). */
export function adminProductListPath({ q, page }: { q: string; page: number }): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `/admin/products?${search}` : '/admin/products';
}
