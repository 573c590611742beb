import type { Discovery } from '../discovery';
import type { Random } from '../random';

/**
 * What every part of a hostile request shares: its shape, the catalogue of junk values, and
 * small encoders.
 *
 * The hostile host name, `evil.example`, goes only where a host belongs (Host, X-Forwarded-Host,
 * Origin, Referer, Forwarded, an absolute request target): any answer that contains it echoed a
 * spoofed host. Everywhere else (paths, queries, bodies, cookies) `attacker.test` stands in.
 */
export const EVIL_HOST = 'evil.example';
export const OTHER_HOST = 'attacker.test';

export interface Header {
  name: string;
  value: string;
  /** What was done to this header; benign headers have none. */
  tag?: string;
  /** The benign value this one replaced. */
  original?: string;
  /** Not valid HTTP: the server may drop the connection without answering. */
  malformed?: boolean;
}

export interface FuzzRequest {
  index: number;
  /** Where it was aimed, for the statistics: a route id or a static kind. */
  target: string;
  method: string;
  path: string;
  /** The same URL without the path's mutation. */
  plainPath: string;
  pathTag?: string;
  /** With its leading `?`, or empty. */
  query: string;
  queryTag?: string;
  version: string;
  headers: Header[];
  body?: Buffer;
  bodyTag?: string;
  /** Sent verbatim instead of the body's length; 'none' sends no Content-Length at all. */
  contentLength?: string;
  /** The body is shorter than the Content-Length claims: it is sent and the socket half-closed. */
  partial?: boolean;
  /** The whole request as bytes, for requests that are not HTTP at all. */
  raw?: Buffer;
  rawTag?: string;
  /** The server may drop the connection without answering (malformed HTTP, CONNECT). */
  mayClose: boolean;
}

export interface GeneratorContext {
  seed: number;
  discovery: Discovery;
  host: string;
  port: number;
  /**
   * The signed-in cookies: an admin's `vitrine_session=…` and a shopper's `vitrine_conta=…`, so
   * that admin and account actions are reached, not just refused.
   */
  adminCookie?: string;
}

/**
 * Whether a path is under the admin or the shopper's account, where requests carry the signed-in
 * cookies when there are some. Never 'Sair' (either): it would end a session for the rest of the
 * run.
 */
export function signedInPath(ctx: GeneratorContext, path: string): boolean {
  return ctx.adminCookie !== undefined && SIGNED_IN_PATH.test(path);
}

/**
 * The admin's and the account's paths but their sign-outs, and the shopper's sign-in page (a
 * signed-in shopper is sent on from it). The crawl uses it too.
 */
export const SIGNED_IN_PATH = /^\/(?:admin(?![/]logout)|conta(?![/](?:sair|entrar)))(?:[/.]|$)/;

/** The server's own host, as a Host header names it. */
export const self = (ctx: GeneratorContext) => `${ctx.host}:${ctx.port}`;

/** Product ids seen in product URLs and in the forms that post them (add to cart). */
export function productIds(discovery: Discovery): string[] {
  return discovery.routes
    .flatMap((route) => [
      ...(route.params.get('id') ?? []),
      ...(route.postFields.get('productId') ?? []),
    ])
    .filter((id) => /^[0-9a-f-]{36}$/i.test(id));
}

export const uuid = (random: Random) => {
  const hex = () => random.string(4, '0123456789abcdef');
  return `${hex()}${hex()}-${hex()}-4${hex().slice(1)}-8${hex().slice(1)}-${hex()}${hex()}${hex()}`;
};

/** Values a careless parser chokes on; used in queries, form fields, JSON and path segments. */
export const JUNK_VALUES: readonly string[] = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1.5',
  '1,5',
  '1.234,56',
  'R$ 10',
  '0x10',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '99999999999999999999999',
  '9'.repeat(400),
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  '<script>alert(1)</script>',
  '"><svg onload=alert(1)>',
  "' OR 1=1 --",
  "'; DROP TABLE products; --",
  '%',
  '%00',
  '%E0%A4%A',
  '\u0000',
  '\u0001\u001f\u007f',
  '\r\nSet-Cookie: x=1',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '😀',
  'ção',
  '\u202e\u200b\ufeff',
  '\ud800',
  '${7*7}',
  '{{7*7}}',
  `https://${OTHER_HOST}/`,
  `//${OTHER_HOST}`,
  `/\\${OTHER_HOST}`,
  `/%2F${OTHER_HOST}`,
  'javascript:alert(1)',
  'data:text/html,x',
  'a'.repeat(3000),
];

/** The catalogue's filters and other usual names, tried on every route with junk. */
export const COMMON_PARAMS: readonly string[] = [
  'q',
  'categoria',
  'min',
  'max',
  // The listing's option filter, repeated once per value ('Tamanho:G').
  'opcao',
  'ordem',
  'pagina',
  'vista',
  'page',
  'sort',
  'redirectTo',
  'intent',
  'id',
  // A coupon link's code, read by every storefront page.
  'cupom',
];

export function pickMap(
  random: Random,
  map: Map<string, Set<string>>,
  key: string,
): string | undefined {
  const values = map.get(key);
  return values && values.size > 0 ? random.pick([...values]) : undefined;
}

export function junkValue(random: Random): string {
  const value = random.pick(JUNK_VALUES);
  return random.chance(0.1) ? value + random.string(random.int(1, 12)) : value;
}

/** Percent-encodes like a browser, but leaves already-broken escapes alone sometimes. */
export function encodeLoosely(random: Random, value: string): string {
  if (random.chance(0.15)) return value.replace(/[\s#&]/g, (c) => encodeURIComponent(c));
  try {
    return encodeURIComponent(value);
  } catch {
    // Lone surrogates cannot be encoded; a broken escape stands in.
    return '%ED%A0%80';
  }
}

export function formEncode(fields: readonly [string, string][], random: Random): string {
  return fields
    .map(([name, value]) => `${encodeLoosely(random, name)}=${encodeLoosely(random, value)}`)
    .join('&');
}
