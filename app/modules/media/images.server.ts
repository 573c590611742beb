import { createHash } from 'node:crypto';

import { and, eq, inArray, max } from 'drizzle-orm';
import sharp, { type Metadata, type SharpOptions } from 'sharp';

import type { Db } from '~/db/database.server';
import { UploadedFile } from '~/lib/uploads.server';
import { isUuid } from '~/lib/uuid';

import {
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_RATIO,
  MAX_IMAGE_SIDE,
  MAX_IMAGES_PER_UPLOAD,
  MEDIA_MESSAGES,
} from './limits';
import { FAVICON_SIZE, MEDIA_WIDTHS, mediaPath, mediaWidths } from './paths';
import { media, mediaVariants } from './schema';

/** An upload ready to be written: its WebP files, or nothing new when the same image is stored. */
export interface PreparedImage {
  id: string;
  /** The address of its largest file, for the product's image list. */
  url: string;
  /** Null when these exact bytes were uploaded before (the stored files are reused). */
  files: {
    originalName: string;
    width: number;
    height: number;
    variants: { width: number; bytes: Buffer; contentType?: string }[];
  } | null;
}

export type PrepareResult = { ok: true; images: PreparedImage[] } | { ok: false; error: string };

const WEBP_QUALITY = 80;
const SHARP_OPTIONS: SharpOptions = {
  autoOrient: true,
  failOn: 'error',
  limitInputPixels: MAX_IMAGE_PIXELS,
};

// Uploads are each converted once: libvips's cache of recent operations (50 MB by default)
// would only hold on to their pixels.
sharp.cache(false);

/**
 * The same bytes always get the same id (a SHA-256 shaped as a UUID, version 8): sending a form
 * twice, or one photo for two products, stores the image once and gives the same URL. The file
 * is read a piece at a time (an upload on disk stays there).
 */
async function mediaIdOfFile(file: File, use = ''): Promise<string> {
  const hash = createHash('sha256');
  // A favicon made from a logo's file is another image than the logo: another id.
  if (use) hash.update(`${use}:`);
  for await (const chunk of file.stream()) hash.update(chunk);
  return idFromHash(hash.digest());
}

function idFromHash(hash: Buffer): string {
  hash[6] = (hash[6]! & 0x0f) | 0x80;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The file's name as the browser sent it, without control characters: a NUL is refused by
 * PostgreSQL's text, and none of them means anything in a name staff read.
 */
function cleanName(file: File, max: number): string {
  const name = file.name.replace(/\p{Cc}/gu, '').trim();
  // Cut whole characters only: half an emoji is no text.
  return name.slice(0, max).replace(/[\ud800-\udbff]$/, '');
}

function quotedName(file: File): string {
  const name = cleanName(file, 61) || 'sem nome';
  return `"${name.length > 60 ? `${name.slice(0, 60)}…` : name}"`;
}

/** Whether sharp's metadata names a format we take (AVIF is HEIF with AV1; HEIC is refused). */
function acceptedFormat(metadata: Metadata): boolean {
  if (metadata.format === 'heif') return metadata.compression === 'av1';
  return ['jpeg', 'png', 'webp', 'gif'].includes(metadata.format);
}

/** What sharp reads: an upload streamed to disk from its file, any other File from memory. */
async function imageInput(file: File): Promise<string | Uint8Array> {
  return file instanceof UploadedFile ? file.path : new Uint8Array(await file.arrayBuffer());
}

type Header = { ok: true; width: number; height: number } | { ok: false; error: string };

/**
 * The image's size as its header states it (sharp's metadata reads no pixels), checked against
 * the limits before anything is decoded; `width` and `height` are after its EXIF orientation.
 */
async function readHeader(input: string | Uint8Array, name: string): Promise<Header> {
  let metadata: Metadata;
  try {
    // sharp applies limitInputPixels to the header too; here the limits below speak instead.
    metadata = await sharp(input, { ...SHARP_OPTIONS, limitInputPixels: false }).metadata();
  } catch {
    metadata = { format: undefined } as unknown as Metadata;
  }
  if (!acceptedFormat(metadata) || !metadata.width || !metadata.height) {
    return {
      ok: false,
      error: `O arquivo ${name} não é uma imagem aceita. ${MEDIA_MESSAGES.notAnImage}`,
    };
  }
  const { width, height } = metadata;
  const [short, long] = width < height ? [width, height] : [height, width];
  if (long > MAX_IMAGE_SIDE) {
    return { ok: false, error: MEDIA_MESSAGES.sideTooLong(name, width, height) };
  }
  if (long > short * MAX_IMAGE_RATIO) {
    return { ok: false, error: MEDIA_MESSAGES.tooNarrow(name, width, height) };
  }
  if (width * height > MAX_IMAGE_PIXELS) {
    return { ok: false, error: MEDIA_MESSAGES.tooManyPixels(name, width, height) };
  }
  return { ok: true, ...metadata.autoOrient };
}

/**
 * Checks uploaded files and turns each into WebP files at the MEDIA_WIDTHS (oriented by its EXIF
 * tag, never enlarged). Every header is checked before any image is decoded, so a refused one is
 * refused at once; then the images are converted one at a time. Nothing is written: the caller
 * stores them with `storeImages` in the same transaction as the product that uses them, so a
 * refused save leaves nothing behind.
 */
export async function prepareImages(db: Db, files: readonly File[]): Promise<PrepareResult> {
  if (files.length > MAX_IMAGES_PER_UPLOAD) return { ok: false, error: MEDIA_MESSAGES.tooMany };
  for (const file of files) {
    if (file.size > MAX_IMAGE_BYTES) {
      return { ok: false, error: `A imagem ${quotedName(file)} passa de 8 MB.` };
    }
  }
  const uploads = [];
  for (const file of files) {
    const input = await imageInput(file);
    const header = await readHeader(input, quotedName(file));
    if (!header.ok) return header;
    uploads.push({ file, input, header, id: await mediaIdOfFile(file) });
  }
  const stored = await storedWidths(
    db,
    uploads.map((upload) => upload.id),
  );
  const images: PreparedImage[] = [];
  for (const { file, input, header, id } of uploads) {
    const largest = stored.get(id);
    if (largest !== undefined) {
      images.push({ id, url: mediaPath(id, largest), files: null });
      continue;
    }
    const variants = await convert(input, header.width, header.height);
    if (!variants) {
      return {
        ok: false,
        error: `O arquivo ${quotedName(file)} não é uma imagem aceita. ${MEDIA_MESSAGES.notAnImage}`,
      };
    }
    const top = variants.at(-1)!.width;
    images.push({
      id,
      url: mediaPath(id, top),
      files: {
        originalName: cleanName(file, 255),
        width: header.width,
        height: header.height,
        variants,
      },
    });
    stored.set(id, top);
  }
  return { ok: true, images };
}

/**
 * An uploaded favicon, checked as a product photo is, made one square PNG of FAVICON_SIZE px
 * (the whole image, centred on a transparent square): every browser shows a PNG in its tab.
 */
export async function prepareFavicon(db: Db, file: File): Promise<PrepareResult> {
  if (file.size > MAX_IMAGE_BYTES) {
    return { ok: false, error: `A imagem ${quotedName(file)} passa de 8 MB.` };
  }
  const input = await imageInput(file);
  const header = await readHeader(input, quotedName(file));
  if (!header.ok) return header;
  const id = await mediaIdOfFile(file, 'favicon');
  if ((await storedWidths(db, [id])).has(id)) {
    return { ok: true, images: [{ id, url: mediaPath(id, FAVICON_SIZE, 'png'), files: null }] };
  }
  let bytes: Buffer;
  try {
    bytes = await sharp(input, SHARP_OPTIONS)
      .resize({
        width: FAVICON_SIZE,
        height: FAVICON_SIZE,
        fit: 'contain',
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      })
      .png()
      .toBuffer();
  } catch {
    return {
      ok: false,
      error: `O arquivo ${quotedName(file)} não é uma imagem aceita. ${MEDIA_MESSAGES.notAnImage}`,
    };
  }
  return {
    ok: true,
    images: [
      {
        id,
        url: mediaPath(id, FAVICON_SIZE, 'png'),
        files: {
          originalName: cleanName(file, 255),
          width: FAVICON_SIZE,
          height: FAVICON_SIZE,
          variants: [{ width: FAVICON_SIZE, bytes, contentType: 'image/png' }],
        },
      },
    ],
  };
}

/** The WebP files of an image whose header passed, or null when its pixels are broken. */
async function convert(input: string | Uint8Array, width: number, height: number) {
  const largest = Math.min(width, Math.max(...MEDIA_WIDTHS));
  try {
    // The original is decoded once, to pixels at the largest width; every file, that one
    // included, is made from those pixels rather than by decoding the upload again.
    const { data, info } = await sharp(input, SHARP_OPTIONS)
      .resize({ width: largest, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    const variants = [];
    for (const target of mediaWidths(largest)) {
      const output = await sharp(data, { raw })
        // The height the original's proportions give, not a resized copy's rounded ones.
        .resize({
          width: target,
          height: Math.max(1, Math.round((height * target) / width)),
          fit: 'fill',
        })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer();
      variants.push({ width: target, bytes: output });
    }
    return variants;
  } catch {
    // The header read fine but the pixels are broken (a truncated file).
    return null;
  }
}

/** The largest stored width of each of these images that is already in the database. */
async function storedWidths(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: mediaVariants.mediaId, width: max(mediaVariants.width) })
    .from(mediaVariants)
    .where(inArray(mediaVariants.mediaId, ids))
    .groupBy(mediaVariants.mediaId);
  return new Map(rows.map((row) => [row.id, row.width ?? 0]));
}

/**
 * Writes prepared images (those not stored before). Uploaded images are never deleted with a
 * product: orders keep showing the image their items were bought with.
 */
export async function storeImages(db: Db, images: readonly PreparedImage[]): Promise<void> {
  for (const image of images) {
    if (!image.files) continue;
    const inserted = await db
      .insert(media)
      .values({
        id: image.id,
        originalName: image.files.originalName,
        width: image.files.width,
        height: image.files.height,
      })
      .onConflictDoNothing({ target: media.id })
      .returning({ id: media.id });
    // Another request stored the same bytes meanwhile: its files are the same as ours.
    if (inserted.length === 0) continue;
    await db.insert(mediaVariants).values(
      image.files.variants.map((variant) => ({
        mediaId: image.id,
        width: variant.width,
        bytes: variant.bytes,
        ...(variant.contentType ? { contentType: variant.contentType } : {}),
      })),
    );
  }
}

/** One stored file of an image, or null when there is no such image or width. */
export async function readMediaFile(
  db: Db,
  id: string,
  width: number,
): Promise<{ bytes: Uint8Array; contentType: string } | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ bytes: mediaVariants.bytes, contentType: mediaVariants.contentType })
    .from(mediaVariants)
    .where(and(eq(mediaVariants.mediaId, id), eq(mediaVariants.width, width)))
    .limit(1);
  return row ?? null;
}

/** Deletes these uploads with their files; the caller checked nothing shows them any more. */
export async function deleteMedia(db: Db, ids: readonly string[]): Promise<void> {
  const valid = ids.filter(isUuid);
  if (valid.length > 0) await db.delete(media).where(inArray(media.id, valid));
}
