import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { recordRequest, type RecordedRequest } from './fake-gateway';

// A stand-in for Bling's API v3, in the shapes of docs/research-bling.md: OAuth2 (authorization
// code, a token endpoint under the API's address authenticated with Basic client id:secret,
// refresh tokens that rotate and work once), contacts, products by code, sales orders, NF-e
// generated from them, sent to SEFAZ and read back, errors as {error: {type, message,
// description, fields}}, a per-token rate limit (429), and signed webhooks. Where Bling's
// behaviour is guessed (marked GUESSED there), the fake takes the stricter reading.

export interface FakeBlingOptions {
  clientId: string;
  clientSecret: string;
  /** Seconds an access token lives; Bling's is 6 hours. */
  accessTokenTtl?: number;
  /** Calls per second one token may make before 429; Bling's is 3. */
  rateLimitPerSecond?: number;
  /** The fake's clock (token lifetimes), the real one by default. */
  now?: () => Date;
}

export interface FakeContact {
  id: number;
  nome: string;
  tipo: 'F' | 'J';
  numeroDocumento: string;
  email?: string;
}

export interface FakeProduct {
  id: number;
  codigo: string;
  nome: string;
}

export interface FakeSalesOrder {
  id: number;
  numero: number;
  numeroLoja: string;
  contato: { id: number };
  body: Record<string, unknown>;
  notaFiscal: { id: number };
}

/** NF-e situations: 1 pendente, 4 rejeitada, 5 autorizada, 8 aguardando protocolo, 2 cancelada. */
export interface FakeInvoice {
  id: number;
  pedidoId: number;
  situacao: number;
  numero: string;
  serie: string;
  chaveAcesso: string;
  rejection: string | null;
}

export interface FakeBling {
  url: string;
  requests: RecordedRequest[];
  contacts: FakeContact[];
  products: FakeProduct[];
  orders: FakeSalesOrder[];
  invoices: FakeInvoice[];
  /** Token calls by grant type. */
  tokenGrants: { authorization_code: number; refresh_token: number };
  /** Every access and refresh token handed out (what must never show in clear). */
  issuedTokens: string[];
  /** Where the authorization page sends staff back (the app's registered redirect). */
  redirectUri: string | null;
  addProduct(codigo: string, nome: string): FakeProduct;
  addContact(numeroDocumento: string, nome: string): FakeContact;
  /** The next sales order is created, then its answer lost (the connection is cut). */
  dropNextOrderAnswer(): void;
  /** The next NF-e sent is rejected by SEFAZ with this reason. */
  rejectNextInvoice(reason: string): void;
  /** The next 'gerar-nfe' is refused by Bling itself (a setting missing there), with this. */
  refuseNextGeneration(description: string): void;
  /** Notes sent from now on wait at SEFAZ (situação 8) until authorizePending. */
  holdInvoices(hold: boolean): void;
  authorizePending(): void;
  /** Every access token is past its time (the refresh tokens still work). */
  expireAccessTokens(): void;
  /** The merchant revoked the application: every token is refused. */
  revoke(): void;
  /** Issues tokens as the authorization code grant would (for tests that start connected). */
  grant(): { access_token: string; refresh_token: string; expires_in: number };
  /** A webhook as Bling sends it, signed with the client secret. */
  invoiceWebhook(invoiceId: number): { body: string; signature: string };
  close(): Promise<void>;
}

/** A 44-digit NF-e access key with its check digit (module 11, as SEFAZ computes it). */
export function accessKey(cnpj: string, serie: number, numero: number): string {
  const body =
    '35' +
    '2612' +
    cnpj.padStart(14, '0').slice(0, 14) +
    '55' +
    String(serie).padStart(3, '0') +
    String(numero).padStart(9, '0') +
    '1' +
    String(numero).padStart(8, '0');
  let weight = 2;
  let sum = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += Number(body[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return body + String(rest < 2 ? 0 : 11 - rest);
}

function blingError(
  type: string,
  message: string,
  description: string,
  fields?: { code: number; msg: string; element: string }[],
) {
  return { error: { type, message, description, ...(fields ? { fields } : {}) } };
}

export async function startFakeBling(options: FakeBlingOptions): Promise<FakeBling> {
  const now = options.now ?? (() => new Date());
  const ttl = options.accessTokenTtl ?? 21_600;
  const limit = options.rateLimitPerSecond ?? 3;
  const access = new Map<string, number>();
  const refresh = new Set<string>();
  const codes = new Set<string>();
  const calls = new Map<string, number[]>();
  let nextId = 9_000_000;
  let dropOrder = false;
  let rejection: string | null = null;
  let refusedGeneration: string | null = null;
  let hold = false;
  const basic = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;

  const token = () => randomBytes(20).toString('hex');
  const issue = () => {
    const accessToken = token();
    const refreshToken = token();
    access.set(accessToken, now().getTime() + ttl * 1000);
    refresh.add(refreshToken);
    fake.issuedTokens.push(accessToken, refreshToken);
    return {
      access_token: accessToken,
      expires_in: ttl,
      token_type: 'Bearer',
      scope: '98309 318257570 5990556',
      refresh_token: refreshToken,
    };
  };

  const fake: FakeBling = {
    url: '',
    requests: [],
    contacts: [],
    products: [],
    orders: [],
    invoices: [],
    tokenGrants: { authorization_code: 0, refresh_token: 0 },
    issuedTokens: [],
    redirectUri: null,
    addProduct(codigo, nome) {
      const product = { id: nextId++, codigo, nome };
      fake.products.push(product);
      return product;
    },
    addContact(numeroDocumento, nome) {
      const contact: FakeContact = {
        id: nextId++,
        nome,
        numeroDocumento,
        tipo: numeroDocumento.length === 14 ? 'J' : 'F',
      };
      fake.contacts.push(contact);
      return contact;
    },
    dropNextOrderAnswer: () => {
      dropOrder = true;
    },
    rejectNextInvoice: (reason) => {
      rejection = reason;
    },
    refuseNextGeneration: (description) => {
      refusedGeneration = description;
    },
    holdInvoices: (value) => {
      hold = value;
    },
    authorizePending() {
      for (const invoice of fake.invoices) if (invoice.situacao === 8) invoice.situacao = 5;
    },
    expireAccessTokens() {
      for (const key of access.keys()) access.set(key, 0);
    },
    revoke() {
      access.clear();
      refresh.clear();
    },
    grant: () => issue(),
    invoiceWebhook(invoiceId) {
      const body = JSON.stringify({
        eventId: `01J${randomBytes(8).toString('hex').toUpperCase()}`,
        date: now().toISOString(),
        version: 'v1',
        event: 'invoice.updated',
        companyId: 'd4475854366a36c86a37e792f9634a51',
        data: { id: invoiceId },
      });
      const signature = `sha256=${createHmac('sha256', options.clientSecret).update(body).digest('hex')}`;
      return { body, signature };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const invoiceBody = (invoice: FakeInvoice) => {
    const authorized = invoice.situacao === 5 || invoice.situacao === 6;
    return {
      id: invoice.id,
      tipo: 1,
      situacao: invoice.situacao,
      numero: invoice.numero,
      serie: invoice.serie,
      chaveAcesso: authorized ? invoice.chaveAcesso : '',
      linkDanfe: authorized ? `${fake.url}/danfe/${invoice.id}.pdf` : '',
      linkPDF: authorized ? `${fake.url}/danfe/${invoice.id}.pdf` : '',
    };
  };

  async function route(seen: RecordedRequest, response: ServerResponse): Promise<void> {
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const { method, path } = seen;

    // Staff's browser: the consent page, then back to the application's redirect with a code.
    if (method === 'GET' && path === '/oauth/authorize') {
      const clientId = seen.query.get('client_id');
      const state = seen.query.get('state') ?? '';
      if (clientId !== options.clientId || seen.query.get('response_type') !== 'code') {
        response.writeHead(400, { 'Content-Type': 'text/html; charset=utf-8' });
        response.end('<!doctype html><title>Erro</title><p>Aplicativo não encontrado.</p>');
        return;
      }
      const approve = `/oauth/authorize/approve?${new URLSearchParams({ state })}`;
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="pt-BR"><title>Bling - Autorizar aplicativo</title>` +
          `<main><h1>Autorizar aplicativo</h1><p>O aplicativo quer acessar seus pedidos, contatos, produtos e notas fiscais.</p>` +
          `<a href="${approve}">Autorizar</a></main></html>`,
      );
      return;
    }
    if (method === 'GET' && path === '/oauth/authorize/approve') {
      if (!fake.redirectUri) return json(500, blingError('SERVER_ERROR', 'sem redirect', ''));
      const code = token();
      codes.add(code);
      const back = new URL(fake.redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', seen.query.get('state') ?? '');
      response.writeHead(302, { Location: back.toString() });
      response.end();
      return;
    }
    if (method === 'GET' && path.startsWith('/danfe/')) {
      response.writeHead(200, { 'Content-Type': 'application/pdf' });
      response.end('%PDF-1.4 DANFE');
      return;
    }
    if (method === 'POST' && path === '/oauth/token') {
      if (seen.headers.authorization !== basic) {
        return json(
          401,
          blingError('invalid_client', 'invalid_client', 'Credenciais do aplicativo inválidas'),
        );
      }
      const form = (seen.body ?? {}) as Record<string, string>;
      if (form.grant_type === 'authorization_code') {
        fake.tokenGrants.authorization_code++;
        if (!codes.delete(form.code ?? '')) {
          return json(
            400,
            blingError('invalid_grant', 'invalid_grant', 'Authorization code inválido'),
          );
        }
        return json(200, issue());
      }
      if (form.grant_type === 'refresh_token') {
        fake.tokenGrants.refresh_token++;
        if (!refresh.delete(form.refresh_token ?? '')) {
          return json(400, blingError('invalid_grant', 'invalid_grant', 'Invalid refresh token'));
        }
        return json(200, issue());
      }
      return json(400, blingError('unsupported_grant_type', 'unsupported_grant_type', ''));
    }

    const bearer = /^Bearer (\S+)$/.exec(seen.headers.authorization ?? '')?.[1];
    const expires = bearer ? access.get(bearer) : undefined;
    if (!bearer || expires === undefined || expires <= now().getTime()) {
      return json(
        401,
        blingError('invalid_token', 'invalid_token', 'The access token provided is invalid'),
      );
    }
    const second = Math.floor(Date.now() / 1000);
    const recent = (calls.get(bearer) ?? []).filter((at) => at === second);
    if (recent.length >= limit) {
      return json(
        429,
        blingError(
          'TOO_MANY_REQUESTS',
          'Limite de requisições atingido.',
          'Limite de 3 requisições por segundo excedido.',
        ),
      );
    }
    calls.set(bearer, [...recent, second]);

    const body = (seen.body ?? {}) as Record<string, unknown>;
    if (method === 'GET' && path === '/contatos') {
      const document = seen.query.get('numeroDocumento');
      return json(200, {
        data: fake.contacts.filter((contact) => !document || contact.numeroDocumento === document),
      });
    }
    if (method === 'POST' && path === '/contatos') {
      const fields = [];
      if (typeof body.nome !== 'string' || body.nome === '')
        fields.push({ code: 1, msg: 'O nome do contato é obrigatório', element: 'nome' });
      const document = String(body.numeroDocumento ?? '');
      if (!/^(\d{11}|\d{14})$/.test(document))
        fields.push({ code: 2, msg: 'CPF/CNPJ inválido', element: 'numeroDocumento' });
      if (fields.length)
        return json(
          400,
          blingError(
            'VALIDATION_ERROR',
            'Não foi possível salvar o contato',
            'Verifique os campos',
            fields,
          ),
        );
      const contact = fake.addContact(document, String(body.nome));
      contact.email = typeof body.email === 'string' ? body.email : undefined;
      return json(201, { data: { id: contact.id } });
    }
    if (method === 'GET' && path === '/produtos') {
      const codes = seen.query.getAll('codigos[]');
      return json(200, {
        data: fake.products.filter(
          (product) => codes.length === 0 || codes.includes(product.codigo),
        ),
      });
    }
    if (method === 'GET' && path === '/pedidos/vendas') {
      const numbers = seen.query.getAll('numerosLojas[]');
      return json(200, {
        data: fake.orders
          .filter((order) => numbers.length === 0 || numbers.includes(order.numeroLoja))
          .map((order) => ({ id: order.id, numero: order.numero, numeroLoja: order.numeroLoja })),
      });
    }
    if (method === 'POST' && path === '/pedidos/vendas') {
      const fields = [];
      const contactId = Number((body.contato as { id?: unknown } | undefined)?.id);
      if (!fake.contacts.some((contact) => contact.id === contactId))
        fields.push({ code: 10, msg: 'Contato não encontrado', element: 'contato.id' });
      const items = Array.isArray(body.itens)
        ? (body.itens as { produto?: { id?: unknown } }[])
        : [];
      if (items.length === 0)
        fields.push({ code: 11, msg: 'Informe ao menos um item', element: 'itens' });
      for (const item of items) {
        if (!fake.products.some((product) => product.id === Number(item.produto?.id)))
          fields.push({ code: 12, msg: 'Produto não encontrado', element: 'itens.produto.id' });
      }
      if (fields.length)
        return json(
          400,
          blingError(
            'VALIDATION_ERROR',
            'Não foi possível salvar a venda',
            'Verifique os campos',
            fields,
          ),
        );
      const order: FakeSalesOrder = {
        id: nextId++,
        numero: fake.orders.length + 1,
        numeroLoja: String(body.numeroLoja ?? ''),
        contato: { id: contactId },
        body,
        notaFiscal: { id: 0 },
      };
      fake.orders.push(order);
      if (dropOrder) {
        dropOrder = false;
        response.socket?.destroy();
        return;
      }
      return json(201, { data: { id: order.id, alertas: [] } });
    }
    const orderMatch = /^\/pedidos\/vendas\/(\d+)(\/gerar-nfe)?$/.exec(path);
    if (orderMatch) {
      const order = fake.orders.find((candidate) => candidate.id === Number(orderMatch[1]));
      if (!order)
        return json(
          404,
          blingError(
            'RESOURCE_NOT_FOUND',
            'Recurso não encontrado',
            'Pedido de venda não encontrado',
          ),
        );
      if (method === 'GET' && !orderMatch[2]) {
        return json(200, {
          data: { ...order.body, id: order.id, numero: order.numero, notaFiscal: order.notaFiscal },
        });
      }
      if (method === 'POST' && orderMatch[2]) {
        if (refusedGeneration) {
          const description = refusedGeneration;
          refusedGeneration = null;
          return json(
            400,
            blingError('VALIDATION_ERROR', 'Não foi possível gerar a nota', description),
          );
        }
        if (order.notaFiscal.id !== 0) {
          return json(
            400,
            blingError(
              'VALIDATION_ERROR',
              'Não foi possível gerar a nota',
              'O pedido já possui nota fiscal gerada',
            ),
          );
        }
        const numero = fake.invoices.length + 1;
        const invoice: FakeInvoice = {
          id: nextId++,
          pedidoId: order.id,
          situacao: 1,
          numero: String(numero).padStart(6, '0'),
          serie: '1',
          chaveAcesso: accessKey('11222333000181', 1, numero),
          rejection: null,
        };
        fake.invoices.push(invoice);
        order.notaFiscal = { id: invoice.id };
        return json(201, { data: { id: invoice.id } });
      }
    }
    const nfeMatch = /^\/nfe\/(\d+)(\/enviar)?$/.exec(path);
    if (nfeMatch) {
      const invoice = fake.invoices.find((candidate) => candidate.id === Number(nfeMatch[1]));
      if (!invoice)
        return json(
          404,
          blingError('RESOURCE_NOT_FOUND', 'Recurso não encontrado', 'Nota fiscal não encontrada'),
        );
      if (method === 'GET' && !nfeMatch[2]) return json(200, { data: invoiceBody(invoice) });
      if (method === 'POST' && nfeMatch[2]) {
        if (invoice.situacao === 5 || invoice.situacao === 6) {
          return json(
            400,
            blingError(
              'VALIDATION_ERROR',
              'Não foi possível enviar a nota',
              'A nota já está autorizada',
            ),
          );
        }
        if (rejection) {
          invoice.situacao = 4;
          invoice.rejection = rejection;
          rejection = null;
          return json(
            400,
            blingError(
              'VALIDATION_ERROR',
              'Não foi possível enviar a nota fiscal',
              invoice.rejection,
            ),
          );
        }
        invoice.situacao = hold ? 8 : 5;
        invoice.rejection = null;
        return json(200, { data: { xml: '<nfeProc/>' } });
      }
    }
    json(404, blingError('RESOURCE_NOT_FOUND', 'Recurso não encontrado', `${method} ${path}`));
  }

  const server = createServer((request, response) => {
    void recordRequest(request, 'http://bling.test').then(async (seen) => {
      fake.requests.push(seen);
      try {
        await route(seen, response);
      } catch (error) {
        response.writeHead(500, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(blingError('SERVER_ERROR', 'Erro interno', String(error))));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
