import { createCookie } from 'react-router';

export type ColorScheme = 'dark' | 'light';

const colorSchemeCookie = createCookie('vitrine_theme', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

/** The scheme the shopper picked, or null to follow the device (prefers-color-scheme). */
export async function readColorScheme(request: Request): Promise<ColorScheme | null> {
  const value: unknown = await colorSchemeCookie.parse(request.headers.get('Cookie'));
  return value === 'dark' || value === 'light' ? value : null;
}

export function colorSchemeCookieHeader(scheme: ColorScheme): Promise<string> {
  return colorSchemeCookie.serialize(scheme);
}
