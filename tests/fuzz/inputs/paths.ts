import type { RouteTarget } from '../discovery';
import type { Random } from '../random';

import {
  COMMON_PARAMS,
  EVIL_HOST,
  encodeLoosely,
  junkValue,
  OTHER_HOST,
  pickMap,
  uuid,
  type GeneratorContext,
} from './common';

// Paths with real and hostile segments, mangled paths, and hostile query strings.

function insertIntoPath(random: Random, path: string, token: string): string {
  const segments = path.split('/');
  const at = random.int(1, Math.max(1, segments.length - 1));
  const segment = segments[at] ?? '';
  const cut = random.int(0, segment.length);
  segments[at] = random.chance(0.3) ? token : segment.slice(0, cut) + token + segment.slice(cut);
  return segments.join('/');
}

const HOSTILE_SEGMENTS: readonly string[] = [
  '',
  '%00',
  '%7F',
  '%E0%A4%A',
  '%',
  '..',
  '%2e%2e',
  '.',
  '-1',
  '0',
  '1e309',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '%27%20OR%201=1--',
  '%F0%9F%98%80',
  '😀',
  'x'.repeat(300),
  '5A3B1E00-0000-4000-8000-000000000D01',
  '5a3b1e00-0000-4000-8000-000000000d01%20',
  '5a3b1e00-0000-4000-8000-00000000000g',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '%3Cscript%3E',
];

const SPLAT_VALUES: readonly string[] = [
  'nao-existe',
  'a/b/c',
  'index.html',
  'index.php',
  'wp-admin/setup-config.php',
  '.env',
  '.git/config',
  'admin',
  'checkout',
  'api/products',
  '%2e%2e/%2e%2e/etc/passwd',
];

/** The route's URL with its dynamic segments filled, mostly with values the store really has. */
export function concretePath(random: Random, route: RouteTarget): string {
  const segments: string[] = [];
  for (const segment of route.pattern.split('/').filter(Boolean)) {
    const optional = segment.endsWith('?');
    if (optional && random.chance(0.5)) continue;
    const bare = optional ? segment.slice(0, -1) : segment;
    if (bare === '*') {
      const real = pickMap(random, route.params, '*');
      segments.push(real && random.chance(0.5) ? real : random.pick(SPLAT_VALUES));
    } else if (bare.startsWith(':')) {
      const real = pickMap(random, route.params, bare.slice(1));
      if (real && random.chance(0.7)) segments.push(real);
      else if (random.chance(0.3)) segments.push(uuid(random));
      else segments.push(random.pick(HOSTILE_SEGMENTS));
    } else {
      segments.push(bare);
    }
  }
  return `/${segments.join('/')}`;
}

/** React Router's single-fetch URL for a document URL. */
export function dataPath(path: string): string {
  const bare = path.replace(/\/+$/, '');
  return `${bare === '' ? '/_root' : bare}.data`;
}

type PathMutation = (random: Random, path: string, ctx: GeneratorContext) => string;

export const PATH_MUTATIONS: readonly (readonly [string, PathMutation])[] = [
  ['nul', (r, p) => insertIntoPath(r, p, '%00')],
  ['del', (r, p) => insertIntoPath(r, p, '%7F')],
  [
    'broken-pct',
    (r, p) => insertIntoPath(r, p, r.pick(['%E0%A4%A', '%', '%zz', '%C0%AF', '%ED%A0%80', '%FF'])),
  ],
  [
    'dotdot',
    (r, p) =>
      r.pick([
        `${p}/..`,
        `${p}/../..`,
        `/%2e%2e${p}`,
        `${p}/..%2f..%2f..%2fetc%2fpasswd`,
        `/assets/../../package.json`,
        `/assets/%2e%2e/%2e%2e/server/main.js`,
        `${p}/..;/`,
        `/.%2e${p}`,
        `/..\\..\\package.json`,
      ]),
  ],
  [
    'double-slash',
    (r, p) => r.pick([`/${p}`, `${p}//`, insertIntoPath(r, p, '/'), `//${OTHER_HOST}${p}`]),
  ],
  ['long-segment', (r, p) => insertIntoPath(r, p, 'x'.repeat(r.pick([300, 2000, 8000, 20000])))],
  ['emoji-encoded', (r, p) => insertIntoPath(r, p, '%F0%9F%98%80')],
  ['utf8-raw', (r, p) => insertIntoPath(r, p, r.pick(['😀', 'ção', '\u202e', '\u00a0']))],
  [
    'backslash',
    (r, p) => r.pick([`${p}\\`, `\\${p}`, `/\\${OTHER_HOST}`, insertIntoPath(r, p, '%5C')]),
  ],
  ['encoded-slash', (r, p) => insertIntoPath(r, p, '%2F')],
  [
    'suffix',
    (r, p) =>
      p +
      r.pick([
        '/',
        '.',
        '%20',
        ';jsessionid=1',
        '.json',
        '.data',
        '.data.data',
        '/index.html',
        '~',
      ]),
  ],
  ['uppercase', (_r, p) => p.toUpperCase()],
  // 6,000 segments stay under Node's 16 KB header limit, so the app has to cope with them. The
  // long ones are rarer: one that costs the server seconds needs finding once, not fifty times.
  [
    'many-segments',
    (r, p) =>
      `${p}${'/a'.repeat(
        r.weighted([
          [4, 50],
          [3, 500],
          [2, 3000],
          [1, 6000],
        ]),
      )}`,
  ],
  ['dot-segment', (r, p) => insertIntoPath(r, p, '.')],
  ['unicode-ws', (r, p) => insertIntoPath(r, p, r.pick(['%E2%80%8B', '%C2%A0', '%E2%80%AE']))],
  ['absolute-form-evil', (_r, p) => `http://${EVIL_HOST}${p}`],
  ['absolute-form-self', (_r, p, ctx) => `http://${ctx.host}:${ctx.port}${p}`],
  ['asterisk', () => '*'],
  ['no-leading-slash', (_r, p) => p.replace(/^\/+/, '') || 'x'],
  ['fragment', (_r, p) => `${p}#frag`],
];

function paramNames(route: RouteTarget | undefined): string[] {
  return [...new Set([...(route ? route.queryFields.keys() : []), ...COMMON_PARAMS])];
}

type QueryMutation = (random: Random, names: string[], route: RouteTarget | undefined) => string;

const QUERY_MUTATIONS: readonly (readonly [number, string, QueryMutation])[] = [
  [
    20,
    'real-values',
    (r, names, route) =>
      r
        .shuffle(names)
        .slice(0, r.int(1, 4))
        .map(
          (n) =>
            `${n}=${encodeURIComponent(route ? (pickMap(r, route.queryFields, n) ?? '') : '')}`,
        )
        .join('&'),
  ],
  [
    25,
    'junk-values',
    (r, names) =>
      r
        .shuffle(names)
        .slice(0, r.int(1, 5))
        .map((n) => `${n}=${encodeLoosely(r, junkValue(r))}`)
        .join('&'),
  ],
  [
    6,
    'repeated',
    (r, names) => {
      const name = r.pick(names);
      return Array.from(
        { length: r.int(2, 50) },
        () => `${name}=${encodeLoosely(r, junkValue(r))}`,
      ).join('&');
    },
  ],
  [5, 'array', (r, names) => `${r.pick(names)}[]=1&${r.pick(names)}[]=2&${r.pick(names)}[0]=x`],
  [3, 'nested', (r, names) => `${r.pick(names)}[a][b][c]=1&${r.pick(names)}[__proto__][x]=1`],
  [3, 'proto', () => '__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__=x'],
  [4, 'huge', (r, names) => `${r.pick(names)}=${'a'.repeat(r.pick([4000, 12000, 20000]))}`],
  [
    5,
    'control',
    (r, names) =>
      `${r.pick(names)}=${r.pick(['%00', '%01', '%0A', '%0D%0A', '%1B', '%7F', '%08'])}x`,
  ],
  [5, 'broken-pct', (r, names) => `${r.pick(names)}=${r.pick(['%E0%A4%A', '%', '%zz', '%C0%AF'])}`],
  [4, 'broken-pct-name', () => `${'%E0%A4%A'}=1&%=%&%%=%%`],
  [4, 'empty-forms', (r) => r.pick(['', '&&&', '=', '=&=', '?', '&=&', 'a', '=a', '&'])],
  [
    2,
    'many',
    (r) => Array.from({ length: r.pick([200, 1000]) }, (_v, i) => `p${i}=${i}`).join('&'),
  ],
  [2, 'semicolon', (r, names) => `${r.pick(names)}=1;${r.pick(names)}=2`],
  [2, 'raw-utf8', (r, names) => `${r.pick(names)}=ção😀`],
  [3, 'index', (r) => r.pick(['index', 'index=', 'index=1&index', 'index=%00'])],
  [
    4,
    'routes-param',
    (r) =>
      `_routes=${r.pick(['', 'root', 'routes/store/layout,routes/store/home', 'x,y,z', '%00', 'a'.repeat(3000)])}`,
  ],
];

export function buildQuery(
  random: Random,
  route: RouteTarget | undefined,
): { query: string; tag?: string } {
  const [, label, build] = random.weighted(
    QUERY_MUTATIONS.map((entry) => [entry[0], entry] as const),
  );
  return { query: `?${build(random, paramNames(route), route)}`, tag: `query:${label}` };
}
