import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { spawnServer, startServer, type TestServer } from '../support/server';
import { prepareStoreFolder } from '../support/store';

/** A raw GET, so the test sees the bytes and headers as they left the server. */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>(
    (resolve, reject) => {
      request(url, { headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      })
        .on('error', reject)
        .end();
    },
  );
}

/** What under `folder` (itself included) another user could read, enter or change. */
function openToOthers(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .concat(folder)
    .filter((path) => (lstatSync(path).mode & 0o077) !== 0);
}

describe('the Node server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ firstStart: true });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers /healthz with the database reachable', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'pglite' });
  });

  it('sends security headers, with a fresh script nonce per response', async () => {
    const first = await fetch(server.url);
    const html = await first.text();
    const csp = first.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(first.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(first.headers.get('x-powered-by')).toBeNull();

    const second = await fetch(server.url);
    expect(second.headers.get('content-security-policy')).not.toContain(nonce);
  });

  it('compresses with brotli or gzip, as the client accepts', async () => {
    expect(
      (await rawGet(server.url, { 'accept-encoding': 'br' })).headers['content-encoding'],
    ).toBe('br');
    expect(
      (await rawGet(server.url, { 'accept-encoding': 'gzip' })).headers['content-encoding'],
    ).toBe('gzip');
  });

  it("serves hashed assets to be cached for good, with a file's headers and no page's", async () => {
    const html = await (await fetch(server.url)).text();
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const cached = await rawGet(`${server.url}${asset}`);
    expect(cached.status).toBe(200);
    expect(cached.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(cached.headers['x-content-type-options']).toBe('nosniff');
    expect(cached.headers['cross-origin-resource-policy']).toBe('same-origin');
    // A page's policy, framing and opener headers mean nothing on a stylesheet.
    for (const name of [
      'content-security-policy',
      'x-frame-options',
      'cross-origin-opener-policy',
      'referrer-policy',
    ]) {
      expect(cached.headers[name], name).toBeUndefined();
    }
    // Sent as the file the build compressed; another method gets a plain 404 (found by fuzzing:
    // it was labelled brotli).
    const compressed = await rawGet(`${server.url}${asset}`, { 'accept-encoding': 'br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    // Brotli too when the browser lists gzip first, as Chromium does.
    const chromium = await rawGet(`${server.url}${asset}`, {
      'accept-encoding': 'gzip, deflate, br, zstd',
    });
    expect(chromium.headers['content-encoding']).toBe('br');
    const gzipOnly = await rawGet(`${server.url}${asset}`, { 'accept-encoding': 'gzip' });
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    const deleted = await fetch(`${server.url}${asset}`, {
      method: 'DELETE',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(deleted.status).toBe(404);
    expect(deleted.headers.get('content-encoding')).toBeNull();
    expect(await deleted.text()).toBe('Arquivo não encontrado.');
  });

  it("serves public/'s files for a year at the addresses pages use, briefly at any other", async () => {
    const html = await (await fetch(server.url)).text();
    const picture = /src="(\/sample\/[\w-]+\.svg\?v=[0-9a-f]+)"/.exec(html)?.[1];
    expect(picture).toBeTruthy();
    const versioned = await rawGet(`${server.url}${picture}`, { 'accept-encoding': 'br' });
    expect(versioned.status).toBe(200);
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The SVG the build compressed, and a policy that runs nothing should it be opened alone.
    expect(versioned.headers['content-encoding']).toBe('br');
    expect(versioned.headers['content-type']).toBe('image/svg+xml');
    expect(versioned.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    expect(versioned.headers['x-frame-options']).toBeUndefined();
    expect(html).toMatch(/<link rel="icon" href="\/favicon\.svg\?v=[0-9a-f]+"/);

    // A file of public/ keeps its name when it changes: without the current version, its
    // address is kept an hour and then checked again.
    const path = picture!.split('?')[0];
    for (const other of [path, `${path}?v=0`]) {
      const answer = await rawGet(`${server.url}${other}`);
      expect(answer.status, other).toBe(200);
      expect(answer.headers['cache-control'], other).toBe(
        'public, max-age=3600, stale-while-revalidate=604800',
      );
      expect(answer.headers.etag, other).toBeTruthy();
    }
  });

  it('keeps what it writes in its data folder readable by its own user only', async () => {
    // A first start: the database, its lock, the secrets key, the backups' folders, all new.
    await fetch(`${server.url}/products`);
    expect(openToOthers(server.dataDir)).toEqual([]);
  });

  it('refuses to open a database folder another server is using', async () => {
    const second = spawnServer({ dataDir: server.dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('já está em uso por outro processo do Vitrine');
    // The first server is unharmed.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe('a data folder left open to other users', () => {
  it('is closed on start, every file and folder in it', async () => {
    const dataDir = await prepareStoreFolder({});
    try {
      await mkdir(join(dataDir, 'mail'));
      await writeFile(join(dataDir, 'mail', 'pedido.eml'), 'To: cliente@example.com');
      execFileSync('chmod', ['-R', 'a+rwX', dataDir]);
      expect(openToOthers(dataDir).length).toBeGreaterThan(100);

      const server = await startServer({ dataDir });
      expect(openToOthers(dataDir)).toEqual([]);
      expect(statSync(join(dataDir, 'mail', 'pedido.eml')).mode & 0o777).toBe(0o600);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      await server.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('slow and greedy clients', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', MAX_CONNECTIONS: '3' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A socket that sends `data` and resolves with what came back once the server closed it. */
  function openSocket(data: string) {
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.write(data);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<{ received: string; afterMs: number }>((resolve) => {
      const started = performance.now();
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ received, afterMs: performance.now() - started }));
    });
    return { socket, closed };
  }

  it('closes a connection whose headers or body do not arrive in time', async () => {
    const slowHeaders = openSocket('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Lento: ');
    const slowBody = openSocket(
      'POST /cart HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
        'Content-Length: 100\r\n\r\nintent=',
    );
    for (const { closed } of [slowHeaders, slowBody]) {
      const { received, afterMs } = await closed;
      expect(received).toMatch(/^HTTP\/1\.1 (408|400) /);
      expect(afterMs).toBeLessThan(5_000);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('holds at most MAX_CONNECTIONS connections open', async () => {
    const held = [1, 2, 3].map(() => openSocket(''));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const extra = openSocket('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect((await extra.closed).received).toBe('');
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map(({ closed }) => closed));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe('shutdown', () => {
  it('stops cleanly on SIGTERM: finishes, closes the database and exits 0', async () => {
    const server = await startServer();
    const inFlight = fetch(server.url).then((response) => response.status);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const code = await server.stop('SIGTERM');
    expect(await inFlight).toBe(200);
    expect(code).toBe(0);
    expect(server.output()).toContain('"msg":"Servidor parado"');
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('answers /healthz with 503 during SHUTDOWN_DELAY_MS, then closes the listener', async () => {
    const server = await startServer({ env: { SHUTDOWN_DELAY_MS: '1500' } });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const draining = await fetch(`${server.url}/healthz`);
    expect(draining.status).toBe(503);
    expect(draining.headers.get('connection')).toBe('close');
    expect(await draining.json()).toEqual({ status: 'shutting-down' });
    // Shoppers' requests are still served meanwhile.
    expect((await fetch(`${server.url}/products`)).status).toBe(200);
    expect(await server.exited).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    await server.stop();
  });

  it('lets the next server open the same folder right away', async () => {
    const first = await startServer();
    const dataDir = first.dataDir;
    // Keep the folder: stop() only removes folders the fixture made, and this one is reused.
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    const second = await startServer({ dataDir });
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    await second.stop();
  });
});
