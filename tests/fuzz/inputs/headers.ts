import type { Random } from '../random';
import { FUZZ_COUPON } from '../server-env';

import {
  EVIL_HOST,
  productIds,
  self,
  uuid,
  type FuzzRequest,
  type GeneratorContext,
  type Header,
} from './common';

// Hostile headers: hosts, forwarding, origins, fetch metadata, content negotiation, cookies.

const BROWSER_UA =
  'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';

/** The cookie value React Router's createCookie writes (unsigned): base64 of the JSON. */
function cookieValue(value: unknown): string {
  return encodeURIComponent(
    Buffer.from(JSON.stringify(value) ?? 'null', 'utf8').toString('base64'),
  );
}

function cartCookie(random: Random, productIds: string[]): [string, string] {
  const id = () =>
    productIds.length > 0 && random.chance(0.7) ? random.pick(productIds) : uuid(random);
  const variants: [string, () => string][] = [
    [
      'cart-valid',
      () => cookieValue([[id(), random.int(1, 5), random.int(100, 99999), 'Produto']]),
    ],
    [
      'cart-hostile-json',
      () =>
        cookieValue(
          random.pick<unknown>([
            [[id(), 0, 0, '']],
            [[id(), 1e9, -1, 'x']],
            [[id(), 1.5, 1.5, 'x']],
            [[id(), '1', '100', 1]],
            [['not-a-uuid', 1, 1, '']],
            [[id().toUpperCase(), 1, 1, '']],
            [[id(), 1, 1, '']].concat([[id(), 1, 1, '']]),
            Array.from({ length: 60 }, () => [uuid(random), 1, 1, 'x']),
            [[id(), 1, 1, 'ç'.repeat(2000)]],
            { __proto__: { admin: true } },
            JSON.parse('{"__proto__":{"polluted":1}}'),
            'string',
            null,
            [[]],
            [[[[[[[[]]]]]]]],
            [null],
            {},
            [[id(), 1, 1, '<script>alert(1)</script>']],
          ]),
        ),
    ],
    [
      'cart-junk-raw',
      () =>
        random.pick([
          'AAAA',
          '!!!',
          '%',
          '%E0%A4%A',
          '""',
          'e30%3D',
          'W10=',
          'bnVsbA==',
          Buffer.from([0xff, 0xfe, 0xfd]).toString('base64'),
          Buffer.from('not json').toString('base64'),
          'A'.repeat(random.pick([100, 5000, 12000])),
          '%00',
          'eyJhIjoi',
        ]),
    ],
  ];
  const [label, make] = random.pick(variants);
  return [label, `vitrine_cart=${make()}`];
}

function preferenceCookie(random: Random, name: string, valid: string[]): [string, string] {
  const value = random.pick<() => string>([
    () => cookieValue(random.pick(valid)),
    () =>
      cookieValue(
        random.pick<unknown>(['maybe', 1, {}, [], null, true, 'GRANTED', 'x'.repeat(500)]),
      ),
    () => random.pick(['granted', 'dark', '%', 'AAAA', '', '"', 'e30%3D']),
  ])();
  return [`${name.replace('vitrine_', '')}`, `${name}=${value}`];
}

function sessionCookie(random: Random): [string, string] {
  const value = random.pick<() => string>([
    () => cookieValue(random.string(random.pick([10, 32, 64, 256, 300]))),
    () => cookieValue(random.pick<unknown>([{}, [], 1, null, "' OR 1=1 --"])),
    () => random.string(random.pick([10, 64, 4000])),
    () => '%',
  ])();
  return ['session', `vitrine_session=${value}`];
}

const JUNK_COOKIES: readonly string[] = [
  '=',
  ';;;',
  'a',
  '=a',
  'a b=c',
  '$Version=1',
  'vitrine_color_scheme=dark',
  'vitrine_cart',
  'vitrine_cart=',
  'vitrine_cart="e30="',
  'vitrine_checkout=InVzZXIi',
  'vitrine_checkout=%22not-a-uuid%22',
  '__proto__=x',
  'constructor=x',
  `x=${'y'.repeat(8000)}`,
  `x=${'y'.repeat(17000)}`,
];

function buildCookie(random: Random, productIds: string[], storeSet: string[]): Header {
  const parts: string[] = [];
  const labels: string[] = [];
  for (let i = random.int(1, 4); i > 0; i--) {
    const [label, part] = random.weighted<() => [string, string]>([
      [4, () => cartCookie(random, productIds)],
      // As the store set it (a cart it corrected, with real prices): checkout can place an order.
      [storeSet.length > 0 ? 2 : 0, () => ['store-set', random.pick(storeSet)]],
      [2, () => preferenceCookie(random, 'vitrine_consent', ['granted', 'denied'])],
      [2, () => preferenceCookie(random, 'vitrine_theme', ['dark', 'light'])],
      // The coupon held for the visit: the store's own, or one it does not know.
      [2, () => preferenceCookie(random, 'vitrine_coupon', [FUZZ_COUPON, 'NAOEXISTE'])],
      [2, () => sessionCookie(random)],
      [2, () => ['junk', random.pick(JUNK_COOKIES)]],
    ])();
    parts.push(part);
    labels.push(label);
  }
  // A repeated cookie: browsers send both when paths differ.
  if (random.chance(0.1) && parts[0]) parts.push(parts[0]);
  const separator = random.chance(0.9) ? '; ' : random.pick([';', ' ; ', ';;', ', ']);
  return {
    name: 'Cookie',
    value: parts.join(separator),
    tag: `cookie:${[...new Set(labels)].sort().join('+')}`,
  };
}

type HeaderMaker = (random: Random, ctx: GeneratorContext) => Header[];

function one(
  name: string,
  category: string,
  options: readonly (readonly [string, string])[],
): HeaderMaker {
  return (random) => {
    const [label, value] = random.pick(options);
    return [{ name, value, tag: `${category}:${label}` }];
  };
}

const HOST_VALUES: readonly (readonly [string, string])[] = [
  ['evil', EVIL_HOST],
  ['evil-port', `${EVIL_HOST}:8080`],
  ['evil-bad-port', `${EVIL_HOST}:99999`],
  ['evil-upper', EVIL_HOST.toUpperCase()],
  ['evil-userinfo', `user@${EVIL_HOST}`],
  ['evil-list', `127.0.0.1, ${EVIL_HOST}`],
  ['evil-path', `${EVIL_HOST}/x?y#z`],
  ['lt-gt', 'a<b'],
  ['space', 'a b'],
  ['ipv6-open', '[::1'],
  ['ipv6', '[::1]'],
  ['empty', ''],
  ['long', 'h'.repeat(5000)],
  ['bad-port', '127.0.0.1:abc'],
  ['port-only', ':80'],
  ['percent', 'local%00host'],
  ['unicode', 'lojä.example'],
  ['trailing-dot', 'localhost.'],
  ['quote', 'a"b\'c'],
];

const HEADER_MAKERS: readonly (readonly [number, string, HeaderMaker])[] = [
  [
    3,
    'x-forwarded-host',
    one('X-Forwarded-Host', 'xfh', [
      ['evil', EVIL_HOST],
      ['evil-list', `${EVIL_HOST}, 127.0.0.1`],
      ['evil-port', `${EVIL_HOST}:443`],
      ['evil-bad-port', `${EVIL_HOST}:99999`],
      ['space', 'a b'],
      ['ipv6-open', '[::1'],
      ['lt-gt', 'a<b'],
      ['empty', ''],
      ['long', 'h'.repeat(3000)],
      ['comma-only', ',,,'],
    ]),
  ],
  [
    2,
    'x-forwarded-proto',
    one('X-Forwarded-Proto', 'xfp', [
      ['https', 'https'],
      ['list', 'http, https'],
      ['javascript', 'javascript'],
      ['empty', ''],
      ['upper', 'HTTPS'],
      ['junk', 'ht tp:/'],
      ['long', 'x'.repeat(500)],
    ]),
  ],
  [
    2,
    'x-forwarded-for',
    one('X-Forwarded-For', 'xff', [
      ['ip', '203.0.113.7'],
      ['junk', 'not-an-ip'],
      ['list', '203.0.113.7, unknown, ::1'],
      ['empty', ''],
      ['bad-ip', '999.999.999.999'],
      ['v6-port', '[::1]:80'],
      ['long', Array.from({ length: 300 }, (_v, i) => `10.0.${i % 256}.1`).join(', ')],
    ]),
  ],
  [
    2,
    'forwarded',
    one('Forwarded', 'forwarded', [
      ['evil', `for=203.0.113.7;host=${EVIL_HOST};proto=https`],
      ['junk', 'for="[::1;host'],
      ['empty', ''],
    ]),
  ],
  [
    1,
    'x-forwarded-misc',
    (random) => [
      random.pick<Header>([
        {
          name: 'X-Forwarded-Port',
          value: random.pick(['abc', '99999', '443', '-1']),
          tag: 'xfport',
        },
        { name: 'X-Real-IP', value: random.pick(['junk', '::1', '']), tag: 'x-real-ip' },
        { name: 'X-Original-Host', value: EVIL_HOST, tag: 'x-original-host:evil' },
        { name: 'X-Host', value: EVIL_HOST, tag: 'x-host:evil' },
        { name: 'X-Forwarded-Server', value: EVIL_HOST, tag: 'x-forwarded-server:evil' },
      ]),
    ],
  ],
  [
    4,
    'origin',
    (random, ctx) => {
      const [label, value] = random.pick<readonly [string, string]>([
        ['same', `http://${self(ctx)}`],
        ['evil', `https://${EVIL_HOST}`],
        ['evil-port', `http://${EVIL_HOST}:${ctx.port}`],
        ['evil-suffix', `http://${self(ctx)}.${EVIL_HOST}`],
        ['null', 'null'],
        ['junk', 'not a url'],
        ['empty', ''],
        ['https-self', `https://${self(ctx)}`],
      ]);
      return [{ name: 'Origin', value, tag: `origin:${label}` }];
    },
  ],
  [
    2,
    'referer',
    (random, ctx) => {
      const [label, value] = random.pick<readonly [string, string]>([
        ['same', `http://${self(ctx)}/products`],
        ['evil', `https://${EVIL_HOST}/page`],
        ['junk', '::::'],
        ['long', `http://${self(ctx)}/${'r'.repeat(4000)}`],
      ]);
      return [{ name: 'Referer', value, tag: `referer:${label}` }];
    },
  ],
  [
    3,
    'sec-fetch',
    (random) => {
      const site = random.pick(['same-origin', 'same-site', 'cross-site', 'none', 'junk', '']);
      const headers: Header[] = [
        { name: 'Sec-Fetch-Site', value: site, tag: `sec-fetch-site:${site || 'empty'}` },
      ];
      if (random.chance(0.5)) {
        headers.push({
          name: 'Sec-Fetch-Mode',
          value: random.pick(['navigate', 'cors', 'no-cors', 'same-origin', 'junk']),
          tag: 'sec-fetch-mode',
        });
      }
      if (random.chance(0.3)) {
        headers.push({
          name: 'Sec-Fetch-Dest',
          value: random.pick(['document', 'empty', 'iframe', '???']),
          tag: 'sec-fetch-dest',
        });
      }
      return headers;
    },
  ],
  [
    3,
    'cookie',
    (random, ctx) => [buildCookie(random, productIds(ctx.discovery), ctx.discovery.cookies)],
  ],
  [
    1,
    'accept-language',
    one('Accept-Language', 'accept-language', [
      ['junk', ';;;q=x,,'],
      ['star', '*'],
      ['long', 'pt-BR,'.repeat(800)],
      ['weird', 'xx-YYYY-zz;q=2'],
    ]),
  ],
  [
    2,
    'conditional',
    (random) => [
      random.pick<Header>([
        {
          name: 'If-None-Match',
          value: random.pick(['*', '"junk"', 'W/"x", "y"', '']),
          tag: 'if-none-match',
        },
        {
          name: 'If-Modified-Since',
          value: random.pick([
            'junk',
            'Thu, 01 Jan 1970 00:00:00 GMT',
            'Fri, 31 Dec 9999 23:59:59 GMT',
          ]),
          tag: 'if-modified-since',
        },
        { name: 'If-Range', value: 'junk', tag: 'if-range' },
        {
          name: 'Range',
          value: random.pick([
            'bytes=0-0',
            'bytes=abc',
            'bytes=999999999-',
            'bytes=-1',
            'items=0-1',
            Array.from({ length: 200 }, (_v, i) => `${i}-${i}`)
              .join(',')
              .replace(/^/, 'bytes='),
          ]),
          tag: 'range',
        },
      ]),
    ],
  ],
  [
    3,
    'misc',
    (random) => [
      random.pick<Header>([
        {
          name: 'X-Request-Id',
          value: random.pick(['abc-123', 'x'.repeat(200), '../../', '', '<b>']),
          tag: 'x-request-id',
        },
        { name: 'Content-Type', value: 'application/json', tag: 'content-type-on-get' },
        { name: 'Expect', value: random.pick(['100-continue', 'junk']), tag: 'expect' },
        {
          name: 'X-HTTP-Method-Override',
          value: random.pick(['DELETE', 'PUT', 'TRACE']),
          tag: 'method-override',
        },
        { name: 'Sec-Purpose', value: 'prefetch', tag: 'sec-purpose' },
        {
          name: 'Authorization',
          value: random.pick(['Basic !!!', 'Bearer x', 'x'.repeat(3000)]),
          tag: 'authorization',
        },
        { name: 'Max-Forwards', value: random.pick(['0', '-1', 'x']), tag: 'max-forwards' },
        { name: 'X-Junk', value: 'ção ünïcödé', tag: 'utf8-value' },
        { name: 'X-Junk', value: 'v'.repeat(random.pick([12000, 20000])), tag: 'huge-header' },
        {
          name: 'Cache-Control',
          value: random.pick(['no-cache', 'max-age=-1', 'junk']),
          tag: 'cache-control',
        },
        { name: 'Upgrade', value: random.pick(['websocket', 'h2c']), tag: 'upgrade' },
      ]),
    ],
  ],
  [
    1,
    'many-headers',
    (random) =>
      Array.from({ length: random.pick([50, 200]) }, (_v, i) => ({
        name: `X-Junk-${i}`,
        value: random.string(8),
        tag: 'many-headers',
      })),
  ],
  [
    1,
    'malformed-header',
    (random) => [
      random.pick<Header>([
        { name: 'X-Nul', value: 'a\u0000b', tag: 'malformed:nul-in-value', malformed: true },
        { name: 'X Bad', value: '1', tag: 'malformed:space-in-name', malformed: true },
        { name: 'X-Fold', value: 'a\r\n b', tag: 'malformed:obs-fold', malformed: true },
        { name: 'X-Cr', value: 'a\rb', tag: 'malformed:bare-cr', malformed: true },
        { name: 'X-Ctl', value: 'a\u0001b', tag: 'malformed:control-in-value', malformed: true },
        {
          name: 'Content-Length',
          value: random.pick(['abc', '-1', '1, 2']),
          tag: 'malformed:content-length',
          malformed: true,
        },
      ]),
    ],
  ],
];

const ACCEPT_VALUES: readonly (readonly [string, string])[] = [
  ['any', '*/*'],
  ['json', 'application/json'],
  ['html-refused', 'text/html;q=0'],
  ['junk', 'a/b/c;;;q=x'],
  ['long', 'text/html,'.repeat(400)],
  ['empty', ''],
  ['rsc', 'text/x-component'],
  ['form', 'application/x-www-form-urlencoded'],
];

const ENCODING_VALUES: readonly (readonly [string, string])[] = [
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['deflate', 'deflate'],
  ['identity', 'identity'],
  ['star', '*'],
  ['none-acceptable', 'identity;q=0, *;q=0'],
  ['bad-q', 'gzip;q=abc, br;q=-1'],
  ['zstd', 'zstd'],
  ['junk', ',,;;'],
  ['empty', ''],
];

const USER_AGENTS: readonly (readonly [string, string])[] = [
  ['bot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  ['curl', 'curl/8.5.0'],
  ['empty', ''],
  ['long', 'U'.repeat(6000)],
  ['junk', '<script>'],
];

export function baseHeaders(ctx: GeneratorContext, accept: string, random: Random): Header[] {
  return [
    { name: 'Host', value: self(ctx) },
    { name: 'User-Agent', value: BROWSER_UA },
    { name: 'Accept', value: accept },
    { name: 'Accept-Encoding', value: random.pick(['gzip, deflate, br', 'gzip', 'identity']) },
    { name: 'Accept-Language', value: 'pt-BR,pt;q=0.9' },
    { name: 'Connection', value: 'close' },
  ];
}

function replaceHeader(
  headers: Header[],
  name: string,
  value: string,
  tag: string,
  malformed = false,
) {
  const existing = headers.find((header) => header.name === name);
  if (existing) {
    existing.original ??= existing.value;
    existing.value = value;
    existing.tag = tag;
    existing.malformed = malformed || undefined;
  } else {
    headers.splice(headers.length - 1, 0, { name, value, tag, malformed: malformed || undefined });
  }
}

export function mutateHeaders(
  random: Random,
  ctx: GeneratorContext,
  request: FuzzRequest,
  intensity: number,
) {
  const { headers } = request;
  if (random.chance(0.12 * intensity)) {
    const roll = random.next();
    if (roll < 0.1) {
      const host = headers.findIndex((header) => header.name === 'Host');
      headers.splice(host, 1);
    } else if (roll < 0.18) {
      headers.splice(1, 0, { name: 'Host', value: EVIL_HOST, tag: 'host:duplicate-evil' });
    } else {
      const [label, value] = random.pick(HOST_VALUES);
      replaceHeader(headers, 'Host', value, `host:${label}`);
    }
  }
  if (random.chance(0.1 * intensity)) {
    const [label, value] = random.pick(ACCEPT_VALUES);
    replaceHeader(headers, 'Accept', value, `accept:${label}`);
  }
  if (random.chance(0.1 * intensity)) {
    const [label, value] = random.pick(ENCODING_VALUES);
    replaceHeader(headers, 'Accept-Encoding', value, `accept-encoding:${label}`);
  }
  if (random.chance(0.05 * intensity)) {
    const [label, value] = random.pick(USER_AGENTS);
    if (label === 'empty' && random.chance(0.5)) {
      headers.splice(
        headers.findIndex((header) => header.name === 'User-Agent'),
        1,
      );
    } else {
      replaceHeader(headers, 'User-Agent', value, `user-agent:${label}`);
    }
  }
  // A few independent extra headers; the chance of each kind follows its weight.
  const extra = random.weighted([
    [35, 0],
    [40, 1],
    [20, 2],
    [5, 3],
  ] as const);
  for (let i = 0; i < Math.round(extra * intensity); i++) {
    const [, , make] = random.weighted(HEADER_MAKERS.map((entry) => [entry[0], entry] as const));
    for (const header of make(random, ctx)) {
      headers.splice(headers.length - 1, 0, header);
    }
  }
  if (random.chance(0.04 * intensity)) {
    request.version = 'HTTP/1.0';
    if (random.chance(0.5)) {
      const host = headers.findIndex((header) => header.name === 'Host');
      if (host !== -1) headers.splice(host, 1);
    }
  }
}
