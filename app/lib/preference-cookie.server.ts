import { createCookie } from 'react-router';

/**
 * A choice the shopper makes once and the server must know when rendering (cookie consent,
 * colour scheme): one of a few values, kept for a year (LGPD asks that consent can be revisited;
 * a year is long enough not to nag). Anything else in the cookie reads as no choice yet.
 */
export function preferenceCookie<const Value extends string>(
  name: string,
  values: readonly Value[],
) {
  const cookie = createCookie(name, {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    maxAge: 60 * 60 * 24 * 365,
  });
  return {
    name,
    async read(request: Pick<Request, 'headers'>): Promise<Value | null> {
      const value: unknown = await cookie.parse(request.headers.get('Cookie'));
      return values.find((candidate) => candidate === value) ?? null;
    },
    serialize(value: Value): Promise<string> {
      return cookie.serialize(value);
    },
  };
}
