import type { HeadersArgs, UIMatch } from 'react-router';

/**
 * The headers of a page that shows a shopper's order or what a private link opened (an order's
 * pages, a restock alert's confirmation): no cache keeps it, neither a shared one nor
 * the browser's, for its document and its `.data` answers alike (the page cache keeps nothing
 * marked so either). A 429's Retry-After reaches the browser.
 */
export function privatePageHeaders({ actionHeaders, loaderHeaders }: HeadersArgs): Headers {
  const headers = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  headers.set('Cache-Control', 'private, no-store');
  return headers;
}

/**
 * The `handle` of a page that shows an order's customer, address or items, or that an e-mailed
 * link with a key opens: a document that opens on it carries none of the store's third-party
 * tags (root.tsx), whatever the consent, since they record the page's address and content.
 */
export const PRIVATE_PAGE_HANDLE = { isPrivatePage: true } as const;

export function isPrivatePage(matches: UIMatch[]): boolean {
  return matches.some(
    (match) => (match.handle as { isPrivatePage?: boolean } | undefined)?.isPrivatePage === true,
  );
}
