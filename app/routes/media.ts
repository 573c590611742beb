import { parseMediaFileName } from '~/modules/media';
import { readMediaFile } from '~/modules/media/index.server';

import type { Route } from './+types/media';

const NOT_FOUND = () =>
  new Response('Imagem não encontrada.', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });

/**
 * An uploaded image's WebP file (`/media/<uuid>-<width>.webp`). Its bytes never change under a
 * name (a new upload gets a new id), so browsers and proxies may keep it for a year.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const media = parseMediaFileName(params.file);
  if (!media) return NOT_FOUND();
  const etag = `"${media.id}-${media.width}"`;
  const headers = {
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: etag,
  };
  // The name is the content's: a browser holding this ETag holds these very bytes, so it is
  // answered before the database is read.
  if (
    request.headers
      .get('If-None-Match')
      ?.split(/\s*,\s*/)
      .includes(etag)
  ) {
    return new Response(null, { status: 304, headers });
  }
  const file = await readMediaFile(context.db, media.id, media.width);
  if (!file) return NOT_FOUND();
  // The driver's own bytes, sent as they are (never shared memory, whatever the type says).
  return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      ...headers,
      'Content-Type': file.contentType,
      'Content-Length': String(file.bytes.byteLength),
    },
  });
}
