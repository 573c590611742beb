import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createCepLookup, type CepLookupOptions } from './cep.server';

const PAULISTA = {
  cep: '01310-100',
  logradouro: 'Avenida Paulista',
  complemento: 'de 1047 a 1865 - lado ímpar',
  bairro: 'Bela Vista',
  localidade: 'São Paulo',
  uf: 'SP',
  ibge: '3550308',
};

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

// A stand-in for ViaCEP: each test says how it answers, and every request path is recorded.
let handler: Handler;
let requests: string[];
let baseUrl: string;
const server = createServer((request, response) => {
  requests.push(request.url ?? '');
  handler(request, response);
});

function json(body: unknown, status = 200): Handler {
  return (_, response) => {
    response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
}

function lookupWith(options: Partial<CepLookupOptions> = {}) {
  const failures: unknown[] = [];
  const { lookup } = createCepLookup({
    baseUrl,
    timeoutMs: 500,
    onUnavailable: (cause) => failures.push(cause),
    ...options,
  });
  return { lookup, failures };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ws/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = [];
  handler = json(PAULISTA);
});

describe('the CEP lookup', () => {
  it('finds an address in ViaCEP’s format', async () => {
    const { lookup } = lookupWith();
    expect(await lookup('01310-100')).toEqual({
      ok: true,
      address: {
        zipCode: '01310100',
        street: 'Avenida Paulista',
        neighborhood: 'Bela Vista',
        city: 'São Paulo',
        state: 'SP',
      },
    });
    expect(requests).toEqual(['/ws/01310100/json/']);
  });

  it('accepts a town with one CEP, without street or neighbourhood', async () => {
    handler = json({
      cep: '78175-000',
      logradouro: '',
      bairro: '',
      localidade: 'Poconé',
      uf: 'MT',
    });
    const { lookup } = lookupWith();
    const result = await lookup('78175000');
    expect(result.ok && result.address).toMatchObject({ street: '', city: 'Poconé', state: 'MT' });
  });

  it.each([true, 'true'])('reads {"erro": %j} as not found', async (erro) => {
    handler = json({ erro });
    const { lookup, failures } = lookupWith();
    expect(await lookup('99999999')).toEqual({ ok: false, reason: 'not_found' });
    expect(failures).toEqual([]);
  });

  it.each(['0131010', '013101000', '01310_100', 'abcdefgh', '../../x', '', ' '])(
    'refuses the malformed CEP %j without asking the service',
    async (cep) => {
      const { lookup } = lookupWith();
      expect(await lookup(cep)).toEqual({ ok: false, reason: 'invalid' });
      expect(requests).toEqual([]);
    },
  );

  it('gives up on a service that never answers, at its time limit', async () => {
    handler = () => {};
    const { lookup, failures } = lookupWith({ timeoutMs: 200 });
    const started = performance.now();
    expect(await lookup('01310100')).toEqual({ ok: false, reason: 'unavailable' });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(failures).toHaveLength(1);
  });

  it('gives up on an answer that stalls halfway', async () => {
    handler = (_, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"cep": "01310-100",');
    };
    const { lookup } = lookupWith({ timeoutMs: 200 });
    expect(await lookup('01310100')).toEqual({ ok: false, reason: 'unavailable' });
  });

  it.each([
    ['not JSON', (_, response) => response.end('<html>Bad gateway</html>')],
    ['an HTTP error', json({ message: 'down' }, 502)],
    ['a 400', json({ erro: true }, 400)],
    ['an unknown state', json({ ...PAULISTA, uf: 'XX' })],
    ['no city', json({ ...PAULISTA, localidade: '' })],
    ['an overlong street', json({ ...PAULISTA, logradouro: 'a'.repeat(161) })],
    ['an array', json([PAULISTA])],
    ['an oversized answer', json({ ...PAULISTA, padding: 'x'.repeat(64 * 1024) })],
    [
      'an oversized answer without a length',
      (_, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write(`{"padding": "${'x'.repeat(64 * 1024)}`);
        response.end('"}');
      },
    ],
  ] satisfies [string, Handler][])('calls %s unavailable', async (_, answer) => {
    handler = answer;
    const { lookup, failures } = lookupWith();
    expect(await lookup('01310100')).toEqual({ ok: false, reason: 'unavailable' });
    expect(failures).toHaveLength(1);
  });

  it('never rejects, even when the service cannot be reached', async () => {
    const { lookup } = lookupWith({ baseUrl: 'http://127.0.0.1:1/ws' });
    expect(await lookup('01310100')).toEqual({ ok: false, reason: 'unavailable' });
    const broken = lookupWith({
      fetch: () => {
        throw new TypeError('no network');
      },
      onUnavailable: () => {
        throw new Error('the logger failed too');
      },
    });
    expect(await broken.lookup('01310100')).toEqual({ ok: false, reason: 'unavailable' });
    expect(await broken.lookup(42 as unknown as string)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('remembers an address: the service is asked once for two lookups', async () => {
    const { lookup } = lookupWith();
    const first = await lookup('01310100');
    expect(await lookup('01310-100')).toEqual(first);
    expect(requests).toHaveLength(1);
  });

  it('remembers a CEP that does not exist', async () => {
    handler = json({ erro: true });
    const { lookup } = lookupWith();
    await lookup('99999999');
    expect(await lookup('99999999')).toEqual({ ok: false, reason: 'not_found' });
    expect(requests).toHaveLength(1);
  });

  it('does not remember a failure', async () => {
    handler = json({}, 503);
    const { lookup } = lookupWith();
    expect(await lookup('01310100')).toEqual({ ok: false, reason: 'unavailable' });
    handler = json(PAULISTA);
    expect((await lookup('01310100')).ok).toBe(true);
    expect(requests).toHaveLength(2);
  });

  it('asks again once an answer is older than its time to live', async () => {
    let now = 0;
    const { lookup } = lookupWith({ ttlMs: 1_000, now: () => now });
    await lookup('01310100');
    now = 999;
    await lookup('01310100');
    expect(requests).toHaveLength(1);
    now = 1_000;
    await lookup('01310100');
    expect(requests).toHaveLength(2);
  });

  it('forgets the least recently used CEP when full', async () => {
    const { lookup } = lookupWith({ cacheSize: 2 });
    await lookup('01310100');
    await lookup('01310200');
    await lookup('01310100'); // now the most recently used
    await lookup('01310300'); // pushes out 01310200
    expect(requests).toHaveLength(3);
    await lookup('01310100');
    await lookup('01310300');
    expect(requests).toHaveLength(3);
    await lookup('01310200');
    expect(requests).toHaveLength(4);
  });

  it('asks the service once for concurrent lookups of the same CEP', async () => {
    const held: ServerResponse[] = [];
    handler = (_, response) => {
      held.push(response);
    };
    const { lookup } = lookupWith({ timeoutMs: 2_000 });
    const answers = Promise.all([lookup('01310100'), lookup('01310-100'), lookup('01310100')]);
    await expect.poll(() => requests.length).toBe(1);
    json(PAULISTA)(undefined as never, held[0]!);
    const [first, ...rest] = await answers;
    expect(first.ok).toBe(true);
    for (const other of rest) expect(other).toBe(first);
    expect(requests).toHaveLength(1);
  });
});
