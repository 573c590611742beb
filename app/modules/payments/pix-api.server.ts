import { createHash } from 'node:crypto';
import { Agent as HttpsAgent } from 'node:https';

import { z } from 'zod';

import {
  callOutsideService,
  OutsideServiceError,
  redactSecrets,
  type OutsideAnswer,
} from '~/lib/http-client.server';
import { freshReads } from '~/lib/fresh-reads';
import { logger } from '~/lib/logger.server';
import { isUuid } from '~/lib/uuid';

import type { AccessToken, SharedTokens } from './pix-api-token.server';
import { PAYMENT_NOT_CONFIGURED, paymentRequestError } from './request';
import type {
  CreatedPayment,
  PaymentDetails,
  PaymentOutcome,
  PaymentProvider,
  PaymentReport,
  PaymentStatus,
} from './types';

/** The client certificate for mutual TLS: PEM certificate and key, or a PKCS#12 bundle. */
export interface PixApiTls {
  cert?: string | Buffer;
  key?: string | Buffer;
  pfx?: Buffer;
  passphrase?: string;
  /** The bank's CA, when its server certificate is not signed by a public one. */
  ca?: string | Buffer;
}

/** The store settings this provider reads (a subset of `StoreSettings`). */
export interface PixApiSettings {
  pix_key: string;
  pix_expiration_minutes: number;
}

export interface PixApiOptions {
  /** PIX_API_URL: the bank's API Pix base URL (its `/v2`, as the bank writes it). */
  apiUrl: string;
  /** PIX_API_TOKEN_URL: the bank's OAuth2 token endpoint. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  tls: PixApiTls;
  /** The store's PUBLIC_URL: the webhook registered is its /api/payments/pix-api. */
  publicUrl: string;
  settings: () => Promise<PixApiSettings>;
  /** The token every instance shares (the database), so one is asked for at a time. */
  tokens: SharedTokens;
  timeoutMs?: number;
  now?: () => Date;
}

/** The API Pix's own operations beyond a provider's, for the webhook, the job and the admin. */
export interface PixApiProvider extends PaymentProvider {
  readonly name: 'pix-api';
  /** The txids of the PIX received between two times (`GET /pix`), every page. */
  received(since: Date, until: Date): Promise<PaymentOutcome<string[]>>;
  /** `PUT /webhook/{chave}` to this store's address; answers the address registered. */
  registerWebhook(): Promise<PaymentOutcome<string>>;
  /** `GET /webhook/{chave}`: the address the bank calls now, or null when none. */
  webhook(): Promise<PaymentOutcome<string | null>>;
  /** A token, then `GET /cob` over the last hour: whether the credentials and certificate work. */
  testConnection(): Promise<PaymentOutcome<{ charges: number }>>;
}

export function isPixApiProvider(provider: PaymentProvider | null): provider is PixApiProvider {
  return provider?.name === 'pix-api';
}

const PIX_API_MESSAGES = {
  createFailed: 'Erro ao gerar a cobrança PIX no banco. Tente novamente.',
  statusFailed: 'Erro ao consultar a cobrança PIX no banco.',
  invalidAnswer: 'Resposta inválida da API Pix do banco.',
  noAnswer: 'O banco não respondeu. Tente novamente.',
  notFound: 'Cobrança PIX não encontrada.',
  tokenFailed: 'O banco recusou as credenciais da API Pix (client id, secret ou certificado).',
  refundFailed: 'O banco não aceitou a devolução do PIX. Confira no aplicativo do banco.',
  notPaid: 'Esta cobrança não tem PIX recebido para devolver.',
  webhookFailed: 'O banco não aceitou o endereço do webhook.',
  noticeInvalid: 'Notificação PIX inválida.',
} as const;

// A token is renewed this long before the bank says it expires, so no call carries a dying one.
const TOKEN_MARGIN_MS = 60_000;
// How long one instance may take to renew before another may try; and how long others wait.
const TOKEN_LEASE_MS = 20_000;
const TOKEN_POLL_MS = 100;
const MAX_RESPONSE_BYTES = 512 * 1024;
// Shortest life a charge is given: a PIX app needs time to read it.
const MIN_EXPIRY_SECONDS = 60;
const MAX_NOTICE_TXIDS = 100;
const SCOPES = 'cob.write cob.read pix.write pix.read webhook.write webhook.read';

/**
 * Our txids: the order's id in hex (32) and three letters or digits for the attempt, 35 in all,
 * as the spec's `[a-zA-Z0-9]{26,35}` allows; a txid names its order without a look-up.
 */
const TXID = /^([0-9a-f]{32})([0-9a-z]{3})$/;
const E2E_ID = /^[a-zA-Z0-9]{32}$/;

export function pixApiTxid(orderId: string, attempt: string): string {
  const hex = orderId.replace(/-/g, '').toLowerCase();
  const tag = BigInt(`0x${createHash('sha256').update(attempt).digest('hex').slice(0, 12)}`)
    .toString(36)
    .padStart(3, '0')
    .slice(-3);
  return `${hex}${tag}`;
}

/** The order a txid of ours names, or null for any other txid. */
export function pixApiOrderId(txid: string): string | null {
  const hex = TXID.exec(txid)?.[1];
  if (!hex) return null;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return isUuid(id) ? id : null;
}

/** Integer cents as the API's `"123.45"`. */
export function pixApiAmount(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function amountCents(value: string): number | null {
  const match = /^(\d{1,10})\.(\d{2})$/.exec(value);
  return match ? Number(match[1]) * 100 + Number(match[2]) : null;
}

const amountText = z.string().regex(/^\d{1,10}\.\d{2}$/);

const devolucaoSchema = z.looseObject({
  id: z.string(),
  valor: amountText,
  status: z.string(),
});

const pixSchema = z.looseObject({
  endToEndId: z.string().regex(E2E_ID),
  txid: z.string().optional(),
  valor: amountText,
  horario: z.string(),
  devolucoes: z.array(devolucaoSchema).optional(),
});
type ReceivedPix = z.infer<typeof pixSchema>;

const cobSchema = z.looseObject({
  txid: z.string(),
  status: z.string(),
  valor: z.looseObject({ original: amountText }),
  calendario: z.looseObject({ criacao: z.string(), expiracao: z.number().int().optional() }),
  pixCopiaECola: z.string().optional(),
  pix: z.array(pixSchema).optional(),
});
type Cob = z.infer<typeof cobSchema>;

const tokenSchema = z.looseObject({
  access_token: z.string().min(1).max(8_000),
  expires_in: z.coerce
    .number()
    .int()
    .positive()
    .max(86_400 * 30),
});

const pixListSchema = z.looseObject({
  parametros: z.looseObject({
    paginacao: z.looseObject({ quantidadeDePaginas: z.number().int() }),
  }),
  pix: z.array(pixSchema).optional(),
});

const cobListSchema = z.looseObject({ cobs: z.array(z.unknown()) });
const webhookSchema = z.looseObject({ webhookUrl: z.string() });

/**
 * A webhook's body: `{"pix":[…]}` as the spec writes it, or the bare array Inter sends. Only the
 * txids are read, each then re-read from the bank: a callback is a hint, whoever sent it.
 */
export function readPixApiNotice(body: string): { ok: true; txids: string[] } | { ok: false } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false };
  }
  const list = Array.isArray(parsed)
    ? parsed
    : z.looseObject({ pix: z.array(z.unknown()) }).safeParse(parsed).data?.pix;
  if (!list || list.length > 1_000) return { ok: false };
  const txids = list.flatMap((item) => {
    const txid = z.looseObject({ txid: z.string() }).safeParse(item).data?.txid;
    return txid && TXID.test(txid) ? [txid] : [];
  });
  // A bank groups a few PIX per call; a flood of txids is answered up to this many, each read
  // back from the bank, and the reconciliation finds any left.
  return { ok: true, txids: [...new Set(txids)].slice(0, MAX_NOTICE_TXIDS) };
}

/** One call's outcome inside the provider; `status` is the bank's HTTP status when it answered. */
type CallOutcome =
  { ok: true; value: unknown; status: number } | { ok: false; error: string; status?: number };

/**
 * PIX through the store's own bank, the Central Bank's API Pix (ADR 045): a charge (`cob`) per
 * payment with a txid from the order, confirmed by reading the charge again (`CONCLUIDA` and a
 * received PIX of its amount), whether a webhook, the page's polling or the reconciliation job
 * asked. OAuth2 client credentials over mutual TLS, the token shared by every instance.
 */
export function createPixApiProvider(options: PixApiOptions): PixApiProvider {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const now = options.now ?? (() => new Date());
  const agent = new HttpsAgent({ ...options.tls, keepAlive: true });
  const secrets = [options.clientSecret, options.tls.passphrase ?? ''];
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
  secrets.push(basic);

  const hide = (text: string, token?: string) =>
    redactSecrets(text, token ? [...secrets, token] : secrets)
      .replace(/\s+/g, ' ')
      .slice(0, 300);

  let memo: AccessToken | null = null;
  let renewing: Promise<string> | null = null;

  const fresh = (token: AccessToken | null, stale?: string) =>
    token !== null &&
    token.token !== stale &&
    token.expiresAt.getTime() - now().getTime() > TOKEN_MARGIN_MS;

  async function askForToken(): Promise<AccessToken> {
    const answer = await callOutsideService(options.tokenUrl, {
      service: 'pix-api',
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: SCOPES }).toString(),
      timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      secrets,
      agent,
    });
    const parsed = answer.ok ? tokenSchema.safeParse(parseJson(answer.text)) : null;
    if (!parsed?.success) {
      logger.warn({ status: answer.status }, 'API Pix: the bank refused the token request');
      throw new OutsideServiceError('network', PIX_API_MESSAGES.tokenFailed, answer.status);
    }
    return {
      token: parsed.data.access_token,
      expiresAt: new Date(now().getTime() + parsed.data.expires_in * 1000),
    };
  }

  /** The shared token, renewed by one caller of one instance when it is stale or refused. */
  async function renew(stale?: string): Promise<string> {
    const deadline = now().getTime() + TOKEN_LEASE_MS + timeoutMs;
    for (;;) {
      const stored = await options.tokens.read();
      if (fresh(stored, stale)) return (memo = stored!).token;
      if (await options.tokens.lease(now(), TOKEN_LEASE_MS)) {
        try {
          // Another instance may have saved a new token (and freed the lease) between the read
          // above and this lease: that one is taken, not a second asked for.
          const saved = await options.tokens.read();
          if (fresh(saved, stale)) {
            await options.tokens.release();
            return (memo = saved!).token;
          }
          const token = await askForToken();
          await options.tokens.save(token);
          return (memo = token).token;
        } catch (error) {
          await options.tokens.release();
          throw error;
        }
      }
      if (now().getTime() > deadline) {
        throw new OutsideServiceError('timeout', 'No token within the lease');
      }
      await new Promise((resolve) => setTimeout(resolve, TOKEN_POLL_MS));
    }
  }

  function token(stale?: string): Promise<string> {
    if (fresh(memo, stale)) return Promise.resolve(memo!.token);
    renewing ??= renew(stale).finally(() => {
      renewing = null;
    });
    return renewing;
  }

  async function call(
    method: 'GET' | 'PUT' | 'PATCH',
    path: string,
    body: unknown,
    fallback: string,
  ): Promise<CallOutcome> {
    let bearer: string | undefined;
    try {
      let answer: OutsideAnswer | null = null;
      // A token the bank no longer takes (revoked, its clock ahead of ours) is renewed once.
      for (let attempt = 0; attempt < 2; attempt++) {
        const stale: string | undefined = bearer;
        bearer = await token(stale);
        answer = await callOutsideService(`${apiUrl}${path}`, {
          service: 'pix-api',
          method,
          headers: {
            Authorization: `Bearer ${bearer}`,
            Accept: 'application/json',
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          timeoutMs,
          maxResponseBytes: MAX_RESPONSE_BYTES,
          secrets: [...secrets, bearer],
          retries: method === 'PATCH' ? 0 : 1,
          agent,
        });
        if (answer.status !== 401) break;
      }
      const json = parseJson(answer!.text);
      if (!answer!.ok) {
        logger.warn(
          { path: hide(path), status: answer!.status, answer: hide(answer!.text, bearer) },
          'API Pix refused a call',
        );
        return {
          ok: false,
          error: answer!.status === 404 ? PIX_API_MESSAGES.notFound : fallback,
          status: answer!.status,
        };
      }
      // An empty answer is the spec's for some writes (PUT /webhook answers 200 with none).
      if (json === undefined && answer!.text.trim() !== '') {
        return { ok: false, error: PIX_API_MESSAGES.invalidAnswer, status: answer!.status };
      }
      return { ok: true, value: json, status: answer!.status };
    } catch (error) {
      if (!(error instanceof OutsideServiceError)) throw error;
      const timedOut = error.failure === 'timeout';
      logger.warn({ path: hide(path), reason: hide(error.message, bearer) }, 'API Pix call failed');
      if (error.message === PIX_API_MESSAGES.tokenFailed) {
        return { ok: false, error: PIX_API_MESSAGES.tokenFailed };
      }
      return { ok: false, error: timedOut ? PIX_API_MESSAGES.noAnswer : fallback };
    }
  }

  async function readCob(txid: string, fallback: string): Promise<PaymentOutcome<Cob>> {
    const answer = await call('GET', `/cob/${txid}`, undefined, fallback);
    if (!answer.ok) return { ok: false, error: answer.error };
    const parsed = cobSchema.safeParse(answer.value);
    if (!parsed.success || parsed.data.txid !== txid) {
      return { ok: false, error: PIX_API_MESSAGES.invalidAnswer };
    }
    return { ok: true, value: parsed.data };
  }

  function report(cob: Cob): PaymentReport {
    const charged = amountCents(cob.valor.original) ?? 0;
    const received = (cob.pix ?? []).filter(
      (pix) => pix.txid === undefined || pix.txid === cob.txid,
    );
    const paidCents = received.reduce((sum, pix) => sum + (amountCents(pix.valor) ?? 0), 0);
    const refundedCents = received
      .flatMap((pix) => pix.devolucoes ?? [])
      .filter((devolucao) => devolucao.status === 'DEVOLVIDO')
      .reduce((sum, devolucao) => sum + (amountCents(devolucao.valor) ?? 0), 0);
    const details: PaymentDetails = {
      method: 'pix',
      brand: null,
      installments: null,
      installmentCents: null,
      paidCents: received.length > 0 ? paidCents : null,
      // The bank charges no processor's fee: what is paid is what the store receives (a
      // devolução shows apart, in refundedCents).
      feeCents: received.length > 0 ? 0 : null,
      netCents: received.length > 0 ? paidCents : null,
      refundedCents,
      releaseStatus: null,
      releaseDate: null,
      panelUrl: null,
    };
    let status: PaymentStatus;
    if (cob.status === 'CONCLUIDA' && received.length > 0) {
      status = refundedCents > 0 && refundedCents >= paidCents ? 'refunded' : 'approved';
    } else if (cob.status === 'ATIVA') {
      const created = Date.parse(cob.calendario.criacao);
      const life = (cob.calendario.expiracao ?? 86_400) * 1000;
      status = Number.isFinite(created) && created + life < now().getTime() ? 'expired' : 'pending';
    } else if (cob.status === 'CONCLUIDA') {
      // Concluded with no PIX in it: nothing received, whatever the status says.
      status = 'pending';
    } else {
      status = 'expired';
    }
    return {
      status,
      paymentId: cob.txid,
      orderId: pixApiOrderId(cob.txid),
      details,
      money:
        status === 'approved'
          ? { cents: paidCents, currency: 'BRL', held: false, exactCents: charged }
          : null,
    };
  }

  async function status(txid: string): Promise<PaymentOutcome<PaymentReport>> {
    if (!TXID.test(txid)) return { ok: false, error: PIX_API_MESSAGES.notFound };
    const cob = await readCob(txid, PIX_API_MESSAGES.statusFailed);
    return cob.ok ? { ok: true, value: report(cob.value) } : cob;
  }

  /** An earlier charge of the order, replaced by a new one, can no longer be paid. */
  async function removeCharge(txid: string): Promise<void> {
    const answer = await call(
      'PATCH',
      `/cob/${txid}`,
      { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
      PIX_API_MESSAGES.statusFailed,
    );
    if (!answer.ok) logger.info({ txid }, 'API Pix: an earlier charge could not be removed');
  }

  function created(cob: Cob, deadline: Date): PaymentOutcome<CreatedPayment> {
    if (!cob.pixCopiaECola) return { ok: false, error: PIX_API_MESSAGES.invalidAnswer };
    return {
      ok: true,
      value: {
        paymentId: cob.txid,
        status: 'pending',
        pixCode: cob.pixCopiaECola,
        pixQrCode: null,
        billetUrl: null,
        billetCode: null,
        paymentUrl: null,
        expiresAt: deadline,
      },
    };
  }

  const webhookUrl = `${publicUrl}/api/payments/pix-api`;

  return {
    name: 'pix-api',
    testMode: false,
    accepts: ['pix'],
    checkoutOrigins: [],

    async create(request) {
      const invalid = paymentRequestError(request);
      if (invalid) return { ok: false, error: invalid };
      if (!isUuid(request.orderId)) return { ok: false, error: PIX_API_MESSAGES.createFailed };
      const settings = await options.settings();
      if (!settings.pix_key) return { ok: false, error: PAYMENT_NOT_CONFIGURED };
      const start = now();
      const deadline =
        request.deadline ?? new Date(start.getTime() + settings.pix_expiration_minutes * 60_000);
      const txid = pixApiTxid(request.orderId, request.attempt);
      const earlier = request.attempt.startsWith('after:') ? request.attempt.slice(6) : null;
      if (earlier && TXID.test(earlier) && earlier !== txid) await removeCharge(earlier);
      const answer = await call(
        'PUT',
        `/cob/${txid}`,
        {
          calendario: {
            expiracao: Math.max(
              MIN_EXPIRY_SECONDS,
              Math.round((deadline.getTime() - start.getTime()) / 1000),
            ),
          },
          devedor: {
            cpf: request.customer.cpf.replace(/\D/g, ''),
            nome: request.customer.name.slice(0, 200),
          },
          valor: { original: pixApiAmount(request.amountCents) },
          chave: settings.pix_key,
          solicitacaoPagador: request.description.slice(0, 140),
        },
        PIX_API_MESSAGES.createFailed,
      );
      if (answer.ok) {
        const parsed = cobSchema.safeParse(answer.value);
        if (!parsed.success || parsed.data.txid !== txid) {
          return { ok: false, error: PIX_API_MESSAGES.invalidAnswer };
        }
        return created(parsed.data, deadline);
      }
      // The same create sent again after its answer was lost: the charge is there already.
      if (answer.status !== undefined && answer.status >= 400 && answer.status < 500) {
        const existing = await readCob(txid, PIX_API_MESSAGES.createFailed);
        if (
          existing.ok &&
          existing.value.status === 'ATIVA' &&
          existing.value.valor.original === pixApiAmount(request.amountCents)
        ) {
          return created(existing.value, deadline);
        }
      }
      return { ok: false, error: answer.error };
    },

    // A thousand callbacks about one charge at once read it twice, never before they came.
    status: freshReads(status),

    async refund(txid, idempotencyKey) {
      const cob = await readCob(txid, PIX_API_MESSAGES.refundFailed);
      if (!cob.ok) return cob;
      const pix = (cob.value.pix ?? [])[0];
      if (cob.value.status !== 'CONCLUIDA' || !pix) {
        return { ok: false, error: PIX_API_MESSAGES.notPaid };
      }
      // The refund's id from the key: a second click asks for the very same devolução.
      const id = idempotencyKey.replace(/[^a-zA-Z0-9]/g, '').slice(0, 35);
      const answer = await call(
        'PUT',
        `/pix/${pix.endToEndId}/devolucao/${id}`,
        { valor: pix.valor, natureza: 'ORIGINAL', descricao: 'Pedido cancelado pela loja' },
        PIX_API_MESSAGES.refundFailed,
      );
      if (!answer.ok) return { ok: false, error: answer.error };
      return status(txid);
    },

    async received(since, until) {
      const txids = new Set<string>();
      for (let page = 0, pages = 1; page < pages && page < 50; page++) {
        const query = new URLSearchParams({
          inicio: since.toISOString(),
          fim: until.toISOString(),
          'paginacao.paginaAtual': String(page),
        });
        const answer = await call('GET', `/pix?${query}`, undefined, PIX_API_MESSAGES.statusFailed);
        if (!answer.ok) return { ok: false, error: answer.error };
        const parsed = pixListSchema.safeParse(answer.value);
        if (!parsed.success) return { ok: false, error: PIX_API_MESSAGES.invalidAnswer };
        pages = parsed.data.parametros.paginacao.quantidadeDePaginas;
        for (const pix of parsed.data.pix ?? ([] as ReceivedPix[])) {
          if (pix.txid && TXID.test(pix.txid)) txids.add(pix.txid);
        }
      }
      return { ok: true, value: [...txids] };
    },

    async registerWebhook() {
      const { pix_key: key } = await options.settings();
      if (!key) return { ok: false, error: PAYMENT_NOT_CONFIGURED };
      const answer = await call(
        'PUT',
        `/webhook/${encodeURIComponent(key)}`,
        { webhookUrl },
        PIX_API_MESSAGES.webhookFailed,
      );
      return answer.ok ? { ok: true, value: webhookUrl } : { ok: false, error: answer.error };
    },

    async webhook() {
      const { pix_key: key } = await options.settings();
      if (!key) return { ok: false, error: PAYMENT_NOT_CONFIGURED };
      const answer = await call(
        'GET',
        `/webhook/${encodeURIComponent(key)}`,
        undefined,
        PIX_API_MESSAGES.statusFailed,
      );
      if (!answer.ok) return answer.status === 404 ? { ok: true, value: null } : answer;
      const parsed = webhookSchema.safeParse(answer.value);
      return parsed.success
        ? { ok: true, value: parsed.data.webhookUrl }
        : { ok: false, error: PIX_API_MESSAGES.invalidAnswer };
    },

    async testConnection() {
      const until = now();
      const query = new URLSearchParams({
        inicio: new Date(until.getTime() - 60 * 60_000).toISOString(),
        fim: until.toISOString(),
      });
      const answer = await call('GET', `/cob?${query}`, undefined, PIX_API_MESSAGES.statusFailed);
      if (!answer.ok) return { ok: false, error: answer.error };
      const parsed = cobListSchema.safeParse(answer.value);
      return parsed.success
        ? { ok: true, value: { charges: parsed.data.cobs.length } }
        : { ok: false, error: PIX_API_MESSAGES.invalidAnswer };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
