import { brotliCompressSync, constants, crc32, deflateRawSync } from 'node:zlib';

import type express from 'express';

import type { ChangeFeed } from '~/db/changes.server';
import { CONTENT_PAGE_SLUGS } from '~/modules/content';
import { SAVED_CEP_COOKIE, readSavedCep } from '~/modules/address/index.server';
import { SESSION_COOKIE_NAMES } from '~/modules/auth/index.server';
import { CART_COOKIE, countUnits, readCart } from '~/modules/cart/index.server';
import { COUPON_PARAM } from '~/modules/coupons/index.server';
import { ATTRIBUTION_PARAMS } from '~/modules/orders/index.server';
import { COLOR_SCHEME_COOKIE, readColorScheme } from '~/modules/settings/index.server';
import { CONSENT_COOKIE, readConsent } from '~/modules/tracking/index.server';

/**
 * The storefront's pages that may be kept, with the query parameters their loaders read (the
 * only ones in the key, in this order). `.data` is the same page's data for client navigation;
 * `_root.data` is the home page's.
 */
const CACHEABLE: { path: RegExp; params: readonly string[]; savedCep?: true }[] = [
  { path: /^\/(?:_root\.data)?$/, params: ['categoria'] },
  {
    path: /^\/products(?:\.data)?$/,
    params: ['q', 'categoria', 'min', 'max', 'opcao', 'ordem', 'pagina', 'vista'],
  },
  // The product page shows the variant chosen, the delivery estimate for the CEP the shopper
  // saved, and what a restock request sent without JavaScript came back saying.
  { path: /^\/product\/[^/]+$/, params: ['variante', 'aviso'], savedCep: true },
  { path: new RegExp(`^/(?:${CONTENT_PAGE_SLUGS.join('|')})(?:\\.data)?$`), params: [] },
];

/**
 * Parameters whose answer does more than render (it sets a cookie): never answered from the
 * cache, or the landing's attribution, the asked CEP or a coupon link's code would be lost.
 */
const SIDE_EFFECT_PARAMS = new Set<string>([...ATTRIBUTION_PARAMS, 'cep', COUPON_PARAM]);

export interface CachePlan {
  key: string;
  /** The path and query the page is rendered for: only the parameters in the key. */
  url: string;
  /** The only cookies the render may see: those the key accounts for. */
  cookie: string;
}

interface Entry {
  key: string;
  expires: number;
  headers: [string, string][];
  /** The body cut where the nonce of the request that rendered it was. */
  segments: Buffer[];
  /** The segments deflated as pieces that a response joins around a fresh nonce. */
  deflated: Buffer[];
  nonceLength: number;
  /** The whole body in brotli, when it carries no nonce (the `.data` answers). */
  brotli?: Buffer;
  bytes: number;
}

export interface PageCache {
  /** How this request would be kept, or null when it must be rendered for itself. */
  plan(req: express.Request, res: express.Response): Promise<CachePlan | null>;
  /**
   * Answers from the cache, saying `state` (a hit, or the miss that just filled the entry);
   * false when there is no entry.
   */
  serve(
    plan: CachePlan,
    req: express.Request,
    res: express.Response,
    state?: 'hit' | 'miss',
  ): boolean;
  /** The render of this key in progress, if another request started it: true once kept. */
  pending(key: string): Promise<boolean> | undefined;
  /**
   * Marks this request as the one rendering `plan`; `done` keeps the answer when it may be
   * kept (a 200 that sets no cookie, rendered while nothing changed) and lets the requests
   * waiting for it go on.
   */
  begin(plan: CachePlan): { done(response?: Response, body?: Buffer, nonce?: string): void };
  /** What is kept, for tests and the bench. */
  size(): { entries: number; bytes: number };
}

/**
 * The full-page cache of anonymous storefront pages (ADR 016). An entry is keyed by the public
 * origin, the path, the known query parameters and the cookies that change the HTML (consent,
 * colour scheme, the cart's unit count, the saved CEP on product pages); a signed-in admin's
 * request is never kept or answered from it. It is bounded by bytes (least recently used goes
 * first), renders each missing entry once however many ask at the same time, drops everything
 * when the database announces a change, is bypassed while those announcements may be missed,
 * and lets an entry live `ttlMs` at most.
 */
export function createPageCache(options: {
  maxBytes: number;
  ttlMs: number;
  changes: Pick<ChangeFeed, 'version' | 'live' | 'subscribe'>;
  /** The origin absolute URLs in pages use (never the request's own Host). */
  publicOrigin: (res: express.Response) => string;
  now?: () => number;
}): PageCache {
  const { maxBytes, ttlMs, changes, publicOrigin } = options;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<boolean>>();
  let bytes = 0;

  const drop = (entry: Entry) => {
    entries.delete(entry.key);
    bytes -= entry.bytes;
  };
  changes.subscribe(() => {
    entries.clear();
    bytes = 0;
  });

  const store = (key: string, response: Response, body: Buffer, nonce: string) => {
    const segments = split(body, Buffer.from(nonce));
    const deflated = deflatePieces(segments, Buffer.byteLength(nonce));
    const brotli =
      segments.length === 1
        ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
        : undefined;
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'set-cookie') headers.push([name, value]);
    });
    const size =
      body.length +
      deflated.reduce((sum, piece) => sum + piece.length, 0) +
      (brotli?.length ?? 0) +
      key.length;
    if (size > maxBytes / 4) return false;
    const previous = entries.get(key);
    if (previous) drop(previous);
    entries.set(key, {
      key,
      expires: now() + ttlMs,
      headers,
      segments,
      deflated,
      nonceLength: Buffer.byteLength(nonce),
      brotli,
      bytes: size,
    });
    bytes += size;
    for (const oldest of entries.values()) {
      if (bytes <= maxBytes) break;
      drop(oldest);
    }
    return true;
  };

  return {
    async plan(req, res) {
      if (maxBytes === 0 || req.method !== 'GET' || !changes.live()) return null;
      const page = CACHEABLE.find((candidate) => candidate.path.test(req.path));
      if (!page) return null;
      const cookies = parseCookies(req.headers.cookie);
      // Staff see the store with their own bar (and while it is closed for maintenance), and
      // without the store's third-party tags.
      if (SESSION_COOKIE_NAMES.some((name) => cookies.has(name))) return null;
      const queryStart = req.originalUrl.indexOf('?');
      const query = new URLSearchParams(queryStart < 0 ? '' : req.originalUrl.slice(queryStart));
      for (const name of query.keys()) {
        if (SIDE_EFFECT_PARAMS.has(name)) return null;
      }
      const kept = new URLSearchParams();
      for (const name of req.path.endsWith('.data') ? [...page.params, '_routes'] : page.params) {
        // Every value: the option filter repeats its parameter, one per value chosen.
        for (const value of query.getAll(name)) kept.append(name, value);
      }
      const url = kept.size > 0 ? `${req.path}?${kept.toString()}` : req.path;
      const seen = [CONSENT_COOKIE, COLOR_SCHEME_COOKIE, CART_COOKIE];
      if (page.savedCep) seen.push(SAVED_CEP_COOKIE);
      const cookie = seen
        .filter((name) => cookies.has(name))
        .map((name) => `${name}=${cookies.get(name)}`)
        .join('; ');
      const request = { headers: new Headers(cookie ? { cookie } : undefined) };
      const [consent, colorScheme, cart] = await Promise.all([
        readConsent(request),
        readColorScheme(request),
        readCart(request),
      ]);
      const savedCep = page.savedCep ? readSavedCep(request) : null;
      const key = [
        publicOrigin(res),
        url,
        consent ?? '-',
        colorScheme ?? '-',
        countUnits(cart),
        savedCep ?? '-',
      ].join(' ');
      return { key, url, cookie };
    },

    serve(plan, req, res, state = 'hit') {
      const entry = entries.get(plan.key);
      if (!entry) return false;
      if (entry.expires <= now()) {
        drop(entry);
        return false;
      }
      // Most recently used goes last; the oldest are dropped first.
      entries.delete(entry.key);
      entries.set(entry.key, entry);
      res.status(200);
      for (const [name, value] of entry.headers) res.setHeader(name, value);
      res.setHeader('X-Page-Cache', state);
      res.vary('Accept-Encoding');
      const encoding = req.acceptsEncodings(
        entry.brotli ? ['br', 'gzip', 'identity'] : ['gzip', 'identity'],
      );
      const nonce = Buffer.from(res.locals.nonce as string);
      // The pieces assume a nonce of the length they were made around (always so: 16 bytes).
      const compressed =
        encoding === 'br' && entry.brotli
          ? entry.brotli
          : encoding === 'gzip' && nonce.length === entry.nonceLength
            ? gzipAround(entry, nonce)
            : null;
      const body = compressed ?? Buffer.concat(between(entry.segments, nonce));
      if (compressed) res.setHeader('Content-Encoding', encoding as string);
      res.setHeader('Content-Length', body.length);
      res.end(body);
      return true;
    },

    pending: (key) => inflight.get(key),

    begin(plan) {
      let settle!: (kept: boolean) => void;
      inflight.set(plan.key, new Promise<boolean>((resolve) => (settle = resolve)));
      const version = changes.version();
      return {
        done(response, body, nonce) {
          inflight.delete(plan.key);
          const keep =
            response !== undefined &&
            body !== undefined &&
            nonce !== undefined &&
            response.status === 200 &&
            !response.headers.has('set-cookie') &&
            !/no-store|private/.test(response.headers.get('cache-control') ?? '') &&
            // Rendered from data that may have changed since: the next request renders again.
            changes.live() &&
            changes.version() === version;
          settle(keep && store(plan.key, response, body, nonce));
        },
      };
    },

    size: () => ({ entries: entries.size, bytes }),
  };
}

function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim();
    // Of two cookies with one name, the first is the one the cookie parsers read.
    if (!cookies.has(name)) cookies.set(name, part.slice(equals + 1).trim());
  }
  return cookies;
}

/** `body` cut at every occurrence of `separator`. */
function split(body: Buffer, separator: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(separator); at >= 0; at = body.indexOf(separator, from)) {
    pieces.push(body.subarray(from, at));
    from = at + separator.length;
  }
  pieces.push(body.subarray(from));
  return pieces;
}

/** The segments with `nonce` between each two. */
function between(segments: Buffer[], nonce: Buffer): Buffer[] {
  return segments.flatMap((segment, index) => (index === 0 ? [segment] : [nonce, segment]));
}

const WINDOW = 32 * 1024;

/**
 * Deflates the segments of a body cut at its nonce into pieces that can be joined around any
 * nonce of the same length: each piece ends byte-aligned and not final (but the last), and may
 * refer back to the text before it as a browser decodes it. The compressor sees NUL bytes where
 * the nonce goes; a page holds none, so no back-reference can reach into a nonce. A body that
 * does hold one is deflated piece by piece, without looking back.
 */
export function deflatePieces(segments: Buffer[], nonceLength: number): Buffer[] {
  const lookBack = !segments.some((segment) => segment.includes(0));
  const view = lookBack ? Buffer.concat(between(segments, Buffer.alloc(nonceLength))) : null;
  let offset = 0;
  return segments.map((segment, index) => {
    const dictionary = view?.subarray(Math.max(0, offset - WINDOW), offset);
    offset += segment.length + nonceLength;
    return deflateRawSync(segment, {
      // Made on a shopper's request, once per entry: a fast level, a few per cent larger.
      level: 6,
      finishFlush: index < segments.length - 1 ? constants.Z_SYNC_FLUSH : constants.Z_FINISH,
      ...(dictionary?.length ? { dictionary } : {}),
    });
  });
}

// A gzip member's header: deflate, no name or time, unknown OS (RFC 1952).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * The entry in gzip with a fresh nonce, without compressing anything: the segments were
 * deflated on their own, and the nonce goes between them as a stored (uncompressed) block.
 */
export function gzipAround(entry: Pick<Entry, 'segments' | 'deflated'>, nonce: Buffer): Buffer {
  // A non-final stored block: its 3 header bits (0, 00) padded to a byte, LEN and its complement.
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(nonce.length, 1);
  stored.writeUInt16LE(~nonce.length & 0xffff, 3);
  const parts: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  entry.segments.forEach((segment, index) => {
    if (index > 0) {
      parts.push(stored, nonce);
      crc = crc32(nonce, crc);
      length += nonce.length;
    }
    parts.push(entry.deflated[index]!);
    // Node's crc32 answers 0 for empty data, whatever the running value.
    if (segment.length > 0) crc = crc32(segment, crc);
    length += segment.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  parts.push(trailer);
  return Buffer.concat(parts);
}
