import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import OpenAPIBackend, { type Document } from 'openapi-backend';
import YAML from 'yaml';

import { fakePixCode } from './fake-gateway';

// A simulator of a bank's API Pix (the Central Bank's specification, release 2.9.0, in
// ../shared/pix-api/openapi.yaml), written by us from that file: a mutual-TLS server on
// 127.0.0.1 with an OAuth2 token endpoint, /cob, /pix, refunds and /webhook. Every request it
// gets and every answer it gives is validated against the spec by openapi-backend, and every
// failure is kept in `violations`: a test fails when any happened, so our client and this
// simulator cannot drift from the spec together.

// The Central Bank's file as published (release 2.9.0), beside the repository as the issue gives
// it (CI clones with ../shared beside the clone): read, never copied, so it cannot drift.
const SPEC_PATH = join(import.meta.dirname, '..', '..', '..', 'shared', 'pix-api', 'openapi.yaml');
const run = promisify(execFile);

/** The test's own CA, the simulator's server certificate and a client certificate it signed. */
export interface TestPki {
  folder: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** The client certificate and key as PKCS#12, as Efí hands them out, under `p12Password`. */
  clientP12: string;
  p12Password: string;
  /** A client certificate from another CA: the simulator refuses it. */
  strangerCert: string;
  strangerKey: string;
  remove(): Promise<void>;
}

/** Makes the CA and certificates with the openssl CLI into a folder under /tmp. */
export async function makeTestPki(): Promise<TestPki> {
  const folder = await mkdtemp(join(tmpdir(), 'pixapi-pki-'));
  const at = (name: string) => join(folder, name);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: folder });
  const selfSigned = (name: string, subject: string) =>
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      subject,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.crt`),
    );
  const signed = async (name: string, subject: string, signer: string, extensions: string) => {
    await openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      subject,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.csr`),
    );
    await writeFile(at(`${name}.ext`), extensions);
    await openssl(
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at(`${signer}.crt`),
      '-CAkey',
      at(`${signer}.key`),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      at(`${name}.ext`),
      '-out',
      at(`${name}.crt`),
    );
  };
  await Promise.all([
    selfSigned('ca', '/CN=Vitrine test CA'),
    selfSigned('stranger-ca', '/CN=Someone else'),
  ]);
  await Promise.all([
    signed('server', '/CN=127.0.0.1', 'ca', 'subjectAltName=IP:127.0.0.1\n'),
    signed('client', '/CN=loja-teste', 'ca', 'extendedKeyUsage=clientAuth\n'),
    signed('stranger', '/CN=stranger', 'stranger-ca', 'extendedKeyUsage=clientAuth\n'),
  ]);
  const p12Password = `p12-${randomBytes(6).toString('hex')}`;
  await openssl(
    'pkcs12',
    '-export',
    '-in',
    at('client.crt'),
    '-inkey',
    at('client.key'),
    '-out',
    at('client.p12'),
    '-passout',
    `pass:${p12Password}`,
  );
  return {
    folder,
    caCert: at('ca.crt'),
    serverCert: at('server.crt'),
    serverKey: at('server.key'),
    clientCert: at('client.crt'),
    clientKey: at('client.key'),
    clientP12: at('client.p12'),
    p12Password,
    strangerCert: at('stranger.crt'),
    strangerKey: at('stranger.key'),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

type Json = Record<string, unknown>;

/**
 * The spec as the validator reads it: the published file with its known defects corrected here,
 * in memory (the shared file stays as published; docs/research-pix-api.md lists them).
 */
export function correctedSpec(): Document {
  const spec = YAML.parse(readFileSync(SPEC_PATH, 'utf8')) as Json;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const object = node as Json;
    // Defect 1: CPF patterns are written as JavaScript literals ("/^\d{11}$/"): in JSON Schema
    // the slashes are characters to match, so no CPF ever matched. The slashes go.
    if (typeof object.pattern === 'string' && /^\/\^.*\$\/$/.test(object.pattern)) {
      object.pattern = object.pattern.slice(1, -1);
    }
    // Defect 2: JSON Schema patterns match anywhere in the string, and the spec's are unanchored,
    // so "[a-zA-Z0-9]{26,35}" took a txid of 60 characters, or one with a dash. Anchored here.
    if (typeof object.pattern === 'string' && !object.pattern.startsWith('^')) {
      object.pattern = `^${object.pattern}$`;
    }
    Object.values(object).forEach(walk);
  };
  walk(spec);
  const components = spec.components as { schemas: Record<string, Json> };
  // Defect 3: PixConsultados (GET /pix) requires `cobs`, where its property and example are `pix`.
  const received = components.schemas.PixConsultados!;
  received.required = (received.required as string[]).map((name) =>
    name === 'cobs' ? 'pix' : name,
  );
  // Defect 4: CobsConsultadas (GET /cob) requires each charge's `idCob`, defined nowhere.
  const listed = components.schemas.CobsConsultadas! as {
    properties: { cobs: { items: { allOf: { required?: string[] }[] } } };
  };
  for (const part of listed.properties.cobs.items.allOf) {
    if (part.required) part.required = part.required.filter((name) => name !== 'idCob');
  }
  // Not defects: the validator needs an id per operation, which the spec does not give, and the
  // webhook's callback (under PUT /webhook/{chave}) as an operation of its own to validate
  // the bodies the simulator sends.
  const paths = spec.paths as Record<string, Record<string, Json>>;
  paths['/__callback/pix'] = {
    post: {
      requestBody: { $ref: '#/components/requestBodies/WebhookPixBody' },
      responses: { '200': { description: 'ok' } },
    },
  };
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (['get', 'put', 'post', 'patch', 'delete'].includes(method)) {
        operation.operationId = `${method} ${path}`;
      }
    }
  }
  return spec as unknown as Document;
}

const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * openapi-backend over the corrected spec, with the two string formats the API Pix uses that
 * its Ajv does not know: `date-time` as RFC 3339 says, and `uri` as any text without spaces,
 * since the spec's own examples write a charge's `location` with no scheme
 * (`pix.example.com/qr/v2/…`) and banks answer the same.
 */
export function specValidator(): OpenAPIBackend {
  return new OpenAPIBackend({
    definition: correctedSpec(),
    apiRoot: '/v2',
    quick: true,
    customizeAjv: (ajv) => {
      ajv.addFormat(
        'date-time',
        (value: string) => RFC_3339.test(value) && !Number.isNaN(Date.parse(value)),
      );
      ajv.addFormat('uri', (value: string) => /^\S+$/.test(value));
      return ajv;
    },
  });
}

export interface FakePixApiOptions {
  pki: TestPki;
  clientId: string;
  clientSecret: string;
  /** The receiver's CNPJ, as the bank knows the account. */
  cnpj?: string;
  /** How long a token lives, in seconds. */
  tokenSeconds?: number;
}

export interface FakeCharge {
  txid: string;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
  criacao: string;
  expiracao: number;
  valor: string;
  chave: string;
  devedor: Json | undefined;
  solicitacaoPagador: string | undefined;
  revisao: number;
  pix: FakePix[];
}

export interface FakePix {
  endToEndId: string;
  txid: string;
  valor: string;
  chave: string;
  horario: string;
  devolucoes: Json[];
}

export interface FakeRequest {
  method: string;
  path: string;
  status: number;
}

export interface FakePixApi {
  /** The API's base URL (`…/v2`) and its token endpoint. */
  url: string;
  tokenUrl: string;
  charges: Map<string, FakeCharge>;
  requests: FakeRequest[];
  /** Token requests granted. */
  tokensIssued(): number;
  /** Refund requests (`PUT …/devolucao/{id}`) and the distinct refunds they made. */
  refundRequests(): number;
  refunds(): Json[];
  /** Every request or answer that broke the spec, with what and why. */
  violations: string[];
  /** The bank forgets every token it gave: the next call with one gets a 401. */
  expireTokens(): void;
  /** Whether the bank calls the registered webhook when a PIX arrives (on by default). */
  setWebhookOn(on: boolean): void;
  /** Inter's shape: the webhook's body as a bare array. */
  setBareArrayWebhook(on: boolean): void;
  webhookUrl(): string | null;
  /**
   * A payer pays the charge (its amount, or `amountCents`): a PIX received, the charge
   * CONCLUIDA, and the registered webhook called (when on). Answers the webhook's status, or
   * null when none was called.
   */
  pay(txid: string, options?: { amountCents?: number }): Promise<number | null>;
  close(): Promise<void>;
}

const e2eId = () => `E${Array.from({ length: 31 }, () => randomInt(36).toString(36)).join('')}`;
const valorOf = (amount: number) =>
  `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;

export async function startFakePixApi(options: FakePixApiOptions): Promise<FakePixApi> {
  const api = specValidator();
  await api.init();
  const cnpj = options.cnpj ?? '12345678000195';
  const tokenSeconds = options.tokenSeconds ?? 3600;
  const tokens = new Set<string>();
  let issued = 0;
  let refundCalls = 0;
  const refunds = new Map<string, Json>();
  const charges = new Map<string, FakeCharge>();
  const requests: FakeRequest[] = [];
  const violations: string[] = [];
  let webhook: { url: string; chave: string; criacao: string } | null = null;
  let webhookOn = true;
  let bareArray = false;

  const problem = (status: number, title: string, detail: string) => ({
    type: `https://pix.bcb.gov.br/api/v2/error/${title.replace(/\s+/g, '')}`,
    title,
    status,
    detail,
  });

  const chargeBody = (charge: FakeCharge, full: boolean): Json => ({
    calendario: { criacao: charge.criacao, expiracao: charge.expiracao },
    txid: charge.txid,
    revisao: charge.revisao,
    loc: {
      id: 7,
      txid: charge.txid,
      location: `pix.example.com/qr/v2/${charge.txid}`,
      tipoCob: 'cob',
      criacao: charge.criacao,
    },
    location: `pix.example.com/qr/v2/${charge.txid}`,
    status: charge.status,
    ...(charge.devedor ? { devedor: charge.devedor } : {}),
    valor: { original: charge.valor },
    chave: charge.chave,
    ...(charge.solicitacaoPagador ? { solicitacaoPagador: charge.solicitacaoPagador } : {}),
    pixCopiaECola: fakePixCode(charge.txid),
    ...(full && charge.pix.length ? { pix: charge.pix.map(pixBody) } : {}),
  });

  const pixBody = (pix: FakePix): Json => ({
    endToEndId: pix.endToEndId,
    txid: pix.txid,
    valor: pix.valor,
    chave: pix.chave,
    horario: pix.horario,
    ...(pix.devolucoes.length ? { devolucoes: pix.devolucoes } : {}),
  });

  const listing = (query: URLSearchParams, total: number) => ({
    inicio: query.get('inicio'),
    fim: query.get('fim'),
    paginacao: {
      paginaAtual: 0,
      itensPorPagina: 100,
      quantidadeDePaginas: 1,
      quantidadeTotalDeItens: total,
    },
  });

  const within = (time: string, query: URLSearchParams) => {
    const at = Date.parse(time);
    return at >= Date.parse(query.get('inicio') ?? '') && at <= Date.parse(query.get('fim') ?? '');
  };

  /** The simulator's behaviour for one request the spec allows: status and JSON body. */
  function answer(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Json,
  ): [number, unknown] {
    let match: RegExpExecArray | null;
    if ((match = /^\/cob\/([^/]+)$/.exec(path))) {
      const txid = match[1]!;
      const charge = charges.get(txid);
      if (method === 'PUT') {
        if (charge) return [400, problem(400, 'CobOperacaoInvalida', 'txid já utilizado.')];
        const created: FakeCharge = {
          txid,
          status: 'ATIVA',
          criacao: new Date().toISOString(),
          expiracao: ((body.calendario as Json | undefined)?.expiracao as number) ?? 86_400,
          valor: (body.valor as Json).original as string,
          chave: body.chave as string,
          devedor: body.devedor as Json | undefined,
          solicitacaoPagador: body.solicitacaoPagador as string | undefined,
          revisao: 0,
          pix: [],
        };
        charges.set(txid, created);
        return [201, chargeBody(created, false)];
      }
      if (!charge) return [404, problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.')];
      if (method === 'PATCH') {
        if (charge.status !== 'ATIVA') {
          return [400, problem(400, 'CobOperacaoInvalida', 'A cobrança não está ATIVA.')];
        }
        if (body.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') charge.status = body.status;
        charge.revisao += 1;
        return [200, chargeBody(charge, false)];
      }
      return [200, chargeBody(charge, true)];
    }
    if (path === '/cob') {
      const cobs = [...charges.values()].filter((charge) => within(charge.criacao, query));
      return [
        200,
        {
          parametros: listing(query, cobs.length),
          cobs: cobs.map((charge) => chargeBody(charge, true)),
        },
      ];
    }
    if (path === '/pix') {
      const pix = [...charges.values()]
        .flatMap((charge) => charge.pix)
        .filter((received) => within(received.horario, query));
      return [200, { parametros: listing(query, pix.length), pix: pix.map(pixBody) }];
    }
    if ((match = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(path))) {
      const [, e2e, id] = match;
      const pix = [...charges.values()]
        .flatMap((charge) => charge.pix)
        .find((p) => p.endToEndId === e2e);
      if (!pix) return [404, problem(404, 'PixNaoEncontrado', 'Pix não encontrado.')];
      const key = `${e2e}/${id}`;
      if (method === 'PUT') {
        refundCalls += 1;
        const known = refunds.get(key);
        if (known) return [201, known];
        const now = new Date().toISOString();
        const refund: Json = {
          id,
          rtrId: `D${Array.from({ length: 31 }, () => randomInt(36).toString(36)).join('')}`,
          valor: body.valor,
          natureza: body.natureza ?? 'ORIGINAL',
          horario: { solicitacao: now, liquidacao: now },
          status: 'DEVOLVIDO',
        };
        refunds.set(key, refund);
        pix.devolucoes.push(refund);
        return [201, refund];
      }
      const known = refunds.get(key);
      return known
        ? [200, known]
        : [404, problem(404, 'DevolucaoNaoEncontrada', 'Devolução não encontrada.')];
    }
    if ((match = /^\/webhook\/([^/]+)$/.exec(path))) {
      const chave = decodeURIComponent(match[1]!);
      if (method === 'PUT') {
        webhook = { url: body.webhookUrl as string, chave, criacao: new Date().toISOString() };
        return [200, undefined];
      }
      if (!webhook || webhook.chave !== chave) {
        return [404, problem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.')];
      }
      if (method === 'DELETE') {
        webhook = null;
        return [204, undefined];
      }
      return [200, { webhookUrl: webhook.url, cnpj, criacao: webhook.criacao }];
    }
    return [404, problem(404, 'NaoEncontrado', 'Recurso não encontrado.')];
  }

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    if (body === undefined) {
      res.writeHead(status).end();
      return;
    }
    res.writeHead(status, { 'Content-Type': type }).end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const method = req.method ?? 'GET';
    const text = await readBody(req);
    const record = (status: number) => requests.push({ method, path: url.pathname, status });

    // OAuth2 client credentials (RFC 6749 §4.4), outside the spec: the security manual's.
    if (url.pathname === '/oauth/token') {
      const given = req.headers.authorization ?? '';
      const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
      const form = new URLSearchParams(text);
      if (
        method !== 'POST' ||
        given !== expected ||
        form.get('grant_type') !== 'client_credentials'
      ) {
        record(401);
        send(res, 401, { error: 'invalid_client' });
        return;
      }
      const token = randomBytes(24).toString('base64url');
      tokens.add(token);
      issued += 1;
      record(200);
      send(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: tokenSeconds,
        scope: form.get('scope') ?? '',
      });
      return;
    }
    if (!url.pathname.startsWith('/v2/')) {
      record(404);
      send(res, 404, problem(404, 'NaoEncontrado', 'Recurso não encontrado.'));
      return;
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) {
      // The token layer answers before the API: its 401 is RFC 6750's, not the spec's.
      record(401);
      send(res, 401, { error: 'invalid_token' });
      return;
    }
    let body: Json = {};
    if (text) {
      try {
        body = JSON.parse(text) as Json;
      } catch {
        violations.push(`${method} ${url.pathname}: request body is not JSON`);
      }
    }
    const request = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers as Record<string, string>,
      body: text ? body : undefined,
    };
    const operation = api.matchOperation(request);
    if (!operation) {
      violations.push(`${method} ${url.pathname}: no such operation in the spec`);
      record(404);
      send(res, 404, problem(404, 'NaoEncontrado', 'Recurso não encontrado.'));
      return;
    }
    const checked = api.validateRequest(request, operation);
    if (!checked.valid) {
      violations.push(`${method} ${url.pathname} request: ${JSON.stringify(checked.errors)}`);
      record(400);
      send(
        res,
        400,
        problem(400, 'RequisicaoInvalida', 'Requisição inválida.'),
        'application/problem+json',
      );
      return;
    }
    const path = url.pathname.slice('/v2'.length);
    const [status, answerBody] = answer(method, path, url.searchParams, body);
    if (status < 300 && answerBody !== undefined) {
      const valid = api.validateResponse(answerBody, operation, status);
      if (!valid.valid) {
        violations.push(
          `${method} ${url.pathname} answer ${status}: ${JSON.stringify(valid.errors)}`,
        );
      }
    }
    record(status);
    send(res, status, answerBody, status >= 400 ? 'application/problem+json' : 'application/json');
  }

  const server: Server = createServer(
    {
      key: await readFile(options.pki.serverKey),
      cert: await readFile(options.pki.serverCert),
      ca: await readFile(options.pki.caCert),
      // Mutual TLS, as every bank's API Pix: no client certificate of our CA, no connection.
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        violations.push(`simulator error: ${String(error)}`);
        if (!res.headersSent) send(res, 500, problem(500, 'ErroInterno', 'Erro interno.'));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `https://127.0.0.1:${port}`;

  async function callWebhook(pix: FakePix): Promise<number | null> {
    if (!webhook || !webhookOn) return null;
    const payload = { pix: [pixBody(pix)] };
    const callback = api.matchOperation({
      method: 'post',
      path: '/v2/__callback/pix',
      headers: {},
    });
    const valid = api.validateRequest(
      {
        method: 'post',
        path: '/v2/__callback/pix',
        headers: { 'content-type': 'application/json' },
        body: payload,
      },
      callback!,
    );
    if (!valid.valid) violations.push(`webhook body: ${JSON.stringify(valid.errors)}`);
    const answer = await fetch(`${webhook.url}/pix`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(bareArray ? payload.pix : payload),
    });
    await answer.arrayBuffer();
    return answer.status;
  }

  return {
    url: `${base}/v2`,
    tokenUrl: `${base}/oauth/token`,
    charges,
    requests,
    violations,
    tokensIssued: () => issued,
    refundRequests: () => refundCalls,
    refunds: () => [...refunds.values()],
    expireTokens: () => tokens.clear(),
    setWebhookOn(on) {
      webhookOn = on;
    },
    setBareArrayWebhook(on) {
      bareArray = on;
    },
    webhookUrl: () => webhook?.url ?? null,
    async pay(txid, payOptions = {}) {
      const charge = charges.get(txid);
      if (!charge || charge.status !== 'ATIVA') throw new Error(`No active charge ${txid}`);
      const pix: FakePix = {
        endToEndId: e2eId(),
        txid,
        valor:
          payOptions.amountCents === undefined ? charge.valor : valorOf(payOptions.amountCents),
        chave: charge.chave,
        horario: new Date().toISOString(),
        devolucoes: [],
      };
      charge.pix.push(pix);
      charge.status = 'CONCLUIDA';
      return callWebhook(pix);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
