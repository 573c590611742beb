import { createHmac, timingSafeEqual } from 'node:crypto';

import { callOutsideService, OutsideServiceError } from '~/lib/http-client.server';

import {
  ErpError,
  type Erp,
  type ErpInvoice,
  type ErpOrderInput,
  type TokenSet,
} from './erp.server';

// Bling's API v3 (docs/research-bling.md): OAuth2 with a Basic-authenticated token endpoint under
// the API's address, JSON answers wrapped in `data`, errors as {error: {type, message,
// description, fields}}, about 3 calls a second per account (429 past it).

const TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 1_000_000;
/** Calls refused for the rate limit are waited for and made again, this many times. */
const RATE_LIMIT_RETRIES = 3;

/** NF-e `situacao` codes (Bling's GET /nfe/{id}). */
const SITUATION = {
  pending: [1, 3, 7, 8, 10],
  cancelled: [2],
  rejected: [4, 9, 11],
  authorized: [5, 6],
} as const;

export interface BlingOptions {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  /** The pause before a call refused for the rate limit is made again. */
  rateLimitPauseMs?: (attempt: number) => number;
}

interface BlingErrorBody {
  error?: {
    type?: string;
    message?: string;
    description?: string;
    fields?: { msg?: string; element?: string }[] | Record<string, { msg?: string }>;
  };
}

/** Bling's own words for a refusal: its description, else its message, with each field's. */
export function blingRefusal(text: string): string {
  let body: BlingErrorBody | null = null;
  try {
    body = JSON.parse(text) as BlingErrorBody;
  } catch {
    return 'resposta inesperada do Bling';
  }
  const error = body?.error;
  if (!error) return 'resposta inesperada do Bling';
  const fields = Array.isArray(error.fields) ? error.fields : Object.values(error.fields ?? {});
  const details = fields.map((field) => field?.msg).filter((msg): msg is string => !!msg);
  const head = error.description || error.message || error.type || 'erro do Bling';
  return [head, ...details].join(' ').slice(0, 500);
}

const cents = (value: number) => Math.round(value) / 100;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createBling(options: BlingOptions): Erp {
  const base = options.apiUrl.replace(/\/+$/, '');
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
  const ratePause = options.rateLimitPauseMs ?? ((attempt) => 400 * attempt);

  async function call(
    method: 'GET' | 'POST',
    path: string,
    init: { token?: string; body?: unknown; form?: Record<string, string>; signal?: AbortSignal },
  ): Promise<unknown> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const secrets = [options.clientSecret, basic];
    let body: string | undefined;
    if (init.token) {
      headers.Authorization = `Bearer ${init.token}`;
      secrets.push(init.token);
    } else {
      headers.Authorization = `Basic ${basic}`;
    }
    if (init.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
      secrets.push(...Object.values(init.form));
    } else if (init.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    for (let attempt = 0; ; attempt++) {
      let answer;
      try {
        answer = await callOutsideService(`${base}${path}`, {
          service: 'bling',
          method,
          headers,
          body,
          timeoutMs: TIMEOUT_MS,
          maxResponseBytes: MAX_RESPONSE_BYTES,
          secrets,
          // Reads only: a POST whose answer was lost is found again by the caller, not resent.
          retries: method === 'GET' ? 2 : 0,
          signal: init.signal,
          fetch: options.fetch,
        });
      } catch (error) {
        if (error instanceof OutsideServiceError) {
          throw new ErpError('unavailable', `Bling: ${error.message}`);
        }
        throw error;
      }
      if (answer.status === 429 && attempt < RATE_LIMIT_RETRIES) {
        await pause(ratePause(attempt + 1));
        continue;
      }
      if (answer.ok) {
        if (!answer.text) return null;
        try {
          return JSON.parse(answer.text) as unknown;
        } catch {
          throw new ErpError('unavailable', 'Bling: resposta que não é JSON');
        }
      }
      if (answer.status === 401) throw new ErpError('unauthorized', blingRefusal(answer.text));
      if (answer.status === 429 || answer.status >= 500) {
        throw new ErpError('unavailable', `Bling ${answer.status}: ${blingRefusal(answer.text)}`);
      }
      throw new ErpError('refused', blingRefusal(answer.text));
    }
  }

  async function token(form: Record<string, string>): Promise<TokenSet> {
    let answer;
    try {
      answer = (await call('POST', '/oauth/token', { form })) as Record<string, unknown>;
    } catch (error) {
      // A refused grant (revoked, expired or already used): only a new authorization helps.
      if (
        error instanceof ErpError &&
        (error.failure === 'refused' || error.failure === 'unauthorized')
      ) {
        throw new ErpError('revoked', error.message);
      }
      throw error;
    }
    const { access_token, refresh_token, expires_in } = answer ?? {};
    if (typeof access_token !== 'string' || typeof refresh_token !== 'string') {
      throw new ErpError('unavailable', 'Bling: resposta de token sem os tokens');
    }
    return {
      accessToken: access_token,
      refreshToken: refresh_token,
      expiresInSeconds: typeof expires_in === 'number' ? expires_in : 21_600,
    };
  }

  const dataOf = (answer: unknown): Record<string, unknown> => {
    const data = (answer as { data?: unknown } | null)?.data;
    return data && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : {};
  };
  const firstId = (answer: unknown): string | null => {
    const data = (answer as { data?: unknown } | null)?.data;
    const first = Array.isArray(data) ? (data[0] as { id?: unknown } | undefined) : undefined;
    return first?.id === undefined || first.id === null ? null : String(first.id);
  };
  const idOf = (answer: unknown): string => {
    const id = dataOf(answer).id;
    if (id === undefined || id === null)
      throw new ErpError('unavailable', 'Bling: resposta sem id');
    return String(id);
  };

  async function contactId(tokenValue: string, input: ErpOrderInput, signal?: AbortSignal) {
    const { customer } = input;
    const found = await call(
      'GET',
      `/contatos?${new URLSearchParams({ numeroDocumento: customer.document })}`,
      { token: tokenValue, signal },
    );
    const existing = firstId(found);
    if (existing) return existing;
    const created = await call('POST', '/contatos', {
      token: tokenValue,
      signal,
      body: {
        nome: customer.name,
        tipo: customer.document.length === 14 ? 'J' : 'F',
        numeroDocumento: customer.document,
        situacao: 'A',
        email: customer.email,
        celular: customer.phone,
        endereco: {
          geral: {
            endereco: customer.address.street,
            numero: customer.address.number,
            complemento: customer.address.complement,
            bairro: customer.address.district,
            cep: customer.address.zip,
            municipio: customer.address.city,
            uf: customer.address.state,
          },
        },
      },
    });
    return idOf(created);
  }

  async function productId(tokenValue: string, sku: string, signal?: AbortSignal) {
    const found = await call('GET', `/produtos?${new URLSearchParams({ 'codigos[]': sku })}`, {
      token: tokenValue,
      signal,
    });
    const id = firstId(found);
    if (!id) {
      throw new ErpError('refused', `Produto com o código (SKU) ${sku} não encontrado no Bling.`);
    }
    return id;
  }

  function invoiceOf(answer: unknown, fallbackId: string, reason: string | null): ErpInvoice {
    const data = dataOf(answer);
    const situation = Number(
      typeof data.situacao === 'object' && data.situacao !== null
        ? (data.situacao as { id?: unknown }).id
        : data.situacao,
    );
    const state = (SITUATION.authorized as readonly number[]).includes(situation)
      ? 'authorized'
      : (SITUATION.rejected as readonly number[]).includes(situation)
        ? 'rejected'
        : (SITUATION.cancelled as readonly number[]).includes(situation)
          ? 'cancelled'
          : 'pending';
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
    return {
      id: data.id === undefined ? fallbackId : String(data.id),
      state,
      number: text(data.numero),
      key: text(data.chaveAcesso),
      danfeUrl: text(data.linkDanfe) ?? text(data.linkPDF),
      reason: state === 'rejected' ? reason : null,
    };
  }

  /** POST /nfe/{id}/enviar, then the note as it stands: SEFAZ's refusal comes as the error. */
  async function send(tokenValue: string, invoiceId: string, signal?: AbortSignal) {
    let reason: string | null = null;
    try {
      await call('POST', `/nfe/${encodeURIComponent(invoiceId)}/enviar`, {
        token: tokenValue,
        signal,
      });
    } catch (error) {
      if (!(error instanceof ErpError) || error.failure !== 'refused') throw error;
      reason = error.message;
    }
    const read = invoiceOf(
      await call('GET', `/nfe/${encodeURIComponent(invoiceId)}`, { token: tokenValue, signal }),
      invoiceId,
      reason,
    );
    // Refused before SEFAZ (a field missing in Bling): said as a rejection with Bling's words.
    if (reason && read.state === 'pending') return { ...read, state: 'rejected' as const, reason };
    return read;
  }

  return {
    name: 'bling',
    authorizeUrl(state) {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: options.clientId,
        state,
      });
      return `${base}/oauth/authorize?${query}`;
    },
    exchangeCode: (code) => token({ grant_type: 'authorization_code', code }),
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    async sendOrder(tokenValue, input, signal) {
      const existing = await call(
        'GET',
        `/pedidos/vendas?${new URLSearchParams({ 'numerosLojas[]': input.storeNumber })}`,
        { token: tokenValue, signal },
      );
      const found = firstId(existing);
      if (found) return found;
      const contato = await contactId(tokenValue, input, signal);
      const itens = [];
      for (const line of input.lines) {
        itens.push({
          produto: { id: Number(await productId(tokenValue, line.sku, signal)) },
          codigo: line.sku,
          descricao: line.name,
          quantidade: line.quantity,
          valor: cents(line.unitPriceCents),
          unidade: 'UN',
        });
      }
      const created = await call('POST', '/pedidos/vendas', {
        token: tokenValue,
        signal,
        body: {
          numeroLoja: input.storeNumber,
          data: input.date,
          dataSaida: input.date,
          contato: { id: Number(contato) },
          itens,
          desconto: { valor: cents(input.discountCents), unidade: 'REAL' },
          transporte: { frete: cents(input.shippingCents) },
          parcelas: [
            {
              dataVencimento: input.date,
              valor: cents(input.totalCents),
              observacoes: input.paymentLabel,
            },
          ],
          ...(input.intermediary
            ? {
                intermediador: {
                  cnpj: input.intermediary.cnpj,
                  nomeUsuario: input.intermediary.name,
                },
              }
            : {}),
        },
      });
      return idOf(created);
    },
    async issueInvoice(tokenValue, erpOrderId, signal) {
      const order = dataOf(
        await call('GET', `/pedidos/vendas/${encodeURIComponent(erpOrderId)}`, {
          token: tokenValue,
          signal,
        }),
      );
      const noted = (order.notaFiscal as { id?: unknown } | undefined)?.id;
      // A note generated before (its answer lost) is the one sent, never a second.
      const invoiceId =
        noted !== undefined && noted !== null && Number(noted) !== 0
          ? String(noted)
          : idOf(
              await call('POST', `/pedidos/vendas/${encodeURIComponent(erpOrderId)}/gerar-nfe`, {
                token: tokenValue,
                signal,
              }),
            );
      const current = invoiceOf(
        await call('GET', `/nfe/${encodeURIComponent(invoiceId)}`, { token: tokenValue, signal }),
        invoiceId,
        null,
      );
      if (current.state !== 'pending') return current;
      return send(tokenValue, invoiceId, signal);
    },
    resendInvoice: (tokenValue, invoiceId, signal) => send(tokenValue, invoiceId, signal),
    async readInvoice(tokenValue, invoiceId, signal) {
      return invoiceOf(
        await call('GET', `/nfe/${encodeURIComponent(invoiceId)}`, { token: tokenValue, signal }),
        invoiceId,
        null,
      );
    },
    notifiedInvoice(rawBody, signature) {
      const expected = `sha256=${createHmac('sha256', options.clientSecret).update(rawBody).digest('hex')}`;
      const given = Buffer.from(signature ?? '');
      const wanted = Buffer.from(expected);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return 'unsigned';
      let body: { event?: unknown; data?: { id?: unknown } } | null;
      try {
        body = JSON.parse(rawBody) as { event?: unknown; data?: { id?: unknown } } | null;
      } catch {
        return null;
      }
      const event = typeof body?.event === 'string' ? body.event : '';
      const id = body?.data?.id;
      if (!/^(invoice|nfe)\./.test(event) || (typeof id !== 'number' && typeof id !== 'string')) {
        return null;
      }
      return String(id);
    },
  };
}
