export { renderContentPage, type RenderedContentPage } from './content.server';
export {
  SITEMAP_MAX_PRODUCTS,
  robotsTxt,
  sitemapXml,
  storeSitemapEntries,
  type SitemapEntry,
} from './crawl';
export { renderMarkdown } from './markdown.server';
