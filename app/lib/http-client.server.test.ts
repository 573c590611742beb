import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  Agent as HttpsAgent,
  createServer as createHttpsServer,
  type Server as HttpsServer,
} from 'node:https';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { makeTestPki, type TestPki } from '../../tests/support/fake-pix-api';

import { callOutsideService, OutsideServiceError, redactSecrets } from './http-client.server';

const SECRET = 'tok_4f1c9a7e2b';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

let server: Server;
let base: string;
let handlers: Handler[];
let seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      // Each request takes the next handler; the last one answers the rest.
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0]!;
      handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  handlers = [(_request, response) => response.end('{"ok":true}')];
});

const answer =
  (status: number, text = ''): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(text);
  };
const silent: Handler = () => {};
// Closes the connection without an answer: what a dropped connection looks like to fetch.
const hangUp: Handler = (request) => request.socket.destroy();

const call = (path: string, options: Partial<Parameters<typeof callOutsideService>[1]> = {}) =>
  callOutsideService(`${base}${path}`, {
    service: 'test',
    timeoutMs: 1_000,
    maxResponseBytes: 1024,
    retryDelayMs: () => 10,
    ...options,
  });

async function failure(promise: Promise<unknown>): Promise<OutsideServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutsideServiceError);
  return error as OutsideServiceError;
}

describe('callOutsideService', () => {
  it('sends the method, headers and body, and returns any answer with its status', async () => {
    handlers = [answer(422, '{"message":"no"}')];
    const result = await call('/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': SECRET },
      body: '{"a":1}',
    });
    expect(result).toEqual({ status: 422, ok: false, text: '{"message":"no"}' });
    expect(seen).toEqual([
      expect.objectContaining({ method: 'POST', url: '/orders', body: '{"a":1}' }),
    ]);
    expect(seen[0]!.headers['x-api-token']).toBe(SECRET);
  });

  it('gives up at its time limit, on no answer and on an answer that stalls halfway', async () => {
    handlers = [silent];
    const started = performance.now();
    expect((await failure(call('/slow', { timeoutMs: 150 }))).failure).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1_500);

    handlers = [
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"half":');
      },
    ];
    expect((await failure(call('/stall', { timeoutMs: 150 }))).failure).toBe('timeout');
  });

  it('ends when the caller’s own signal does', async () => {
    handlers = [silent];
    const error = await failure(call('/slow', { signal: AbortSignal.timeout(100) }));
    expect(error.failure).toBe('aborted');
  });

  it('refuses an answer over the cap, by its length or while it streams, keeping the status', async () => {
    handlers = [answer(200, 'x'.repeat(1025))];
    const declared = await failure(call('/big'));
    expect(declared).toMatchObject({ failure: 'too-large', status: 200 });

    handlers = [
      (_request, response) => {
        response.writeHead(201, { 'content-type': 'text/plain' });
        for (let i = 0; i < 64; i++) response.write('y'.repeat(64));
        response.end();
      },
    ];
    expect(await failure(call('/stream'))).toMatchObject({ failure: 'too-large', status: 201 });

    handlers = [answer(200, 'z'.repeat(1024))];
    expect((await call('/exact')).text).toHaveLength(1024);
  });

  it('keeps secrets out of its errors, even one the HTTP library quotes', async () => {
    const badSecret = `${SECRET}\nX-Injected: 1`;
    const error = await failure(
      call(`/x?key=${SECRET}`, { headers: { authorization: badSecret }, secrets: [badSecret] }),
    );
    expect(error.failure).toBe('network');
    expect(`${error.message} ${error.stack}`).not.toContain(badSecret);
    expect(seen).toHaveLength(0);

    const refused = await failure(
      callOutsideService(`http://127.0.0.1:1/${SECRET}`, {
        service: 'test',
        timeoutMs: 1_000,
        maxResponseBytes: 1024,
        secrets: [SECRET],
        fetch: () => Promise.reject(new TypeError(`cannot reach /${SECRET}`)),
      }),
    );
    expect(refused.message).toBe('cannot reach /***');
  });

  it('does not follow a redirect, which would carry the secrets elsewhere', async () => {
    handlers = [
      (_request, response) => {
        response.writeHead(307, { location: `${base}/elsewhere` });
        response.end();
      },
    ];
    expect((await failure(call('/moved'))).failure).toBe('network');
    expect(seen.map((request) => request.url)).toEqual(['/moved']);
  });

  it('retries a GET after a dropped connection or a 502/503/504, up to its retries', async () => {
    handlers = [hangUp, answer(503), answer(200, 'found')];
    expect(await call('/lookup', { retries: 2 })).toEqual({ status: 200, ok: true, text: 'found' });
    expect(seen).toHaveLength(3);

    seen = [];
    handlers = [answer(502, 'down')];
    expect(await call('/lookup', { retries: 1 })).toMatchObject({ status: 502, text: 'down' });
    expect(seen).toHaveLength(2);
  });

  it('never retries a refusal, a timeout or a call without retries', async () => {
    handlers = [answer(404)];
    expect((await call('/missing', { retries: 2 })).status).toBe(404);
    expect(seen).toHaveLength(1);

    seen = [];
    handlers = [silent];
    await failure(call('/slow', { retries: 2, timeoutMs: 100 }));
    expect(seen).toHaveLength(1);

    seen = [];
    handlers = [answer(503)];
    expect((await call('/once')).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('retries a POST only with an idempotency key, which it sends', async () => {
    await expect(call('/pay', { method: 'POST', body: '{}', retries: 1 })).rejects.toThrow(
      TypeError,
    );
    expect(seen).toHaveLength(0);

    handlers = [answer(503), answer(200, 'done')];
    const result = await call('/pay', {
      method: 'POST',
      body: '{}',
      retries: 1,
      idempotencyKey: 'order-42',
    });
    expect(result.text).toBe('done');
    expect(seen.map((request) => request.headers['idempotency-key'])).toEqual([
      'order-42',
      'order-42',
    ]);

    seen = [];
    handlers = [answer(201, 'made')];
    await call('/pay', {
      method: 'POST',
      body: '{}',
      idempotencyKey: 'order-43',
      idempotencyHeader: 'X-Idempotency-Key',
    });
    expect(seen[0]?.headers['x-idempotency-key']).toBe('order-43');
    expect(seen[0]?.headers['idempotency-key']).toBeUndefined();
  });
});

describe('redactSecrets', () => {
  it('writes every secret as ***, ignoring empty ones', () => {
    expect(redactSecrets(`a ${SECRET} b ${SECRET} c key2`, [SECRET, '', 'key2'])).toBe(
      'a *** b *** c ***',
    );
    expect(redactSecrets('nothing', [])).toBe('nothing');
  });
});

describe('over mutual TLS (an https agent with a client certificate)', () => {
  let pki: TestPki;
  let tlsServer: HttpsServer;
  let tlsBase: string;
  let agent: HttpsAgent;

  beforeAll(async () => {
    pki = await makeTestPki();
    tlsServer = createHttpsServer(
      {
        key: await readFile(pki.serverKey),
        cert: await readFile(pki.serverCert),
        ca: await readFile(pki.caCert),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (request, response) => {
        if (request.url === '/moved') {
          response.writeHead(302, { Location: 'https://elsewhere.test/' }).end();
          return;
        }
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => response.end(JSON.stringify({ method: request.method, body })));
      },
    );
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    tlsBase = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
    agent = new HttpsAgent({
      cert: await readFile(pki.clientCert),
      key: await readFile(pki.clientKey),
      ca: await readFile(pki.caCert),
    });
  }, 60_000);

  afterAll(async () => {
    agent?.destroy();
    tlsServer?.closeAllConnections();
    await new Promise((resolve) => tlsServer?.close(resolve));
    await pki?.remove();
  });

  const tls = { service: 'test', timeoutMs: 5_000, maxResponseBytes: 1_000 };

  it('sends a PUT with its body through the agent, and may retry it', async () => {
    const answer = await callOutsideService(`${tlsBase}/cob/x`, {
      ...tls,
      method: 'PUT',
      body: '{"a":1}',
      retries: 1,
      agent,
    });
    expect(answer).toEqual({
      status: 200,
      ok: true,
      text: '{"method":"PUT","body":"{\\"a\\":1}"}',
    });
  });

  it('is refused by the server without the agent’s certificate, and follows no redirect', async () => {
    const stranger = new HttpsAgent({ ca: await readFile(pki.caCert) });
    await expect(
      callOutsideService(`${tlsBase}/cob/x`, { ...tls, agent: stranger }),
    ).rejects.toThrow(OutsideServiceError);
    stranger.destroy();
    await expect(callOutsideService(`${tlsBase}/moved`, { ...tls, agent })).rejects.toThrow(
      OutsideServiceError,
    );
  });

  it('caps the answer’s size as without an agent', async () => {
    await expect(
      callOutsideService(`${tlsBase}/cob/x`, {
        ...tls,
        method: 'PUT',
        body: 'x'.repeat(2_000),
        agent,
      }),
    ).rejects.toMatchObject({ failure: 'too-large' });
  });
});
