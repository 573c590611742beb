/**
 * The staff's pages and their data requests: /admin, /admin/… and React Router's /admin.data.
 * They are never indexed or cached by others, and never carry the shopper's tracking.
 */
const ADMIN_PATH = /^\/admin(?:[/.]|$)/;

export function isAdminPath(pathname: string): boolean {
  return ADMIN_PATH.test(pathname);
}
