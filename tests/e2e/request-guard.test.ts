import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { send, type RawResponse } from '../fuzz/http';
import { startServer, type TestServer } from '../support/server';

interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The request line's protocol; HTTP/1.0 lets a request go without Host. */
  version?: string;
  /** Leave the Host header out. */
  noHost?: boolean;
}

/** One request written byte by byte, so headers Node's clients refuse to send can be tried. */
function raw(server: TestServer, path: string, options: RawOptions = {}): Promise<RawResponse> {
  const { port, hostname } = new URL(server.url);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = {
    ...(options.noHost ? {} : { Host: `${hostname}:${port}` }),
    Connection: 'close',
    ...(body && !options.headers?.['Transfer-Encoding']
      ? { 'Content-Length': String(body.length) }
      : {}),
    ...options.headers,
  };
  const head =
    `${options.method ?? 'GET'} ${path} ${options.version ?? 'HTTP/1.1'}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n';
  const data = body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head);
  return send({ host: hostname, port: Number(port), data, head: false, timeoutMs: 10_000 });
}

function text(response: RawResponse): string {
  return `${response.head}\n${response.body.toString('utf8')}`;
}

function setCookies(response: RawResponse): string[] {
  return response.headers.filter(([name]) => name === 'set-cookie').map(([, value]) => value);
}

function rssKb(server: TestServer): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const CONSENT = 'intent=consent&consent=granted';

describe('the request guard', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each<[string, string, RawOptions, number]>([
    [
      'JSON to /preferences',
      '/preferences',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"intent":"consent"}',
      },
      400,
    ],
    [
      'plain text to /preferences.data',
      '/preferences.data',
      { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: CONSENT },
      400,
    ],
    ['no body to /preferences', '/preferences', { method: 'POST' }, 400],
    [
      'a broken multipart to /cart',
      '/cart',
      {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        body: '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nadd',
      },
      400,
    ],
    [
      'a repeated field to /cart',
      '/cart',
      { method: 'POST', headers: FORM, body: 'intent=clear&intent=add' },
      400,
    ],
    ['Host a<b', '/', { noHost: true, headers: { Host: 'a<b' } }, 400],
    ['Host a b', '/', { noHost: true, headers: { Host: 'a b' } }, 400],
    ['Host [::1', '/products', { noHost: true, headers: { Host: '[::1' } }, 400],
    [
      'X-Forwarded-Proto junk from a trusted proxy',
      '/',
      { headers: { 'X-Forwarded-Proto': 'a b' } },
      400,
    ],
    [
      'X-Forwarded-Host junk from a trusted proxy',
      '/',
      { headers: { 'X-Forwarded-Host': '[::1' } },
      400,
    ],
    ['HTTP/1.0 with no Host', '/', { version: 'HTTP/1.0', noHost: true }, 400],
    ['an absolute-form target', 'http://evil.example/', {}, 400],
    ['TRACE', '/', { method: 'TRACE' }, 405],
    ['a path of 40 segments', '/a'.repeat(40), {}, 414],
    ['a URL of 5,000 characters', `/products?q=${'a'.repeat(5000)}`, {}, 414],
    ['PROPFIND', '/cart', { method: 'PROPFIND' }, 405],
  ])('answers %s with a pt-BR 4xx page, not a 5xx', async (_name, path, options, status) => {
    const response = await raw(server, path, options);
    expect(response.status).toBe(status);
    expect(response.body.toString()).toMatch(/lang="pt-BR"|"error":|inválid|Envie|Método/);
  });

  it.each<[string, string, RawOptions, number]>([
    [
      'a post to a page without an action',
      '/',
      { method: 'POST', headers: FORM, body: 'a=1' },
      405,
    ],
    ['a post to its data', '/_root.data', { method: 'POST', headers: FORM, body: 'a=1' }, 405],
    [
      'a post to a resource route',
      '/sitemap.xml',
      { method: 'POST', headers: FORM, body: 'a=1' },
      405,
    ],
    [
      'a post to a path React Router normalises',
      '/api/cep/..data',
      { method: 'POST', headers: FORM, body: 'a=1' },
      405,
    ],
    [
      'a post to a path of two slashes',
      '//attacker.test/x',
      { method: 'POST', headers: FORM, body: 'a=1' },
      405,
    ],
    ['a GET to a route with only an action', '/preferences', {}, 405],
    ['an unknown page', '/order-confirmation/x', {}, 404],
    ['an unknown page’s data', '/order-confirmation/x.data', {}, 404],
  ])(
    'answers %s in pt-BR, with no English from React Router',
    async (_name, path, options, status) => {
      const response = await raw(server, path, options);
      expect(response.status).toBe(status);
      expect(response.body.toString()).toMatch(/Método não permitido|Não encontrado/);
      expect(response.body.toString()).not.toMatch(
        /Unexpected Server Error|Internal Server Error|You made a|Method Not Allowed|Not Found/,
      );
    },
  );

  it('keeps redirects to printable paths of this site, and still saves the choice', async () => {
    // Control characters never reach a form's values (parseFormData drops them): '/'.
    for (const target of ['/\u0001', '/\u007f']) {
      const body = `intent=theme&theme=dark&redirectTo=${encodeURIComponent(target)}`;
      const response = await raw(server, '/preferences', { method: 'POST', headers: FORM, body });
      expect(response.headers).toContainEqual(['location', '/']);
    }
    for (const target of ['/😀', '/a b', '//evil.example', '/\\evil.example']) {
      const body = `intent=theme&theme=dark&redirectTo=${encodeURIComponent(target)}`;
      const response = await raw(server, '/preferences', { method: 'POST', headers: FORM, body });
      expect(response.status).toBe(200);
      expect(setCookies(response).join()).toContain('vitrine_theme=');
      expect(response.headers.find(([name]) => name === 'location')).toBeUndefined();
    }
    const nul = await raw(server, '/preferences', {
      method: 'POST',
      headers: FORM,
      body: 'intent=theme&theme=dark&redirectTo=%2F%00',
    });
    expect(nul.status).toBe(400);
    expect(nul.body.toString()).toContain('Valor inválido.');
    const back = await raw(server, '/preferences', {
      method: 'POST',
      headers: FORM,
      body: 'intent=theme&theme=dark&redirectTo=%2Fproducts%3Fq%3Dfone',
    });
    expect(back.status).toBe(302);
    expect(back.headers).toContainEqual(['location', '/products?q=fone']);
  });

  it('refuses posts from another site, and takes those from the store and from non-browsers', async () => {
    const refused: RawOptions['headers'][] = [
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Origin: `${server.url}.evil.example` },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: server.url, 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of refused) {
      for (const path of [
        '/preferences',
        '/cart',
        '/cart.data',
        '/nao-existe',
        '/checkout',
        '/order-confirmation',
        '/api/payments/postback',
      ]) {
        const response = await raw(server, path, {
          method: 'POST',
          headers: { ...FORM, ...headers },
          body: path.startsWith('/cart') ? 'intent=clear' : CONSENT,
        });
        expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(setCookies(response)).toEqual([]);
        expect(response.body.toString()).toContain('veio de outro site');
      }
    }
    const accepted: Record<string, string>[] = [
      { Origin: server.url, 'Sec-Fetch-Site': 'same-origin' },
      {},
    ];
    for (const headers of accepted) {
      const response = await raw(server, '/preferences', {
        method: 'POST',
        headers: { ...FORM, ...headers },
        body: CONSENT,
      });
      expect(response.status).toBe(200);
      expect(setCookies(response).join()).toContain('vitrine_consent=');
    }
  });

  it('refuses a 10 MB form body with 413 before reading it', async () => {
    // Only the head and 64 KB are sent: the answer must come without the rest.
    const response = await raw(server, '/cart', {
      method: 'POST',
      headers: { ...FORM, 'Content-Length': String(10 * 1024 * 1024) },
      body: Buffer.alloc(64 * 1024, 'a'),
    });
    expect(response.status, `${response.outcome} ${response.errorCode}`).toBe(413);
  });

  it('stops keeping a body sent without a length at the limit', async () => {
    const before = rssKb(server);
    // 100 MB in 1 MB chunks: kept, it would show in the server's memory many times over.
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const framed = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    const body = Buffer.concat([
      ...Array.from({ length: 100 }, () => framed),
      Buffer.from('0\r\n\r\n'),
    ]);
    const streamed = await raw(server, '/cart', {
      method: 'POST',
      // Kept alive, as browsers send: with "Connection: close" the server closes right after its
      // answer, and the reset it sends a client still writing can destroy the unread 413.
      headers: { ...FORM, 'Transfer-Encoding': 'chunked', Connection: 'keep-alive' },
      body,
    });
    expect(streamed.status, `${streamed.outcome} ${streamed.errorCode}`).toBe(413);
    const grownKb = rssKb(server) - before;
    expect(grownKb, `RSS grew by ${grownKb} kB`).toBeLessThan(48 * 1024);
  });

  it('never writes a request host it does not know into an answer', async () => {
    const paths = [
      '/',
      '/products',
      '/cart',
      '/sobre',
      '/sitemap.xml',
      '/robots.txt',
      '/nao-existe',
      '/_root.data',
    ];
    for (const path of paths) {
      const spoofed: Record<string, string>[] = [
        { Host: 'evil.example' },
        { 'X-Forwarded-Host': 'evil.example' },
      ];
      for (const headers of spoofed) {
        const response = await raw(server, path, { noHost: 'Host' in headers, headers });
        expect(response.status, path).toBe(400);
        expect(text(response)).not.toContain('evil.example');
        expect(response.body.toString()).toContain('Endereço do site não reconhecido.');
      }
    }
    const home = await raw(server, '/', { noHost: true, headers: { Host: 'localhost' } });
    expect(home.status).toBe(200);
    expect(home.body.toString()).toContain('<link rel="canonical" href="http://localhost/"');
  });

  it('marks cookies Secure when the request came over https through a trusted proxy', async () => {
    const response = await raw(server, '/preferences', {
      method: 'POST',
      headers: { ...FORM, 'X-Forwarded-Proto': 'https' },
      body: CONSENT,
    });
    expect(setCookies(response)[0]).toMatch(/; Secure$/);
    const plain = await raw(server, '/preferences', {
      method: 'POST',
      headers: FORM,
      body: CONSENT,
    });
    expect(setCookies(plain)[0]).not.toMatch(/Secure/);
  });

  it('answers a missing build file with a plain 404', async () => {
    const response = await raw(server, '/assets/entry.client-nao-existe.js');
    expect(response.status).toBe(404);
    expect(response.headers).toContainEqual(['content-type', 'text/plain; charset=utf-8']);
    expect(response.body.toString()).toBe('Arquivo não encontrado.');
  });

  it('logs refusals at warn, one line each, without stacks', () => {
    const refusals = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"refused"'));
    expect(refusals.length).toBeGreaterThan(20);
    for (const line of refusals) {
      expect(line).toContain('"level":40');
      expect(line).not.toContain('stack');
    }
    expect(server.output()).not.toContain('"level":50');
    expect(server.output()).toContain('PUBLIC_URL não está definida');
  });
});

describe('behind a proxy, with PUBLIC_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      env: { PUBLIC_URL: 'https://loja.example.com.br', TRUST_PROXY: 'false' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('builds every absolute URL from PUBLIC_URL, whatever the Host', async () => {
    for (const path of ['/', '/sitemap.xml', '/robots.txt']) {
      const response = await raw(server, path, { noHost: true, headers: { Host: 'evil.example' } });
      expect(response.status).toBe(200);
      expect(text(response)).not.toContain('evil.example');
      expect(response.body.toString()).toContain('https://loja.example.com.br/');
    }
    expect(server.output()).not.toContain('PUBLIC_URL não está definida');
  });

  it('ignores forwarded headers from a proxy it does not trust', async () => {
    const response = await raw(server, '/preferences', {
      method: 'POST',
      headers: { ...FORM, 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' },
      body: CONSENT,
    });
    expect(response.status).toBe(200);
    expect(setCookies(response)[0]).not.toMatch(/Secure/);
  });

  it('takes a post from a page at the public address', async () => {
    const response = await raw(server, '/cart', {
      method: 'POST',
      headers: {
        ...FORM,
        Accept: 'text/html',
        Origin: 'https://loja.example.com.br',
        'Sec-Fetch-Site': 'same-origin',
      },
      body: 'intent=clear',
    });
    expect(response.status).toBe(303);
  });
});
