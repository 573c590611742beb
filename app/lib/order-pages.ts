import type { HeadersArgs, UIMatch } from 'react-router';

/**
 * The headers of a page that shows a shopper's order: no cache keeps it, neither a shared one nor
 * the browser's, for its document and its `.data` answers alike (the page cache keeps nothing
 * marked so either). A 429's Retry-After reaches the browser.
 */
export function orderPageHeaders({ actionHeaders, loaderHeaders }: HeadersArgs): Headers {
  const headers = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  headers.set('Cache-Control', 'private, no-store');
  return headers;
}

/**
 * The `handle` of a page that shows an order's customer, address or items: a document that opens
 * on it carries none of the store's third-party tags (root.tsx), whatever the consent.
 */
export const ORDER_PAGE_HANDLE = { showsOrder: true } as const;

export function showsOrder(matches: UIMatch[]): boolean {
  return matches.some(
    (match) => (match.handle as { showsOrder?: boolean } | undefined)?.showsOrder === true,
  );
}
