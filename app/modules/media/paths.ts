/**
 * Uploaded images' addresses. Tiny and alone in its module on purpose: the storefront's image
 * components import it, and nothing else of the media module should follow it into their bundle.
 */

const LARGEST_WIDTH = 1280;
/** Widths an upload is resized to (WebP). Never wider than the original. */
export const MEDIA_WIDTHS = [320, 640, LARGEST_WIDTH] as const;

/** The side of the PNG a favicon upload becomes (square). */
export const FAVICON_SIZE = 64;

const FILE_NAME =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([1-9]\d{0,3})\.(webp|png)$/;

export type MediaFormat = 'webp' | 'png';

interface MediaFile {
  id: string;
  width: number;
  /** WebP for photos, logos and banners; PNG for a favicon, which every browser takes. */
  format: MediaFormat;
}

/** The image and width a `/media/` file name stands for (`<uuid>-<width>.webp`), or null. */
export function parseMediaFileName(name: string): MediaFile | null {
  const match = FILE_NAME.exec(name);
  if (!match) return null;
  const width = Number(match[2]);
  return width <= LARGEST_WIDTH ? { id: match[1]!, width, format: match[3] as MediaFormat } : null;
}

/** The same for a whole path (`/media/<uuid>-<width>.webp`). */
export function parseMediaPath(path: string): MediaFile | null {
  return path.startsWith('/media/') ? parseMediaFileName(path.slice('/media/'.length)) : null;
}

export function mediaPath(id: string, width: number, format: MediaFormat = 'webp'): string {
  return `/media/${id}-${width}.${format}`;
}

/**
 * The widths stored for an upload whose largest file is `largest` wide: the standard widths below
 * it, and itself (an original narrower than 1280 px keeps its own width rather than being blown up).
 */
export function mediaWidths(largest: number): number[] {
  return [...MEDIA_WIDTHS.filter((width) => width < largest), largest];
}

/**
 * A `srcset` for an uploaded image's URL (every width stored for it), so phones fetch a small
 * file; undefined for any other image, which has only the one size.
 */
export function mediaSrcSet(url: string): string | undefined {
  const media = parseMediaPath(url);
  if (!media || media.format !== 'webp') return undefined;
  return mediaWidths(media.width)
    .map((width) => `${mediaPath(media.id, width)} ${width}w`)
    .join(', ');
}
