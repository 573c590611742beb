import { createHash } from 'node:crypto';

import { z } from 'zod';

import { freshReads } from '~/lib/fresh-reads';
import { logger } from '~/lib/logger.server';
import {
  callOutsideService,
  OutsideServiceError,
  redactSecrets,
  type OutsideAnswer,
} from '~/lib/http-client.server';
import { isUuid } from '~/lib/uuid';

import { BOLETO_CLEARING_DAYS, boletoDueDay } from './boleto.server';
import { readMercadoPagoNotice } from './mercadopago-notice.server';
import { paymentRequestError } from './request';
import {
  checkoutPlaceholder,
  isCheckoutPlaceholder,
  type CreatedPayment,
  type PaymentDetails,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentReport,
  type PaymentRequest,
  type PaymentStatus,
} from './types';

/** The store settings this provider reads (a subset of `StoreSettings`). */
export interface MercadoPagoSettings {
  /** How long a PIX, or the link to Mercado Pago's checkout, can be paid. */
  pix_expiration_minutes: number;
  max_installments: number;
  /** Business days until a boleto falls due; the order holds its stock that long. */
  boleto_due_days: number;
}

export interface MercadoPagoOptions {
  /** MERCADOPAGO_API_URL: https://api.mercadopago.com, or a fake server in tests. */
  apiUrl: string;
  accessToken: string;
  /** MERCADOPAGO_WEBHOOK_SECRET: what its notifications are signed with. */
  webhookSecret: string;
  /**
   * The store's PUBLIC_URL: notifications go to its /api/payments/mercadopago, never to the host
   * a request named, which a client could choose.
   */
  publicUrl: string;
  settings: () => Promise<MercadoPagoSettings>;
  timeoutMs?: number;
  now?: () => Date;
  fetch?: typeof fetch;
}

const CREATE_FAILED = 'Erro ao processar pagamento';
const STATUS_FAILED = 'Erro ao verificar status do pagamento';
const INVALID_RESPONSE = 'Resposta inválida da API de pagamento';
const NO_ANSWER = 'O serviço de pagamento não respondeu. Tente novamente.';
const NOT_FOUND = 'Pagamento não encontrado';

/** Where Mercado Pago's checkout pages (init_point, sandbox_init_point) are served. */
const CHECKOUT_ORIGINS = ['https://www.mercadopago.com.br', 'https://sandbox.mercadopago.com.br'];
const REFUND_FAILED = 'O Mercado Pago não aceitou o reembolso. Confira o pagamento no painel dele.';

// Mercado Pago's message may reach the shopper's screen; a longer one is not a message.
const MAX_MESSAGE_LENGTH = 300;
// A PIX answer carries its QR code as a PNG in base64: tens of kilobytes.
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Payment ids are numbers at Mercado Pago; anything else asked about is not one of its. */
const PAYMENT_ID = /^\d{1,20}$/;

/**
 * Brazil has kept UTC−3 all year since 2019; Mercado Pago's examples write dates with that
 * offset, as its own panel does.
 */
function brazilTime(date: Date): string {
  return new Date(date.getTime() - 3 * 60 * 60_000).toISOString().replace('Z', '-03:00');
}

/** Mercado Pago asks for the payer's first name and the rest apart. */
function payerName(name: string): { first: string; last: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first, last: rest.join(' ') };
}

/** Our cents as the decimal reais Mercado Pago's amounts are written in. */
const reais = (cents: number) => Math.round(cents) / 100;
const cents = (amount: number) => Math.round(amount * 100);

/**
 * The idempotency key of one payment attempt: the same order and attempt give the same key, so a
 * create sent again after a timeout finds the payment the first one made, never a second charge.
 * Written as a UUID, the form Mercado Pago's documentation asks for.
 */
export function mercadoPagoIdempotencyKey(orderId: string, attempt: string): string {
  const hex = createHash('sha256').update(`vitrine:${orderId}:${attempt}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const amount = z.number().finite().nonnegative();

const paymentSchema = z.looseObject({
  id: z.union([z.number().int().nonnegative(), z.string().regex(PAYMENT_ID)]),
  status: z.string(),
  status_detail: z.string().nullish(),
  external_reference: z.string().nullish(),
  payment_type_id: z.string().nullish(),
  payment_method_id: z.string().nullish(),
  installments: z.number().int().nullish(),
  transaction_amount: amount.nullish(),
  transaction_amount_refunded: amount.nullish(),
  currency_id: z.string().nullish(),
  date_of_expiration: z.string().nullish(),
  money_release_status: z.string().nullish(),
  money_release_date: z.string().nullish(),
  transaction_details: z
    .looseObject({
      installment_amount: amount.nullish(),
      total_paid_amount: amount.nullish(),
      net_received_amount: amount.nullish(),
      external_resource_url: z.url({ protocol: /^https?$/ }).nullish(),
    })
    .nullish(),
  fee_details: z
    .array(z.looseObject({ amount: amount, fee_payer: z.string().nullish() }))
    .nullish(),
  point_of_interaction: z
    .looseObject({
      transaction_data: z.looseObject({ qr_code: z.string().nullish() }).nullish(),
    })
    .nullish(),
});
type MercadoPagoPayment = z.infer<typeof paymentSchema>;

const searchSchema = z.looseObject({ results: z.array(z.unknown()) });

const preferenceSchema = z.looseObject({
  id: z.string().min(1),
  init_point: z.url({ protocol: /^https?$/ }),
});

const errorSchema = z.looseObject({
  message: z.string().optional(),
  cause: z.array(z.looseObject({ description: z.string().nullish() })).optional(),
});

/**
 * Mercado Pago's words for a payment, in ours. A cancelled payment whose detail is 'expired' is
 * a PIX or boleto whose time ran out; any other cancellation is the payment refused. Authorized
 * is money held on a card, not taken: no payment yet (the report says it is held).
 */
export function mercadoPagoStatus(status: string, detail?: string | null): PaymentStatus | null {
  switch (status) {
    case 'approved':
      return 'approved';
    case 'authorized':
    case 'pending':
    case 'in_process':
    case 'in_mediation':
      return 'pending';
    case 'rejected':
      return 'rejected';
    case 'cancelled':
      return detail === 'expired' ? 'expired' : 'rejected';
    case 'refunded':
      return 'refunded';
    case 'charged_back':
      return 'chargeback';
    default:
      return null;
  }
}

/** Our names for Mercado Pago's payment types. */
const METHODS: Record<string, string> = {
  bank_transfer: 'pix',
  credit_card: 'credit_card',
  debit_card: 'debit_card',
  ticket: 'boleto',
};

function paymentDetails(payment: MercadoPagoPayment): PaymentDetails {
  const transaction = payment.transaction_details;
  const fees = payment.fee_details ?? [];
  const storeFees = fees.filter((fee) => fee.fee_payer !== 'payer');
  const id = String(payment.id);
  return {
    method: payment.payment_type_id
      ? (METHODS[payment.payment_type_id] ?? payment.payment_type_id)
      : null,
    brand: payment.payment_method_id ?? null,
    installments: payment.installments ?? null,
    installmentCents:
      transaction?.installment_amount != null ? cents(transaction.installment_amount) : null,
    paidCents: transaction?.total_paid_amount != null ? cents(transaction.total_paid_amount) : null,
    feeCents: fees.length > 0 ? storeFees.reduce((sum, fee) => sum + cents(fee.amount), 0) : null,
    netCents:
      transaction?.net_received_amount != null ? cents(transaction.net_received_amount) : null,
    refundedCents: cents(payment.transaction_amount_refunded ?? 0),
    releaseStatus: payment.money_release_status ?? null,
    releaseDate: payment.money_release_date ?? null,
    panelUrl: `https://www.mercadopago.com.br/activities/1?q=${encodeURIComponent(id)}`,
  };
}

/** Where its hosted checkout lives: its sites, and a test's fake beside its API. */
export function mercadoPagoCheckoutOrigins(apiUrl: string): string[] {
  return [...new Set([...CHECKOUT_ORIGINS, new URL(apiUrl).origin])];
}

/** A call's answer; `conflict`: the key was used before with another request (HTTP 409). */
type CallOutcome = { ok: true; value: unknown } | { ok: false; error: string; conflict: boolean };

/** What callers outside the provider get of a failed call: its words only. */
const failure = (outcome: { error: string }) => ({ ok: false as const, error: outcome.error });

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * Mercado Pago, over its REST API (ADR 035): PIX created on the server and shown on our own
 * page. Every status comes from reading the payment again with the store's token, so a
 * notification or a return URL is only ever a hint. Failures come back as pt-BR text fit for
 * the shopper, never with the token in them.
 */
export function createMercadoPagoProvider(options: MercadoPagoOptions): PaymentProvider {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const now = options.now ?? (() => new Date());
  const notificationUrl = `${publicUrl}/api/payments/mercadopago?source_news=webhooks`;
  const checkoutOrigins = mercadoPagoCheckoutOrigins(apiUrl);

  const redact = (message: string) =>
    redactSecrets(message, [options.accessToken])
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, MAX_MESSAGE_LENGTH);

  async function call(
    path: string,
    init: { method: 'GET' } | { method: 'POST'; body: unknown; idempotencyKey: string },
    fallback: string,
  ): Promise<CallOutcome> {
    let answer: OutsideAnswer;
    try {
      answer = await callOutsideService(`${apiUrl}${path}`, {
        service: 'mercadopago',
        method: init.method,
        headers: {
          Authorization: `Bearer ${options.accessToken}`,
          Accept: 'application/json',
          ...(init.method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
        },
        body: init.method === 'POST' ? JSON.stringify(init.body) : undefined,
        idempotencyKey: init.method === 'POST' ? init.idempotencyKey : undefined,
        idempotencyHeader: 'X-Idempotency-Key',
        timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        secrets: [options.accessToken],
        // A read may run twice; a create runs again only with its key, which makes it the same.
        retries: 1,
        fetch: options.fetch,
      });
    } catch (error) {
      if (!(error instanceof OutsideServiceError)) throw error;
      const timedOut = error.failure === 'timeout';
      logger.warn({ path, reason: redact(error.message), timedOut }, 'Mercado Pago call failed');
      return { ok: false, error: timedOut ? NO_ANSWER : fallback, conflict: false };
    }
    const json = parseJson(answer.text);
    if (!answer.ok) {
      const parsed = errorSchema.safeParse(json);
      const message = parsed.success
        ? (parsed.data.cause?.find((cause) => cause.description)?.description ??
          parsed.data.message)
        : undefined;
      logger.warn(
        { path, status: answer.status, message: message ? redact(message) : null },
        'Mercado Pago refused a call',
      );
      // Its messages are English ('payer.email must be a valid email'): the shopper reads ours.
      return {
        ok: false,
        error: answer.status === 404 ? NOT_FOUND : fallback,
        conflict: answer.status === 409,
      };
    }
    if (json === undefined) return { ok: false, error: INVALID_RESPONSE, conflict: false };
    return { ok: true, value: json };
  }

  function report(payment: MercadoPagoPayment): PaymentReport | null {
    const status = mercadoPagoStatus(payment.status, payment.status_detail);
    if (status === null) {
      logger.warn({ status: redact(payment.status) }, 'Mercado Pago reported an unknown status');
      return null;
    }
    return {
      status,
      paymentId: String(payment.id),
      orderId: payment.external_reference ?? null,
      details: paymentDetails(payment),
      paymentUrl: payment.transaction_details?.external_resource_url ?? null,
      // A payment that leaves out its amount or currency confirms nothing: 0 in no currency.
      money: {
        cents: cents(payment.transaction_amount ?? 0),
        currency: payment.currency_id ?? '',
        held: payment.status === 'authorized',
      },
    };
  }

  /**
   * How an order paid on Mercado Pago's checkout stands: its payments there, found by our
   * reference. Money taken counts first, then a payment still waiting (a boleto issued); a card
   * refused there leaves the order waiting, since the shopper may try another until the link
   * expires.
   */
  async function checkoutStatus(placeholder: string): Promise<PaymentOutcome<PaymentReport>> {
    const orderId = placeholder.slice(checkoutPlaceholder('').length);
    if (!isUuid(orderId)) return { ok: false, error: NOT_FOUND };
    const payments = await paymentsOf(orderId, STATUS_FAILED);
    if (!payments.ok) return payments;
    const reports = payments.value.flatMap((payment) => {
      const read = report(payment);
      return read ? [read] : [];
    });
    const chosen =
      reports.find((read) => read.status === 'approved') ??
      reports.find((read) => read.status === 'pending');
    return {
      ok: true,
      value: chosen ?? { status: 'pending', paymentId: placeholder, orderId, details: null },
    };
  }

  /** The order's payments at Mercado Pago, newest first (our order id is their reference). */
  async function paymentsOf(
    orderId: string,
    fallback: string,
  ): Promise<PaymentOutcome<MercadoPagoPayment[]>> {
    const query = new URLSearchParams({
      external_reference: orderId,
      sort: 'date_created',
      criteria: 'desc',
      limit: '30',
    });
    const answer = await call(`/v1/payments/search?${query}`, { method: 'GET' }, fallback);
    if (!answer.ok) return failure(answer);
    const parsed = searchSchema.safeParse(answer.value);
    if (!parsed.success) return { ok: false, error: INVALID_RESPONSE };
    return {
      ok: true,
      value: parsed.data.results.flatMap((result) => {
        const payment = paymentSchema.safeParse(result);
        return payment.success && payment.data.external_reference === orderId ? [payment.data] : [];
      }),
    };
  }

  async function createPix(request: PaymentRequest): Promise<PaymentOutcome<CreatedPayment>> {
    const settings = await options.settings();
    // The order's own deadline on its first payment: a create sent again is the same request.
    const deadline =
      request.deadline ?? new Date(now().getTime() + settings.pix_expiration_minutes * 60_000);
    const payer = payerName(request.customer.name);
    const answer = await call(
      '/v1/payments',
      {
        method: 'POST',
        idempotencyKey: mercadoPagoIdempotencyKey(request.orderId, request.attempt),
        body: {
          transaction_amount: reais(request.amountCents),
          description: request.description,
          payment_method_id: 'pix',
          external_reference: request.orderId,
          date_of_expiration: brazilTime(deadline),
          notification_url: notificationUrl,
          payer: {
            email: request.customer.email,
            first_name: payer.first,
            last_name: payer.last,
            identification: { type: 'CPF', number: request.customer.cpf.replace(/\D/g, '') },
          },
        },
      },
      CREATE_FAILED,
    );
    let created: unknown;
    if (answer.ok) created = answer.value;
    else if (answer.conflict) {
      // A later attempt sent again after its deadline moved on: the PIX it made is waiting.
      const made = await paymentsOf(request.orderId, CREATE_FAILED);
      if (!made.ok) return made;
      created = made.value.find(
        (payment) =>
          payment.status === 'pending' && payment.point_of_interaction?.transaction_data?.qr_code,
      );
    } else return failure(answer);
    const parsed = paymentSchema.safeParse(created);
    const pixCode = parsed.success
      ? parsed.data.point_of_interaction?.transaction_data?.qr_code
      : undefined;
    if (!parsed.success || !pixCode) return { ok: false, error: INVALID_RESPONSE };
    const given = parsed.data.date_of_expiration ? new Date(parsed.data.date_of_expiration) : null;
    return {
      ok: true,
      value: {
        paymentId: String(parsed.data.id),
        status: mercadoPagoStatus(parsed.data.status, parsed.data.status_detail) ?? 'pending',
        pixCode,
        // Our pages draw the QR from the code; the PNG Mercado Pago sends is not kept.
        pixQrCode: null,
        billetUrl: null,
        billetCode: null,
        paymentUrl: null,
        expiresAt: given && !Number.isNaN(given.getTime()) ? given : deadline,
      },
    };
  }

  /**
   * Cards in instalments and boleto: a preference on Mercado Pago's checkout, where the shopper
   * pays (card data never reaches us) and from where they come back to /payment-callback. The
   * order holds a placeholder until a payment appears under its reference.
   */
  async function createCheckout(request: PaymentRequest): Promise<PaymentOutcome<CreatedPayment>> {
    const settings = await options.settings();
    const boleto = request.method === 'boleto';
    // From the order's own deadline on its first payment, so a create sent again is the same.
    const linkDeadline =
      request.deadline ?? new Date(now().getTime() + settings.pix_expiration_minutes * 60_000);
    const dueDay = boleto
      ? boletoDueDay(request.deadline ?? now(), settings.boleto_due_days)
      : null;
    const payer = payerName(request.customer.name);
    const back = `${publicUrl}/payment-callback?${new URLSearchParams({ orderId: request.orderId })}`;
    const preferenceBody = {
      // One line for the whole order: Mercado Pago charges the sum of its items, and the
      // order's total already has its discounts and shipping.
      items: [
        {
          id: request.orderId,
          title: request.description,
          quantity: 1,
          unit_price: reais(request.amountCents),
          currency_id: 'BRL',
        },
      ],
      payer: {
        email: request.customer.email,
        name: payer.first,
        surname: payer.last,
        identification: { type: 'CPF', number: request.customer.cpf.replace(/\D/g, '') },
      },
      external_reference: request.orderId,
      back_urls: { success: back, pending: back, failure: back },
      auto_return: 'approved',
      notification_url: notificationUrl,
      payment_methods: boleto
        ? {
            excluded_payment_types: ['credit_card', 'debit_card', 'bank_transfer', 'atm'].map(
              (id) => ({ id }),
            ),
            installments: 1,
          }
        : {
            excluded_payment_types: ['ticket', 'bank_transfer', 'atm'].map((id) => ({ id })),
            installments: settings.max_installments,
            default_installments: 1,
          },
      // The link can be paid until the order's deadline; a boleto until its due day.
      expires: true,
      expiration_date_to: brazilTime(dueDay ?? linkDeadline),
      ...(dueDay ? { date_of_expiration: brazilTime(dueDay) } : {}),
    };
    const create = (attempt: string) =>
      call(
        '/checkout/preferences',
        {
          method: 'POST',
          idempotencyKey: mercadoPagoIdempotencyKey(request.orderId, attempt),
          body: preferenceBody,
        },
        CREATE_FAILED,
      );
    let answer = await create(request.attempt);
    // A later attempt sent again after its deadline moved on: a preference charges no one (the
    // order follows whatever payment is made under its reference), so a second one is harmless.
    if (!answer.ok && answer.conflict) {
      answer = await create(`${request.attempt}@${linkDeadline.toISOString()}`);
    }
    if (!answer.ok) return failure(answer);
    const preference = preferenceSchema.safeParse(answer.value);
    // The shopper is sent there: only to Mercado Pago's own pages.
    if (
      !preference.success ||
      !checkoutOrigins.includes(new URL(preference.data.init_point).origin)
    ) {
      return { ok: false, error: INVALID_RESPONSE };
    }
    return {
      ok: true,
      value: {
        paymentId: checkoutPlaceholder(request.orderId),
        status: 'pending',
        pixCode: null,
        pixQrCode: null,
        billetUrl: null,
        billetCode: null,
        paymentUrl: preference.data.init_point,
        expiresAt: dueDay ? boletoDueDay(dueDay, BOLETO_CLEARING_DAYS) : linkDeadline,
      },
    };
  }

  async function paymentStatus(paymentId: string): Promise<PaymentOutcome<PaymentReport>> {
    if (isCheckoutPlaceholder(paymentId)) return checkoutStatus(paymentId);
    if (!PAYMENT_ID.test(paymentId)) return { ok: false, error: NOT_FOUND };
    const answer = await call(`/v1/payments/${paymentId}`, { method: 'GET' }, STATUS_FAILED);
    if (!answer.ok) return failure(answer);
    const parsed = paymentSchema.safeParse(answer.value);
    const read = parsed.success ? report(parsed.data) : null;
    if (read === null) return { ok: false, error: INVALID_RESPONSE };
    return { ok: true, value: read };
  }

  return {
    name: 'mercadopago',
    testMode: false,
    accepts: ['pix', 'credit_card', 'boleto'],
    checkoutOrigins,

    async create(request) {
      const invalid = paymentRequestError(request);
      if (invalid) return { ok: false, error: invalid };
      if (!isUuid(request.orderId)) return { ok: false, error: CREATE_FAILED };
      return request.method === 'pix' ? createPix(request) : createCheckout(request);
    },

    // A thousand notifications about one payment at once read it twice, never before they came.
    status: freshReads(paymentStatus),

    async refund(paymentId, idempotencyKey) {
      if (!PAYMENT_ID.test(paymentId)) return { ok: false, error: NOT_FOUND };
      const answer = await call(
        `/v1/payments/${paymentId}/refunds`,
        // No amount: the whole payment.
        { method: 'POST', body: {}, idempotencyKey },
        REFUND_FAILED,
      );
      if (!answer.ok) return failure(answer);
      return paymentStatus(paymentId);
    },

    readNotification(notice) {
      return readMercadoPagoNotice(notice, options.webhookSecret, now());
    },
  };
}
