/**
 * Uploaded images' addresses. Tiny and alone in its module on purpose: the storefront's image
 * components import it, and nothing else of the media module should follow it into their bundle.
 */

const LARGEST_WIDTH = 1280;
/** Widths an upload is resized to (WebP). Never wider than the original. */
export const MEDIA_WIDTHS = [320, 640, LARGEST_WIDTH] as const;

const FILE_NAME =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([1-9]\d{0,3})\.webp$/;

/** The image and width a `/media/` file name stands for (`<uuid>-<width>.webp`), or null. */
export function parseMediaFileName(name: string): { id: string; width: number } | null {
  const match = FILE_NAME.exec(name);
  if (!match) return null;
  const width = Number(match[2]);
  return width <= LARGEST_WIDTH ? { id: match[1]!, width } : null;
}

/** The same for a whole path (`/media/<uuid>-<width>.webp`). */
export function parseMediaPath(path: string): { id: string; width: number } | null {
  return path.startsWith('/media/') ? parseMediaFileName(path.slice('/media/'.length)) : null;
}

export function mediaPath(id: string, width: number): string {
  return `/media/${id}-${width}.webp`;
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
  if (!media) return undefined;
  return mediaWidths(media.width)
    .map((width) => `${mediaPath(media.id, width)} ${width}w`)
    .join(', ');
}
