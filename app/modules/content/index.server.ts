export { renderContentPage } from './content.server';
export { SITEMAP_MAX_PRODUCTS, robotsTxt, sitemapXml, storeSitemapEntries } from './crawl';
