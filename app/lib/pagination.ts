import { redirect } from 'react-router';

/** The query parameter every paged list reads and writes: `?pagina=2`. */
export const PAGE_PARAM = 'pagina';

/** The admin lists' former parameter: links and bookmarks with it are redirected. */
const FORMER_PAGE_PARAM = 'page';

/** The page a `pagina` value names, or null when it names none ('0', '-1', 'abc', '1e9'). */
export function pageNumber(text: string | null | undefined): number | null {
  const value = text?.trim() ?? '';
  return /^\d{1,9}$/.test(value) && Number(value) >= 1 ? Number(value) : null;
}

/** The page a list's URL asks for; anything but a page number is the first page. */
export function parsePage(params: URLSearchParams): number {
  return pageNumber(params.get(PAGE_PARAM)) ?? 1;
}

/** `params` asking for `page` (the first page left out, so every page has one address). */
export function withPage(params: URLSearchParams, page: number): URLSearchParams {
  if (page > 1) params.set(PAGE_PARAM, String(page));
  else params.delete(PAGE_PARAM);
  return params;
}

/**
 * The same address with `?page=` renamed `?pagina=`, the other parameters kept in their order,
 * for an old link; null for an address without it. A `pagina` already there wins.
 */
function formerPageRedirect(url: URL): string | null {
  if (!url.searchParams.has(FORMER_PAGE_PARAM)) return null;
  const params = new URLSearchParams();
  const page = url.searchParams.has(PAGE_PARAM) ? null : url.searchParams.get(FORMER_PAGE_PARAM);
  for (const [key, value] of url.searchParams) {
    if (key !== FORMER_PAGE_PARAM) params.append(key, value);
    else if (page !== null && !params.has(PAGE_PARAM)) params.append(PAGE_PARAM, page);
  }
  const search = params.toString();
  return `${url.pathname}${search ? `?${search}` : ''}`;
}

/** For a list's loader: an old `?page=` link is answered with a permanent redirect. */
export function redirectFormerPage(request: Request): void {
  const moved = formerPageRedirect(new URL(request.url));
  if (moved) throw redirect(moved, 301);
}

/**
 * Page numbers for a pager: the first, the last, and two either side of the current page;
 * `null` marks a gap. Keeps the pager short with thousands of pages.
 */
export function pageWindow(page: number, pageCount: number): (number | null)[] {
  const shown = [1, page - 2, page - 1, page, page + 1, page + 2, pageCount]
    .filter((n, index, all) => n >= 1 && n <= pageCount && all.indexOf(n) === index)
    .sort((a, b) => a - b);
  const pages: (number | null)[] = [];
  for (const n of shown) {
    const previous = pages.at(-1);
    // A gap of a single page shows that page instead of an ellipsis.
    if (typeof previous === 'number' && n - previous === 2) pages.push(previous + 1);
    else if (typeof previous === 'number' && n - previous > 2) pages.push(null);
    pages.push(n);
  }
  return pages;
}
