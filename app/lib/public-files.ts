/**
 * The files shipped in public/ (the default favicon, the sample store's pictures) keep their
 * names from one release to the next, so their addresses carry the version of the folder the
 * build was made from (a hash of it, written by vite.config.ts). An address with the current
 * version always names the same bytes, so the server lets browsers keep it for a year; a release
 * that changes any of the files changes every address. Undefined outside a Vite build (unit
 * tests), where addresses stay as they are.
 */
export const PUBLIC_FILES_VERSION = import.meta.env.VITRINE_PUBLIC_VERSION;

/** A path of this site to an image outside the uploads (/media) and the build (/assets). */
const PUBLIC_IMAGE = /^\/(?!\/|media\/|assets\/)[^?#]*\.(?:svg|png|jpe?g|webp|gif|avif|ico)$/i;

/**
 * An image's address as a page should ask for it: a file of public/ ("/sample/a.svg") with the
 * folder's version ("/sample/a.svg?v=…"); anything else (an upload, another site's image) as
 * it is. The server ignores the version on a path that is no file of public/.
 */
export function publicFileUrl(url: string, version = PUBLIC_FILES_VERSION): string {
  return version && PUBLIC_IMAGE.test(url) ? `${url}?v=${version}` : url;
}
