/**
 * The staff's pages and their data requests: /admin, /admin/… and React Router's /admin.data.
 * They are never indexed or cached by others, and never carry the shopper's tracking.
 */
const ADMIN_PATH = /^\/admin(?:[/.]|$)/;

export function isAdminPath(pathname: string): boolean {
  return ADMIN_PATH.test(pathname);
}

/**
 * Whether an admin page may show an image: only our own files (/media, /sample…) and data: URLs.
 * The admin's Content-Security-Policy loads no image from another site (ADR 019), so an image by
 * URL is not even asked for there; the store shows it.
 */
export function isOwnImage(src: string): boolean {
  return (src.startsWith('/') && !src.startsWith('//')) || src.startsWith('data:');
}
