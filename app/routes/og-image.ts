import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { OG_IMAGE, ogImageSource } from '~/lib/seo';
import { sharePicture } from '~/lib/share-picture.server';
import { parseMediaPath } from '~/modules/media';
import { readMediaFile } from '~/modules/media/index.server';

import type { Route } from './+types/og-image';

const IMAGE_EXTENSIONS = new Set(['.svg', '.png', '.jpg', '.jpeg', '.webp', '.gif', '.avif']);
// Uploads never change under a name; the files shipped in public/ may with a new release.
const MEDIA_CACHE = 'public, max-age=31536000, immutable';
const PUBLIC_CACHE = 'public, max-age=604800';

const NOT_FOUND = () =>
  new Response('Imagem não encontrada.', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });

/** The public/ folder, found from this module both in the sources and in the server build. */
function findPublicFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'public');
    if (existsSync(join(candidate, 'favicon.svg'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the public/ folder');
    dir = parent;
  }
}

let publicFolder: string | undefined;

/** An image shipped in public/ ("/sample/a.svg"), never anything outside it. */
async function readPublicImage(path: string): Promise<Uint8Array | null> {
  publicFolder ??= findPublicFolder();
  const file = join(publicFolder, path);
  if (relative(publicFolder, file).startsWith('..')) return null;
  if (!IMAGE_EXTENSIONS.has(extname(file).toLowerCase())) return null;
  try {
    return await readFile(file);
  } catch {
    return null;
  }
}

/** A site image as a 1200×630 JPEG share picture (`/og/<image path>.jpg`, see ogImagePath). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const source = ogImageSource(params['*'] ?? '');
  if (!source) return NOT_FOUND();
  const media = parseMediaPath(source);
  const bytes = media
    ? (await readMediaFile(context.db, media.id, media.width))?.bytes
    : await readPublicImage(source);
  if (!bytes) return NOT_FOUND();

  const jpeg = await sharePicture(bytes);
  return new Response(jpeg.slice(), {
    headers: {
      'Content-Type': OG_IMAGE.type,
      'Content-Length': String(jpeg.byteLength),
      'Cache-Control': media ? MEDIA_CACHE : PUBLIC_CACHE,
    },
  });
}
