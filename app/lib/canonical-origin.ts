/** The origin of the canonical_url setting, when it is an absolute http(s) URL. */
export function canonicalOrigin(canonicalUrl: string): string | null {
  if (!/^https?:\/\//i.test(canonicalUrl)) return null;
  try {
    return new URL(canonicalUrl).origin;
  } catch {
    return null;
  }
}
