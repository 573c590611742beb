import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake service received, its body parsed as JSON when it was JSON. */
export interface RecordedRequest {
  method: string;
  /** The path without the query, such as /v1/transaction.purchase. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
}

/** What the SPEC §7 gateway's transaction.purchase receives. */
export interface PurchaseBody {
  name: string;
  email: string;
  cpf: string;
  phone: string;
  paymentMethod: string;
  amount: number;
  traceable: boolean;
  items: { unitPrice: number; title: string; quantity: number; tangible: boolean }[];
  externalId: string;
  postbackUrl: string;
  utmQuery: string;
}

export type GatewayStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'REFUNDED' | 'CHARGEBACK';

/**
 * How the next purchases are answered: a transaction (`ok`), an HTTP 500 page (`error`), or a
 * 200 whose JSON lacks the transaction id (`missing-id`).
 */
export type PurchaseMode = 'ok' | 'error' | 'missing-id';

export interface Transaction {
  id: string;
  status: GatewayStatus;
  pixCode: string;
  purchase: PurchaseBody;
}

export interface FakeGateway {
  /** The base URL for PAYMENT_GATEWAY_URL, such as http://127.0.0.1:41234/v1. */
  url: string;
  /** Every request, in order, including refused ones. */
  requests: RecordedRequest[];
  transactions: Map<string, Transaction>;
  /** How purchases are answered from now on. */
  purchaseMode: PurchaseMode;
  /** Payment ids whose transaction.getPayment answers a 500. */
  failingStatus: Set<string>;
  /** The purchases received, in order (whatever the answer was). */
  purchases(): PurchaseBody[];
  setStatus(id: string, status: GatewayStatus): void;
  close(): Promise<void>;
}

/**
 * One request as a fake received it: a JSON body parsed, a form's fields as an object, anything
 * else kept as text, so a test can see what was sent (the fake's route refuses it).
 */
export async function recordRequest(
  request: IncomingMessage,
  base: string,
): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const url = new URL(request.url ?? '/', base);
  let body: unknown = text === '' ? undefined : text;
  if (
    text !== '' &&
    request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
  ) {
    body = Object.fromEntries(new URLSearchParams(text));
  } else if (text !== '') {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Kept as text.
    }
  }
  return {
    method: request.method ?? '',
    path: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    body,
    at: Date.now(),
  };
}

/** A PIX copy-and-paste code that names its transaction, so a page or e-mail showing it is plain. */
export const fakePixCode = (id: string) =>
  `00020126580014br.gov.bcb.pix0136${id}5204000053039865802BR5907VITRINE6009SAOPAULO6304ABCD`;

/**
 * A stand-in for the SPEC §7 payment gateway on 127.0.0.1: `POST {url}/transaction.purchase`
 * creates a PENDING transaction with a PIX code, `GET {url}/transaction.getPayment?id=` says how
 * it stands (the test changes that with setStatus). Requests without the secret key get a 401.
 */
export async function startFakeGateway(
  secretKey: string,
  { now = () => new Date() }: { now?: () => Date } = {},
): Promise<FakeGateway> {
  const requests: RecordedRequest[] = [];
  const transactions = new Map<string, Transaction>();
  const failingStatus = new Set<string>();
  const state = { purchaseMode: 'ok' as PurchaseMode };

  const server = createServer((request, response) => {
    const json = (status: number, body: unknown) =>
      response
        .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
        .end(JSON.stringify(body));
    void recordRequest(request, 'http://gateway.test').then((seen) => {
      requests.push(seen);
      if (seen.headers.authorization !== secretKey) {
        return json(401, { message: 'Chave de API inválida' });
      }
      if (seen.method === 'POST' && seen.path === '/v1/transaction.purchase') {
        const purchase = seen.body as PurchaseBody;
        if (state.purchaseMode === 'error') {
          response
            .writeHead(500, { 'Content-Type': 'text/html' })
            .end('<h1>Internal Server Error</h1>');
          return;
        }
        const id = randomUUID();
        const transaction: Transaction = {
          id,
          status: 'PENDING',
          pixCode: fakePixCode(id),
          purchase,
        };
        const answer = {
          id: state.purchaseMode === 'missing-id' ? undefined : id,
          customId: purchase.externalId,
          status: 'PENDING',
          amount: purchase.amount,
          pixCode: transaction.pixCode,
          pixQrCode: null,
          billetUrl: null,
          billetCode: null,
          expiresAt: new Date(now().getTime() + 30 * 60_000).toISOString(),
        };
        if (state.purchaseMode === 'ok') transactions.set(id, transaction);
        return json(200, answer);
      }
      if (seen.method === 'GET' && seen.path === '/v1/transaction.getPayment') {
        const id = seen.query.get('id') ?? '';
        if (failingStatus.has(id)) return json(500, { message: 'Erro interno' });
        const transaction = transactions.get(id);
        if (!transaction) return json(404, { message: 'Transação não encontrada' });
        return json(200, {
          id,
          status: transaction.status,
          customId: transaction.purchase.externalId,
        });
      }
      return json(404, { message: 'Rota não encontrada' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    transactions,
    get purchaseMode() {
      return state.purchaseMode;
    },
    set purchaseMode(mode: PurchaseMode) {
      state.purchaseMode = mode;
    },
    failingStatus,
    purchases: () =>
      requests
        .filter((seen) => seen.path === '/v1/transaction.purchase')
        .map((seen) => seen.body as PurchaseBody),
    setStatus(id, status) {
      const transaction = transactions.get(id);
      if (!transaction) throw new Error(`No transaction ${id} at the fake gateway`);
      transaction.status = status;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A stand-in for UTMify's orders endpoint: records every report and answers 200, or 503 to the
 * reports `refuse` picks (recorded too, with `refused: true`).
 */
export interface FakeUtmify {
  url: string;
  requests: (RecordedRequest & { refused: boolean })[];
  refuse: (body: unknown) => boolean;
  close(): Promise<void>;
}

export async function startFakeUtmify(): Promise<FakeUtmify> {
  const requests: FakeUtmify['requests'] = [];
  const server = createServer((request, response) => {
    void recordRequest(request, 'http://utmify.test').then((seen) => {
      const refused = fake.refuse(seen.body);
      requests.push({ ...seen, refused });
      response
        .writeHead(refused ? 503 : 200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify(refused ? { message: 'Service Unavailable' } : { OK: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeUtmify = {
    url: `http://127.0.0.1:${port}/api-credentials/orders`,
    requests,
    refuse: () => false,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
