import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { logger } from '~/lib/logger.server';

import { createGatewayProvider, type GatewayOptions } from './gateway.server';
import type { PaymentOutcome, PaymentRequest } from './types';

const SECRET = 'sk_live_9f8e7d6c5b4a3210';
const ORDER_ID = '3f2a9c1e-7b4d-4e8a-9f10-5c6d7e8f9a0b';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (request: Seen, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      handler(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let warn: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  seen = [];
  handler = (_request, response) => json(response, 500, {});
  warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  // Whatever happened, the key stays out of the logs as well as the answers.
  expect(JSON.stringify(warn.mock.calls)).not.toContain(SECRET);
  warn.mockRestore();
});

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function answer(status: number, body: unknown): Handler {
  return (_request, response) => json(response, status, body);
}

function gateway(options: Partial<GatewayOptions> = {}) {
  return createGatewayProvider({
    baseUrl,
    secretKey: SECRET,
    publicUrl: 'https://loja.test/',
    ...options,
  });
}

const request = (overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  orderId: ORDER_ID,
  attempt: 'first',
  description: 'Pedido #1042',
  deadline: null,
  amountCents: 2 * 15990 + 3990,
  method: 'pix',
  customer: {
    name: 'Maria Silva',
    email: 'maria@example.com',
    cpf: '529.982.247-25',
    phone: '(11) 98765-4321',
  },
  items: [
    { productId: 'p1', title: 'Fone de Ouvido', unitPriceCents: 15990, quantity: 2 },
    { productId: null, title: 'Cabo USB-C', unitPriceCents: 3990, quantity: 1 },
  ],
  utmQuery: 'utm_source=instagram&utm_campaign=verao',
  ...overrides,
});

function expectError(outcome: PaymentOutcome<unknown>, error: string) {
  expect(outcome).toEqual({ ok: false, error });
  expect(JSON.stringify(outcome)).not.toContain(SECRET);
}

const CREATED = {
  id: 'tx_123',
  customId: 'VTR-1',
  status: 'PENDING',
  expiresAt: '2025-03-10T13:00:00.000Z',
  pixCode: '00020126...6304ABCD',
  pixQrCode: 'https://gateway.test/qr/tx_123.png',
  billetUrl: null,
  billetCode: null,
};

describe('gateway create', () => {
  it('posts the purchase as SPEC §7 describes, with the key in Authorization', async () => {
    handler = answer(200, CREATED);
    const outcome = await gateway().create(request());

    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call!.method).toBe('POST');
    expect(call!.url).toBe('/v1/transaction.purchase');
    expect(call!.headers.authorization).toBe(SECRET);
    expect(call!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(call!.body)).toEqual({
      name: 'Maria Silva',
      email: 'maria@example.com',
      cpf: '52998224725',
      phone: '11987654321',
      paymentMethod: 'PIX',
      amount: 35970,
      traceable: true,
      items: [
        { unitPrice: 15990, title: 'Fone de Ouvido', quantity: 2, tangible: false },
        { unitPrice: 3990, title: 'Cabo USB-C', quantity: 1, tangible: false },
      ],
      externalId: ORDER_ID,
      // From the store's PUBLIC_URL, whatever host the shopper's request named.
      postbackUrl: 'https://loja.test/api/payments/postback',
      utmQuery: 'utm_source=instagram&utm_campaign=verao',
    });

    expect(outcome).toEqual({
      ok: true,
      value: {
        paymentId: 'tx_123',
        status: 'pending',
        pixCode: '00020126...6304ABCD',
        pixQrCode: 'https://gateway.test/qr/tx_123.png',
        billetUrl: null,
        billetCode: null,
        paymentUrl: null,
        expiresAt: new Date('2025-03-10T13:00:00.000Z'),
      },
    });
  });

  it('accepts a base URL with a trailing slash and a numeric id', async () => {
    handler = answer(201, { id: 42, status: 'WAITING_PAYMENT' });
    const outcome = await gateway({ baseUrl: `${baseUrl}/` }).create(request());
    expect(seen[0]!.url).toBe('/v1/transaction.purchase');
    expect(outcome).toMatchObject({
      ok: true,
      value: { paymentId: '42', status: 'pending', pixCode: null, expiresAt: null },
    });
  });

  it('checks the request before calling', async () => {
    expectError(
      await gateway().create(request({ amountCents: 500 })),
      'Valor mínimo para pagamento é R$ 5,01',
    );
    expect(seen).toHaveLength(0);
  });

  it("shows the gateway's message", async () => {
    handler = answer(400, { message: 'CPF inválido', issues: [{ message: 'ignored' }] });
    expectError(await gateway().create(request()), 'CPF inválido');
  });

  it('joins the issue messages when there is no message', async () => {
    handler = answer(422, {
      issues: [{ message: 'Telefone inválido' }, { path: ['cpf'] }, { message: 'E-mail inválido' }],
      error: 'ignored',
    });
    expectError(await gateway().create(request()), 'Telefone inválido, E-mail inválido');
  });

  it('falls back to the error field', async () => {
    handler = answer(401, { error: 'Chave inválida' });
    expectError(await gateway().create(request()), 'Chave inválida');
  });

  it('says only "Erro ao processar pagamento" for a failure with nothing to say', async () => {
    handler = (_request, response) => {
      response.writeHead(500);
      response.end();
    };
    expectError(await gateway().create(request()), 'Erro ao processar pagamento');

    handler = (_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body>Bad Gateway</body></html>');
    };
    expectError(await gateway().create(request()), 'Erro ao processar pagamento');

    handler = answer(500, { message: '', issues: [], error: null });
    expectError(await gateway().create(request()), 'Erro ao processar pagamento');
  });

  it('calls a success that is not JSON an invalid response', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>ok</html>');
    };
    expectError(await gateway().create(request()), 'Resposta inválida da API de pagamento');

    handler = answer(200, ['tx_123']);
    expectError(await gateway().create(request()), 'Resposta inválida da API de pagamento');
  });

  it('calls an answer without an id an invalid response', async () => {
    handler = answer(200, { ...CREATED, id: undefined });
    expectError(await gateway().create(request()), 'Resposta inválida da API de pagamento');

    handler = answer(200, { ...CREATED, id: '  ' });
    expectError(await gateway().create(request()), 'Resposta inválida da API de pagamento');
  });

  it('stops reading an answer over 1 MB', async () => {
    handler = answer(200, { ...CREATED, padding: 'x'.repeat(1024 * 1024) });
    expectError(await gateway().create(request()), 'Resposta inválida da API de pagamento');

    handler = (_request, response) => {
      // No Content-Length: the cap must hold while streaming too.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`{"id":"tx_1","padding":"`);
      for (let i = 0; i < 17; i++) response.write('y'.repeat(64 * 1024));
      response.end('"}');
    };
    expectError(await gateway().create(request()), 'Resposta inválida da API de pagamento');
  });

  it('gives up after timeoutMs when the gateway never answers, in Portuguese', async () => {
    handler = () => {};
    const started = Date.now();
    const outcome = await gateway({ timeoutMs: 200 }).create(request());
    expect(Date.now() - started).toBeLessThan(5_000);
    expectError(outcome, 'O serviço de pagamento não respondeu. Tente novamente.');
  });

  it('gives up when the answer stalls halfway', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":');
    };
    expectError(
      await gateway({ timeoutMs: 200 }).create(request()),
      'O serviço de pagamento não respondeu. Tente novamente.',
    );
  });

  it('turns a network failure into Portuguese', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    expectError(
      await gateway({ baseUrl: `http://127.0.0.1:${port}` }).create(request()),
      'Erro ao processar pagamento',
    );
  });

  it('does not follow a redirect with the key', async () => {
    handler = (_request, response) => {
      response.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' });
      response.end();
    };
    expectError(await gateway().create(request()), 'Erro ao processar pagamento');
    expect(seen).toHaveLength(1);
  });

  it('never shows the secret key, even when the gateway echoes it', async () => {
    handler = answer(401, { message: `Chave ${SECRET} inválida` });
    expectError(await gateway().create(request()), 'Chave *** inválida');
  });

  it('never shows a key the HTTP client refuses to send', async () => {
    const badKey = `${SECRET}\nX-Injected: 1`;
    const outcome = await gateway({ secretKey: badKey }).create(request());
    expectError(outcome, 'Erro ao processar pagamento');
    expect(JSON.stringify(warn.mock.calls)).not.toContain(badKey);
    expect(seen).toHaveLength(0);
  });

  it('uses the fetch it is given', async () => {
    const fake = vi.fn(async () => Response.json({ id: 'tx_9', status: 'APPROVED' }));
    const outcome = await gateway({ baseUrl: 'https://gateway.test', fetch: fake }).create(
      request(),
    );
    expect(fake).toHaveBeenCalledWith(
      'https://gateway.test/transaction.purchase',
      expect.objectContaining({ method: 'POST' }),
    );
    expect(outcome).toMatchObject({ ok: true, value: { paymentId: 'tx_9', status: 'approved' } });
  });
});

describe('gateway status', () => {
  const mappings: [string, string][] = [
    ['PENDING', 'pending'],
    ['WAITING_PAYMENT', 'pending'],
    ['APPROVED', 'approved'],
    ['PAID', 'approved'],
    ['REJECTED', 'rejected'],
    ['REFUSED', 'rejected'],
    ['FAILED', 'rejected'],
    ['CANCELED', 'rejected'],
    ['EXPIRED', 'expired'],
    ['REFUNDED', 'refunded'],
    ['CHARGEBACK', 'chargeback'],
    ['CHARGEDBACK', 'chargeback'],
    ['paid', 'approved'],
  ];

  it.each(mappings)('reads %s as %s', async (gatewayStatus, ours) => {
    handler = answer(200, { id: 'tx_123', status: gatewayStatus });
    await expect(gateway().status('tx_123')).resolves.toEqual({
      ok: true,
      value: { status: ours, paymentId: 'tx_123', orderId: null, details: null },
    });
  });

  it('asks with GET, the id in the query and the same key', async () => {
    handler = answer(200, { status: 'PAID' });
    await gateway().status('tx 1&x=2');
    expect(seen[0]).toMatchObject({
      method: 'GET',
      url: '/v1/transaction.getPayment?id=tx%201%26x%3D2',
    });
    expect(seen[0]!.headers.authorization).toBe(SECRET);
  });

  it('reports an unknown status as an error, not as a guess', async () => {
    handler = answer(200, { status: 'IN_ANALYSIS' });
    expectError(await gateway().status('tx_123'), 'Erro ao verificar status do pagamento');
  });

  it('calls an answer without a status an invalid response', async () => {
    handler = answer(200, { id: 'tx_123' });
    expectError(await gateway().status('tx_123'), 'Resposta inválida da API de pagamento');
  });

  it("shows the gateway's message when it refuses", async () => {
    handler = answer(404, { message: 'Transação não encontrada' });
    expectError(await gateway().status('tx_404'), 'Transação não encontrada');

    handler = answer(500, {});
    expectError(await gateway().status('tx_123'), 'Erro ao verificar status do pagamento');
  });

  it('gives up after timeoutMs', async () => {
    handler = () => {};
    expectError(
      await gateway({ timeoutMs: 200 }).status('tx_123'),
      'O serviço de pagamento não respondeu. Tente novamente.',
    );
  });

  it('does not ask about an empty id', async () => {
    expectError(await gateway().status(''), 'Pagamento não encontrado');
    expect(seen).toHaveLength(0);
  });
});
