import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { describeDb } from '../../../tests/support/db';

import { loader } from './cep';

// ViaCEP's stand-in: one known CEP, one unknown, and the rest fail.
const server = createServer((request, response) => {
  if (request.url === '/ws/01310100/json/') {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(
      JSON.stringify({
        cep: '01310-100',
        logradouro: 'Avenida Paulista',
        bairro: 'Bela Vista',
        localidade: 'São Paulo',
        uf: 'SP',
      }),
    );
  } else if (request.url === '/ws/99999999/json/') {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('{"erro": "true"}');
  } else {
    response.writeHead(500).end();
  }
});
const savedUrl = process.env.CEP_SERVICE_URL;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Read once, when the first request creates the process's lookup.
  process.env.CEP_SERVICE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
});

afterAll(async () => {
  if (savedUrl === undefined) delete process.env.CEP_SERVICE_URL;
  else process.env.CEP_SERVICE_URL = savedUrl;
  await new Promise((resolve) => server.close(resolve));
});

describeDb('GET /api/cep/:cep', ({ db }) => {
  async function get(cep: string, clientIp = '203.0.113.7') {
    const answer = await loader({
      params: { cep },
      context: { db: db(), clientIp },
    } as unknown as Parameters<typeof loader>[0]);
    const headers = new Headers(answer.init?.headers);
    return {
      status: answer.init?.status ?? 200,
      cacheControl: headers.get('Cache-Control'),
      ...(headers.has('Retry-After') ? { retryAfter: headers.get('Retry-After') } : {}),
      body: answer.data,
    };
  }

  it('answers the address, cacheable for a day', async () => {
    expect(await get('01310-100')).toEqual({
      status: 200,
      cacheControl: 'public, max-age=86400',
      body: {
        ok: true,
        address: {
          zipCode: '01310100',
          street: 'Avenida Paulista',
          neighborhood: 'Bela Vista',
          city: 'São Paulo',
          state: 'SP',
        },
      },
    });
  });

  it('answers 400 for a malformed CEP', async () => {
    expect(await get('0131')).toMatchObject({
      status: 400,
      body: { ok: false, message: 'CEP inválido. Use o formato 00000-000.' },
    });
  });

  it('answers 404 for a CEP that does not exist', async () => {
    expect(await get('99999999')).toMatchObject({
      status: 404,
      body: { ok: false, message: 'CEP não encontrado. Preencha o endereço manualmente.' },
    });
  });

  it('answers 200, never cached, when the service fails', async () => {
    expect(await get('12345678')).toEqual({
      status: 200,
      cacheControl: 'no-store',
      body: {
        ok: false,
        message: 'Não foi possível buscar o CEP agora. Preencha o endereço manualmente.',
      },
    });
  });

  it('answers 429 to an address past 20 look-ups a minute that reach the service, not for cached ones', async () => {
    await get('01310-100');
    for (let i = 0; i < 20; i++) expect((await get('12345678')).status).toBe(200);
    const refused = await get('12345678');
    expect(refused).toMatchObject({
      status: 429,
      cacheControl: 'no-store',
      retryAfter: expect.stringMatching(/^([1-9]|[1-5][0-9]|60)$/),
      body: {
        ok: false,
        message: expect.stringMatching(
          /^Muitas buscas de CEP em pouco tempo\. Preencha o endereço manualmente ou aguarde (\d+ segundos?|1 minuto)\.$/,
        ),
      },
    });
    // Remembered answers and malformed CEPs never reach the service, so they still come.
    expect((await get('01310-100')).status).toBe(200);
    expect((await get('0131')).status).toBe(400);
    expect((await get('12345678', '203.0.113.8')).status).toBe(200);
  });
});
