import { productPath } from '~/modules/catalog';

import { CONTENT_PAGE_SLUGS } from './pages';

// What search engines read: /sitemap.xml and /robots.txt.

export interface SitemapEntry {
  /** Site-relative path, such as "/product/…". */
  path: string;
  lastModified?: Date;
}

/** A sitemap holds at most 50,000 URLs; the fixed pages take seven of them. */
export const SITEMAP_MAX_PRODUCTS = 49_993;

/** Home, the catalogue, the content pages and every product page given. */
export function storeSitemapEntries(
  products: readonly { slug: string; updatedAt: Date }[],
): SitemapEntry[] {
  return [
    { path: '/' },
    { path: '/products' },
    ...CONTENT_PAGE_SLUGS.map((slug) => ({ path: `/${slug}` })),
    ...products.map((product) => ({
      path: productPath(product),
      lastModified: product.updatedAt,
    })),
  ];
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
}

export function sitemapXml(origin: string, entries: readonly SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const lastmod = entry.lastModified
      ? `<lastmod>${entry.lastModified.toISOString()}</lastmod>`
      : '';
    return `<url><loc>${escapeXml(origin + entry.path)}</loc>${lastmod}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Pages of one shopper's own session: nothing there for a search engine. */
const PRIVATE_PATHS = [
  '/cart',
  '/checkout',
  '/admin',
  '/order-confirmation',
  '/payment-callback',
  '/thank-you',
  '/historico',
  '/purchasehistory',
];

/** Follows the store's robots setting: "noindex" or "none" keeps every crawler out. */
export function robotsTxt(origin: string, metaRobots: string): string {
  const tokens = metaRobots
    .toLowerCase()
    .split(',')
    .map((token) => token.trim());
  const closed = tokens.includes('noindex') || tokens.includes('none');
  const rules = closed ? ['Disallow: /'] : PRIVATE_PATHS.map((path) => `Disallow: ${path}`);
  return ['User-agent: *', ...rules, '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');
}
