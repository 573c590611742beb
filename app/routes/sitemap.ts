import { listSitemapProducts } from '~/modules/catalog/index.server';
import {
  publicOrigin,
  SITEMAP_MAX_PRODUCTS,
  sitemapXml,
  storeSitemapEntries,
} from '~/modules/content/index.server';

import type { Route } from './+types/sitemap';

export async function loader({ request, context }: Route.LoaderArgs) {
  const [settings, products] = await Promise.all([
    context.settings.get(),
    listSitemapProducts(context.db, { limit: SITEMAP_MAX_PRODUCTS }),
  ]);
  const xml = sitemapXml(publicOrigin(settings, request.url), storeSitemapEntries(products));
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    },
  });
}
