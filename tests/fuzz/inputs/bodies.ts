import type { RouteTarget } from '../discovery';
import type { Random } from '../random';

import { COMMON_PARAMS, formEncode, junkValue, pickMap, type Header } from './common';

// Request bodies for actions: real forms, broken forms, multipart, JSON, lies about their size.

export interface BuiltBody {
  body?: Buffer;
  contentType?: string;
  contentTypeTag?: string;
  tag: string;
  contentLength?: string;
  partial?: boolean;
  extraHeaders?: Header[];
  mayClose?: boolean;
}

const GENERIC_FIELDS = ['intent', 'id', 'name', 'email', 'password', 'redirectTo', 'quantity'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A real 1×1 PNG: an upload that passes as an image, so its file name reaches the database. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
  'base64',
);
/** The form's own file inputs (uploads, logo_upload…), else names any route may take. */
const fileField = (r: Random, route: RouteTarget | undefined) =>
  r.pick([
    ...[...(route?.postFields.keys() ?? [])].filter((name) => /upload|file|image|csv/i.test(name)),
    'file',
    'intent',
    'productId',
  ]);

/** The route's real form fields, mostly with real values, mixed with junk. */
function pickFields(random: Random, route: RouteTarget | undefined): [string, string][] {
  const names = route && route.postFields.size > 0 ? [...route.postFields.keys()] : GENERIC_FIELDS;
  // Often a form exactly as the page would send it, so the action gets past its first checks.
  if (route && route.postFields.size > 0 && random.chance(0.4)) {
    return names.map((name) => [name, pickMap(random, route.postFields, name) ?? '']);
  }
  const fields: [string, string][] = [];
  for (const name of names) {
    if (!random.chance(0.85)) continue;
    const real = route ? pickMap(random, route.postFields, name) : undefined;
    // A real id in capitals is the same record: it must be compared as the database does.
    const value =
      real !== undefined && UUID.test(real) && random.chance(0.2) ? real.toUpperCase() : real;
    fields.push([name, value !== undefined && random.chance(0.75) ? value : junkValue(random)]);
  }
  if (random.chance(0.3)) {
    for (let i = random.int(1, 3); i > 0; i--) {
      fields.push([
        random.pick([random.string(6), ...COMMON_PARAMS, '__proto__', '']),
        junkValue(random),
      ]);
    }
  }
  if (random.chance(0.15) && fields.length > 0) {
    const [name] = random.pick(fields);
    fields.push([name, junkValue(random)]);
  }
  return random.shuffle(fields);
}

function multipart(
  fields: readonly [string, string][],
  boundary: string,
  newline = '\r\n',
): string {
  const parts = fields.map(
    ([name, value]) =>
      `--${boundary}${newline}Content-Disposition: form-data; name="${name}"${newline}${newline}${value}${newline}`,
  );
  return `${parts.join('')}--${boundary}--${newline}`;
}

function chunked(body: Buffer, random: Random): Buffer {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < body.length;) {
    const size = Math.min(body.length - offset, random.int(1, 64));
    pieces.push(
      Buffer.from(`${size.toString(16)}\r\n`),
      body.subarray(offset, offset + size),
      Buffer.from('\r\n'),
    );
    offset += size;
  }
  pieces.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(pieces);
}

const FORM = 'application/x-www-form-urlencoded';

type BodyMaker = (random: Random, route: RouteTarget | undefined) => BuiltBody;

const BODY_MAKERS: readonly (readonly [number, string, BodyMaker])[] = [
  [
    30,
    'form',
    (r, route) => ({
      body: Buffer.from(formEncode(pickFields(r, route), r)),
      contentType: FORM,
      tag: 'form',
    }),
  ],
  [
    4,
    'form-junk',
    (r) => ({
      body: Buffer.from(
        formEncode(
          Array.from({ length: r.int(1, 8) }, () => [r.string(r.int(0, 10)), junkValue(r)]),
          r,
        ),
      ),
      contentType: FORM,
      tag: 'form-junk',
    }),
  ],
  [
    4,
    'form-duplicated',
    (r, route) => {
      const fields = pickFields(r, route);
      return {
        body: Buffer.from(
          formEncode([...fields, ...fields.map(([n]) => [n, junkValue(r)] as [string, string])], r),
        ),
        contentType: FORM,
        tag: 'form-duplicated',
      };
    },
  ],
  [
    3,
    'form-huge-field',
    (r, route) => {
      const fields = pickFields(r, route);
      const size = r.weighted([
        [6, 100_000],
        [3, 600_000],
        [1, 2_000_000],
      ]);
      fields.push([fields[0]?.[0] ?? 'x', 'a'.repeat(size)]);
      return {
        body: Buffer.from(formEncode(r.shuffle(fields), r)),
        contentType: FORM,
        tag: `form-huge-field`,
      };
    },
  ],
  [
    2,
    'form-many-fields',
    (r) => ({
      body: Buffer.from(
        Array.from({ length: r.pick([2000, 20000]) }, (_v, i) => `f${i}=${i}`).join('&'),
      ),
      contentType: FORM,
      tag: 'form-many-fields',
    }),
  ],
  [
    4,
    'form-broken-encoding',
    (r, route) => ({
      body: Buffer.from(
        `${formEncode(pickFields(r, route), r)}&${r.pick(['%E0%A4%A', 'a=%', '%zz=%zz', '&&&', '=====', 'a=%FF%FE', '+++=+++'])}`,
      ),
      contentType: FORM,
      tag: 'form-broken-encoding',
    }),
  ],
  [
    14,
    'multipart',
    (r, route) => {
      const boundary = `----fuzz${r.string(16)}`;
      return {
        body: Buffer.from(multipart(pickFields(r, route), boundary)),
        contentType: `multipart/form-data; boundary=${boundary}`,
        tag: 'multipart',
      };
    },
  ],
  [
    4,
    'multipart-file',
    (r, route) => {
      const boundary = `----fuzz${r.string(16)}`;
      const fields = multipart(pickFields(r, route), boundary).replace(
        new RegExp(`--${boundary}--\\r\\n$`),
        '',
      );
      const filename = r.pick([
        'a.txt',
        '../../etc/passwd',
        'ção😀.png',
        '',
        'x'.repeat(1000),
        'foto\0.png',
        'a\u0001\u001f\u007fb.png',
      ]);
      const content = r.chance(0.3) ? TINY_PNG : Buffer.from(r.string(r.pick([10, 50_000])));
      return {
        body: Buffer.concat([
          Buffer.from(
            `${fields}--${boundary}\r\nContent-Disposition: form-data; name="${fileField(r, route)}"; filename="${filename}"\r\n` +
              `Content-Type: ${r.pick(['application/octet-stream', 'image/png'])}\r\n\r\n`,
          ),
          content,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
        contentType: `multipart/form-data; boundary=${boundary}`,
        tag: 'multipart-file',
      };
    },
  ],
  [
    10,
    'multipart-broken',
    (r, route) => {
      const boundary = `fuzz${r.string(12)}`;
      const fields = pickFields(r, route);
      const variants: [string, () => [string, string]][] = [
        [
          'no-final-boundary',
          () => [
            multipart(fields, boundary).replace(/--\r\n$/, '\r\n'),
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
        [
          'wrong-boundary',
          () => [multipart(fields, boundary), `multipart/form-data; boundary=other${boundary}`],
        ],
        ['no-boundary-param', () => [multipart(fields, boundary), 'multipart/form-data']],
        ['empty-boundary', () => [multipart(fields, ''), 'multipart/form-data; boundary=""']],
        [
          'lf-only',
          () => [multipart(fields, boundary, '\n'), `multipart/form-data; boundary=${boundary}`],
        ],
        [
          'no-disposition',
          () => [
            `--${boundary}\r\n\r\nvalue\r\n--${boundary}--\r\n`,
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
        [
          'no-name',
          () => [
            `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--${boundary}--\r\n`,
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
        [
          'many-parts',
          () => [
            multipart(
              Array.from({ length: 3000 }, (_v, i) => [`p${i}`, '']),
              boundary,
            ),
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
        [
          'huge-part-header',
          () => [
            `--${boundary}\r\nContent-Disposition: form-data; name="${'n'.repeat(20000)}"\r\n\r\nv\r\n--${boundary}--\r\n`,
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
        [
          'long-boundary',
          () => {
            const long = 'b'.repeat(300);
            return [multipart(fields, long), `multipart/form-data; boundary=${long}`];
          },
        ],
        [
          'preamble-epilogue',
          () => [
            `garbage\r\n${multipart(fields, boundary)}trailing garbage`,
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
        [
          'truncated',
          () => [
            multipart(fields, boundary).slice(0, r.int(1, 40)),
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
        [
          'encoded-filename',
          () => [
            `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename*=UTF-8''%E0%A4%A\r\n\r\nx\r\n--${boundary}--\r\n`,
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
        ['mixed', () => [multipart(fields, boundary), `multipart/mixed; boundary=${boundary}`]],
        [
          'quote-in-name',
          () => [
            multipart([['a"b\r\nX: y', 'v']], boundary),
            `multipart/form-data; boundary=${boundary}`,
          ],
        ],
      ];
      const [label, make] = r.pick(variants);
      const [body, contentType] = make();
      return {
        body: Buffer.from(body),
        contentType,
        contentTypeTag: `ct:multipart-${label}`,
        tag: `multipart-broken:${label}`,
      };
    },
  ],
  [
    8,
    'json',
    (r, route) => {
      const fields = Object.fromEntries(pickFields(r, route));
      const [label, body] = r.pick<readonly [string, string]>([
        ['object', JSON.stringify(fields)],
        ['array', JSON.stringify(Object.entries(fields))],
        ['scalar', r.pick(['"string"', 'null', '1', 'true'])],
        ['proto', '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'],
        ['invalid', r.pick(['{"a":', '{', "{'a':1}", '[1,2', 'undefined'])],
        ['deep', `${'['.repeat(10000)}${']'.repeat(10000)}`],
        ['huge-number', '{"quantity":1e999999}'],
      ]);
      const contentType = r.pick([
        'application/json',
        'application/json; charset=utf-16',
        'text/json',
        'application/vnd.api+json',
      ]);
      return {
        body: Buffer.from(body),
        contentType,
        contentTypeTag: `ct:${contentType.split(';')[0]}`,
        tag: `json:${label}`,
      };
    },
  ],
  [
    4,
    'text-plain',
    (r, route) => ({
      body: Buffer.from(
        pickFields(r, route)
          .map(([n, v]) => `${n}=${v}`)
          .join('\r\n'),
      ),
      contentType: 'text/plain',
      tag: 'text-plain',
    }),
  ],
  [
    5,
    'empty',
    (r) =>
      r.pick<BuiltBody>([
        { tag: 'empty:zero-length', contentType: FORM },
        { tag: 'empty:no-content-type' },
        { tag: 'empty:no-content-length', contentLength: 'none', contentType: FORM },
        { tag: 'empty:multipart', contentType: 'multipart/form-data; boundary=x' },
      ]),
  ],
  [
    5,
    'content-type-lie',
    (r, route) => {
      const contentType = r.pick([
        'application/json',
        'multipart/form-data; boundary=nope',
        `${FORM}; charset=utf-16`,
        `${FORM}; charset=junk`,
        'text/html',
        'application/octet-stream',
        'x'.repeat(2000),
        '',
        ';;;',
        `${FORM}, multipart/form-data`,
      ]);
      return {
        body: Buffer.from(formEncode(pickFields(r, route), r)),
        contentType,
        contentTypeTag: `ct:lie-${contentType.slice(0, 40)}`,
        tag: 'form-under-wrong-type',
      };
    },
  ],
  [
    4,
    'chunked',
    (r, route) => ({
      body: chunked(Buffer.from(formEncode(pickFields(r, route), r)), r),
      contentType: FORM,
      contentLength: 'none',
      extraHeaders: [
        { name: 'Transfer-Encoding', value: 'chunked', tag: 'transfer-encoding:chunked' },
      ],
      tag: 'chunked',
    }),
  ],
  [
    3,
    'binary',
    (r) => ({
      body: Buffer.from(Array.from({ length: r.int(1, 4000) }, () => r.int(0, 255))),
      contentType: r.pick([FORM, 'multipart/form-data; boundary=x', 'application/json']),
      tag: 'binary',
    }),
  ],
  [
    3,
    'oversized-claim',
    (r, route) => {
      const claim = r.pick([10_000_000, 100_000_000, 1_000_000_000]);
      return {
        body: Buffer.from(
          `${formEncode(pickFields(r, route), r)}&x=${'a'.repeat(r.pick([100, 60_000]))}`,
        ),
        contentType: FORM,
        contentLength: String(claim),
        partial: true,
        tag: `oversized-claim:${claim / 1_000_000}MB`,
      };
    },
  ],
  [
    2,
    'content-length-smaller',
    (r, route) => {
      const body = Buffer.from(formEncode(pickFields(r, route), r));
      return {
        body,
        contentType: FORM,
        contentLength: String(Math.max(0, body.length - r.int(1, 10))),
        tag: 'content-length-smaller',
      };
    },
  ],
  [
    2,
    'framing-broken',
    (r, route) => {
      const body = Buffer.from(formEncode(pickFields(r, route), r));
      const [label, framed, headers, contentLength] = r.pick<
        readonly [string, Buffer, Header[], string]
      >([
        [
          'te-and-cl',
          chunked(body, r),
          [{ name: 'Transfer-Encoding', value: 'chunked' }],
          String(body.length),
        ],
        [
          'bad-chunk-size',
          Buffer.from(`zz\r\n${body.toString()}\r\n0\r\n\r\n`),
          [{ name: 'Transfer-Encoding', value: 'chunked' }],
          'none',
        ],
        [
          'te-gzip-chunked',
          chunked(body, r),
          [{ name: 'Transfer-Encoding', value: 'gzip, chunked' }],
          'none',
        ],
        ['te-identity', body, [{ name: 'Transfer-Encoding', value: 'identity' }], 'none'],
        [
          'duplicate-cl',
          body,
          [{ name: 'Content-Length', value: String(body.length + 1) }],
          String(body.length),
        ],
      ]);
      return {
        body: framed,
        contentType: FORM,
        contentLength,
        extraHeaders: headers.map((h) => ({ ...h, tag: `framing:${label}`, malformed: true })),
        tag: `framing:${label}`,
        mayClose: true,
      };
    },
  ],
];

export function buildBody(random: Random, route: RouteTarget | undefined): BuiltBody {
  const [, , make] = random.weighted(BODY_MAKERS.map((entry) => [entry[0], entry] as const));
  return make(random, route);
}
