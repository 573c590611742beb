import { listSitemapProducts } from '~/modules/catalog/index.server';
import {
  SITEMAP_MAX_PRODUCTS,
  sitemapXml,
  storeSitemapEntries,
} from '~/modules/content/index.server';

import type { Route } from './+types/sitemap';

export async function loader({ context }: Route.LoaderArgs) {
  const products = await listSitemapProducts(context.readDb, { limit: SITEMAP_MAX_PRODUCTS });
  const xml = sitemapXml(context.origin, storeSitemapEntries(products));
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    },
  });
}
