import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

async function get(cep: string) {
  const answer = await loader({ params: { cep } } as Parameters<typeof loader>[0]);
  return {
    status: answer.init?.status ?? 200,
    cacheControl: new Headers(answer.init?.headers).get('Cache-Control'),
    body: answer.data,
  };
}

describe('GET /api/cep/:cep', () => {
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
});
