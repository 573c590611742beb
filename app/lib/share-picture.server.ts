import { createHash } from 'node:crypto';

import sharp from 'sharp';

import { OG_IMAGE } from './seo';

// Drawing a picture takes sharp tens of milliseconds of CPU, and crawlers ask for the same few
// again and again: the last pictures drawn are kept, by the content of their source, so a file
// replaced or deleted is never answered from here.
const MAX_PICTURES = 32;
const pictures = new Map<string, Promise<Uint8Array>>();

/** `bytes` (any image sharp reads) as the share picture: a 1200×630 JPEG. */
export function sharePicture(bytes: Uint8Array): Promise<Uint8Array> {
  const key = createHash('sha256').update(bytes).digest('base64');
  const kept = pictures.get(key);
  if (kept) {
    pictures.delete(key);
    pictures.set(key, kept);
    return kept;
  }
  const drawn = draw(bytes);
  pictures.set(key, drawn);
  if (pictures.size > MAX_PICTURES) pictures.delete(pictures.keys().next().value!);
  drawn.catch(() => {
    if (pictures.get(key) === drawn) pictures.delete(key);
  });
  return drawn;
}

/** The whole image centred on white, drawn from the vector for an SVG so it stays sharp. */
async function draw(bytes: Uint8Array): Promise<Uint8Array> {
  const {
    width = OG_IMAGE.width,
    height = OG_IMAGE.height,
    format,
  } = await sharp(bytes).metadata();
  // An SVG is drawn at 72 dpi unless told: at the density that makes it cover the picture.
  const scale = Math.max(OG_IMAGE.width / width, OG_IMAGE.height / height, 1);
  const jpeg = await sharp(bytes, format === 'svg' ? { density: 72 * scale } : {})
    .resize(OG_IMAGE.width, OG_IMAGE.height, { fit: 'contain', background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85, mozjpeg: true })
    .toBuffer();
  return new Uint8Array(jpeg);
}
