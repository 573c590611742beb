import type { Random } from '../random';

import { EVIL_HOST, self, type GeneratorContext } from './common';

// Requests that are not (quite) HTTP: Node's parser answers most of them before the app runs.

type RawMaker = (random: Random, ctx: GeneratorContext) => string | Buffer;

export const RAW_MAKERS: readonly (readonly [string, RawMaker])[] = [
  ['http09', () => 'GET /\r\n'],
  [
    'http10-no-host',
    (r) => `GET ${r.pick(['/', '/products', '/cart', '/healthz'])} HTTP/1.0\r\n\r\n`,
  ],
  ['lf-only', (_r, c) => `GET / HTTP/1.1\nHost: ${self(c)}\nConnection: close\n\n`],
  ['bare-cr', (_r, c) => `GET / HTTP/1.1\rHost: ${self(c)}\r\n\r\n`],
  ['no-blank-line', (_r, c) => `GET / HTTP/1.1\r\nHost: ${self(c)}\r\n`],
  [
    'space-in-target',
    (_r, c) => `GET /a b HTTP/1.1\r\nHost: ${self(c)}\r\nConnection: close\r\n\r\n`,
  ],
  ['tabs', (_r, c) => `GET\t/\tHTTP/1.1\r\nHost: ${self(c)}\r\nConnection: close\r\n\r\n`],
  ['no-version', (_r, c) => `GET /\r\nHost: ${self(c)}\r\n\r\n`],
  [
    'bad-version',
    (r, c) =>
      `GET / ${r.pick(['HTTP/1.2', 'HTTP/2.0', 'HTTP/9.9', 'http/1.1', 'HTTP/1', 'HTTP/1.1x'])}\r\nHost: ${self(c)}\r\nConnection: close\r\n\r\n`,
  ],
  ['h2-preface', () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ['tls-hello', () => Buffer.from('16030100a5010000a10303', 'hex')],
  ['random-bytes', (r) => Buffer.from(Array.from({ length: r.int(1, 4000) }, () => r.int(0, 255)))],
  ['empty', () => ''],
  [
    'huge-request-line',
    (_r, c) => `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: ${self(c)}\r\n\r\n`,
  ],
  [
    'too-many-headers',
    (_r, c) =>
      `GET / HTTP/1.1\r\nHost: ${self(c)}\r\n${'a: 1\r\n'.repeat(3000)}Connection: close\r\n\r\n`,
  ],
  [
    'header-no-colon',
    (_r, c) => `GET / HTTP/1.1\r\nHost: ${self(c)}\r\nNoColonHere\r\nConnection: close\r\n\r\n`,
  ],
  [
    'space-before-colon',
    (_r, c) => `GET / HTTP/1.1\r\nHost : ${self(c)}\r\nConnection: close\r\n\r\n`,
  ],
  [
    'nul-in-target',
    (_r, c) => `GET /\u0000 HTTP/1.1\r\nHost: ${self(c)}\r\nConnection: close\r\n\r\n`,
  ],
  [
    'pipelined',
    (r, c) =>
      `GET / HTTP/1.1\r\nHost: ${self(c)}\r\n\r\n${r.pick(['TRACE', 'POST', 'GET'])} /${r.pick(['cart', 'preferences', '%00'])} HTTP/1.1\r\nHost: ${EVIL_HOST}\r\nContent-Length: 5\r\nConnection: close\r\n\r\nx=1&y`,
  ],
  [
    'cl-te-smuggle',
    (_r, c) =>
      `POST / HTTP/1.1\r\nHost: ${self(c)}\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG`,
  ],
  [
    'te-space',
    (_r, c) =>
      `POST /cart HTTP/1.1\r\nHost: ${self(c)}\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n`,
  ],
  [
    'get-with-chunked-body',
    (_r, c) =>
      `GET / HTTP/1.1\r\nHost: ${self(c)}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n`,
  ],
  [
    'options-asterisk',
    (_r, c) => `OPTIONS * HTTP/1.1\r\nHost: ${self(c)}\r\nConnection: close\r\n\r\n`,
  ],
  [
    'authority-form',
    (_r, c) => `GET ${self(c)} HTTP/1.1\r\nHost: ${self(c)}\r\nConnection: close\r\n\r\n`,
  ],
  ['connect', () => `CONNECT ${EVIL_HOST}:443 HTTP/1.1\r\nHost: ${EVIL_HOST}:443\r\n\r\n`],
  [
    'utf8-header-name',
    (_r, c) => `GET / HTTP/1.1\r\nHost: ${self(c)}\r\nX-Çã: 1\r\nConnection: close\r\n\r\n`,
  ],
  [
    'latin1-bytes',
    (_r, c) =>
      Buffer.concat([
        Buffer.from('GET /'),
        Buffer.from([0xff, 0xfe, 0x80]),
        Buffer.from(` HTTP/1.1\r\nHost: ${self(c)}\r\nConnection: close\r\n\r\n`),
      ]),
  ],
];
