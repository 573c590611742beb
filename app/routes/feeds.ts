import { isFeedFile, productFeed } from '~/flows/product-feeds.server';

import type { Route } from './+types/feeds';

/** /feeds/google.xml and /feeds/meta.csv: the catalogue for Google and Meta (issue 39). */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  if (!isFeedFile(params.file)) {
    throw new Response('Arquivo não encontrado.', { status: 404 });
  }
  const feed = await productFeed(context, params.file);
  const headers = new Headers({
    'Content-Type': feed.type,
    'Cache-Control': 'public, max-age=300',
    ETag: feed.etag,
    Vary: 'Accept-Encoding',
  });
  if (request.headers.get('If-None-Match') === feed.etag) {
    return new Response(null, { status: 304, headers });
  }
  if (/\bgzip\b/.test(request.headers.get('Accept-Encoding') ?? '')) {
    headers.set('Content-Encoding', 'gzip');
    return new Response(feed.gzipped, { headers });
  }
  return new Response(feed.body, { headers });
}
