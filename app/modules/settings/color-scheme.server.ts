import { preferenceCookie } from '~/lib/preference-cookie.server';

export type ColorScheme = 'dark' | 'light';

const colorSchemeCookie = preferenceCookie<ColorScheme>('vitrine_theme', ['dark', 'light']);
export const COLOR_SCHEME_COOKIE = colorSchemeCookie.name;

/** The scheme the shopper picked, or null to follow the device (prefers-color-scheme). */
export function readColorScheme(request: Pick<Request, 'headers'>): Promise<ColorScheme | null> {
  return colorSchemeCookie.read(request);
}

export function colorSchemeCookieHeader(scheme: ColorScheme): Promise<string> {
  return colorSchemeCookie.serialize(scheme);
}
