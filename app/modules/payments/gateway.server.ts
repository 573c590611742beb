import { logger } from '~/lib/logger.server';
import {
  callOutsideService,
  OutsideServiceError,
  redactSecrets,
  type OutsideAnswer,
} from '~/lib/http-client.server';

import { paymentRequestError } from './request';
import {
  statusReport,
  type CreatedPayment,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentStatus,
} from './types';

// The gateways of SPEC §7 take the bare secret key as the Authorization value, with no scheme.
const AUTH_HEADER = 'Authorization';

// A gateway answers with a few hundred bytes; anything near this is not an answer.
const MAX_RESPONSE_BYTES = 1024 * 1024;

const CREATE_FAILED = 'Erro ao processar pagamento';
const STATUS_FAILED = 'Erro ao verificar status do pagamento';
const INVALID_RESPONSE = 'Resposta inválida da API de pagamento';
const NO_ANSWER = 'O serviço de pagamento não respondeu. Tente novamente.';
const NOT_FOUND = 'Pagamento não encontrado';

// A gateway's message may reach the shopper's screen; a longer one is a stack trace or a page.
const MAX_MESSAGE_LENGTH = 300;

const GATEWAY_STATUSES: Record<string, PaymentStatus> = {
  PENDING: 'pending',
  WAITING_PAYMENT: 'pending',
  APPROVED: 'approved',
  PAID: 'approved',
  REJECTED: 'rejected',
  REFUSED: 'rejected',
  FAILED: 'rejected',
  CANCELED: 'rejected',
  EXPIRED: 'expired',
  REFUNDED: 'refunded',
  CHARGEBACK: 'chargeback',
  CHARGEDBACK: 'chargeback',
};

export interface GatewayOptions {
  /** Where `transaction.purchase` and `transaction.getPayment` live, such as https://api.gateway.com/v1. */
  baseUrl: string;
  secretKey: string;
  /**
   * The store's PUBLIC_URL. Postbacks go to its /api/payments/postback; never to the host a
   * request named, which a client could choose.
   */
  publicUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function gatewayStatus(value: unknown): PaymentStatus | null {
  return typeof value === 'string' ? (GATEWAY_STATUSES[value.trim().toUpperCase()] ?? null) : null;
}

function date(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** SPEC §8's order: the message, else the issues' messages, else the error field. */
function gatewayMessage(body: unknown): string | null {
  if (!isObject(body)) return null;
  const issues = Array.isArray(body.issues)
    ? body.issues.map((issue) => (isObject(issue) ? text(issue.message) : null)).filter(Boolean)
    : [];
  return text(body.message) ?? (issues.length > 0 ? issues.join(', ') : null) ?? text(body.error);
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * The payment gateway of SPEC §7, over HTTP. Every failure comes back as pt-BR text fit for the
 * shopper: the gateway's own message when it gives one, never a network error's English, and
 * never the secret key (a gateway that echoes the request, or a malformed key that the HTTP
 * client quotes in its error, would otherwise show it).
 */
export function createGatewayProvider(options: GatewayOptions): PaymentProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const postbackUrl = `${options.publicUrl.replace(/\/+$/, '')}/api/payments/postback`;

  const redact = (message: string) =>
    redactSecrets(message, [options.secretKey])
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, MAX_MESSAGE_LENGTH);

  async function call(
    path: string,
    init: { method: 'GET' } | { method: 'POST'; body: unknown },
    fallback: string,
  ): Promise<PaymentOutcome<JsonObject>> {
    let answer: OutsideAnswer;
    try {
      answer = await callOutsideService(`${baseUrl}/${path}`, {
        service: 'payment-gateway',
        method: init.method,
        headers: {
          [AUTH_HEADER]: options.secretKey,
          Accept: 'application/json',
          ...(init.method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
        },
        body: init.method === 'POST' ? JSON.stringify(init.body) : undefined,
        timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        secrets: [options.secretKey],
        // Asking a payment's status twice changes nothing; a purchase is never sent twice.
        retries: init.method === 'GET' ? 1 : 0,
        fetch: options.fetch,
      });
    } catch (error) {
      if (!(error instanceof OutsideServiceError)) throw error;
      if (error.failure === 'too-large') {
        logger.warn({ path }, 'Payment gateway answer too large');
        return { ok: false, error: INVALID_RESPONSE };
      }
      const timedOut = error.failure === 'timeout';
      logger.warn({ path, reason: redact(error.message), timedOut }, 'Payment gateway call failed');
      return { ok: false, error: timedOut ? NO_ANSWER : fallback };
    }

    const json = parseJson(answer.text);
    if (!answer.ok) {
      const message = gatewayMessage(json);
      const shown = message === null ? null : redact(message);
      logger.warn(
        { path, status: answer.status, message: shown },
        'Payment gateway refused a call',
      );
      return { ok: false, error: shown || fallback };
    }
    if (!isObject(json)) return { ok: false, error: INVALID_RESPONSE };
    return { ok: true, value: json };
  }

  return {
    name: 'gateway',
    testMode: false,
    // The SPEC §7 gateway also takes cards and boleto, but checkout asks only for PIX.
    accepts: ['pix'],
    checkoutOrigins: [],

    async create(request) {
      const invalid = paymentRequestError(request);
      if (invalid) return { ok: false, error: invalid };
      const answer = await call(
        'transaction.purchase',
        {
          method: 'POST',
          body: {
            name: request.customer.name,
            email: request.customer.email,
            cpf: request.customer.cpf.replace(/\D/g, ''),
            phone: request.customer.phone.replace(/\D/g, ''),
            // Gateways name methods in capitals ('PIX', 'CREDIT_CARD', 'BILLET').
            paymentMethod: request.method.toUpperCase(),
            amount: request.amountCents,
            traceable: true,
            items: request.items.map((item) => ({
              unitPrice: item.unitPriceCents,
              title: item.title,
              quantity: item.quantity,
              tangible: false,
            })),
            externalId: request.orderId,
            postbackUrl,
            utmQuery: request.utmQuery,
          },
        },
        CREATE_FAILED,
      );
      if (!answer.ok) return answer;
      const body = answer.value;
      const id = typeof body.id === 'number' ? String(body.id) : text(body.id);
      if (id === null) return { ok: false, error: INVALID_RESPONSE };
      const payment: CreatedPayment = {
        paymentId: id,
        // A payment just created that the gateway describes in words we do not know is still
        // waiting for the shopper; the status calls settle it.
        status: gatewayStatus(body.status) ?? 'pending',
        pixCode: text(body.pixCode),
        pixQrCode: text(body.pixQrCode),
        billetUrl: text(body.billetUrl),
        billetCode: text(body.billetCode),
        paymentUrl: null,
        expiresAt: date(body.expiresAt),
      };
      return { ok: true, value: payment };
    },

    async status(paymentId) {
      if (paymentId.trim() === '' || paymentId.length > 200) return { ok: false, error: NOT_FOUND };
      const answer = await call(
        `transaction.getPayment?id=${encodeURIComponent(paymentId)}`,
        { method: 'GET' },
        STATUS_FAILED,
      );
      if (!answer.ok) return answer;
      if (text(answer.value.status) === null) return { ok: false, error: INVALID_RESPONSE };
      const status = gatewayStatus(answer.value.status);
      if (status === null) {
        const reported = redact(String(answer.value.status));
        logger.warn({ status: reported }, 'Payment gateway reported an unknown status');
        return { ok: false, error: STATUS_FAILED };
      }
      return { ok: true, value: statusReport(paymentId, status) };
    },
  };
}
