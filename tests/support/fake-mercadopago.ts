import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

import { fakePixCode, recordRequest, type RecordedRequest } from './fake-gateway';

// A stand-in for Mercado Pago's REST API, its Checkout Pro page and its webhooks, in the shapes of
// docs/research-mercadopago.md (§ numbers below refer to it). Where real MP's behaviour is
// UNCONFIRMED there, the fake does what that document suggests.

export interface FakeMercadoPagoOptions {
  accessToken: string;
  webhookSecret: string;
  /** The fake's "now" (payments' dates, links' expiry, signatures); the real clock by default. */
  now?: () => Date;
}

export interface FakeFeeDetail {
  type: 'mercadopago_fee' | 'financing_fee';
  amount: number;
  fee_payer: 'collector' | 'payer';
}

export interface FakeRefund {
  id: number;
  payment_id: number;
  amount: number;
  status: 'approved';
  source: { id: string; name: string; type: 'collector' };
  date_created: string;
  refund_mode: 'standard';
  unique_sequence_number: null;
  adjustment_amount: number;
  reason: null;
  amount_refunded_to_payer: number;
}

/** A payment as GET /v1/payments/:id shows it (§2.3); tests may read or change it in place. */
export interface FakePayment {
  id: number;
  status: string;
  status_detail: string;
  payment_method_id: string;
  payment_type_id: 'bank_transfer' | 'credit_card' | 'ticket';
  operation_type: 'regular_payment';
  processing_mode: 'aggregator';
  external_reference: string | null;
  description: string | null;
  transaction_amount: number;
  transaction_amount_refunded: number;
  /** 'BRL' as made; a test may set another to see it refused. */
  currency_id: string;
  installments: number;
  date_created: string;
  date_approved: string | null;
  date_last_updated: string;
  date_of_expiration: string | null;
  money_release_date: string | null;
  money_release_status: 'pending' | 'released' | null;
  live_mode: false;
  /** false for a card payment authorized but not captured ('authorized'). */
  captured: boolean;
  binary_mode: false;
  collector_id: number;
  statement_descriptor: string | null;
  notification_url: string | null;
  payer: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** The merchant order, for Checkout Pro payments; `{}` for payments made through the API. */
  order: { id?: string; type?: 'mercadopago' };
  transaction_details: {
    net_received_amount: number;
    total_paid_amount: number;
    installment_amount: number;
    overpaid_amount: number;
    external_resource_url: string | null;
    digitable_line?: string;
    barcode?: { content: string };
    financial_institution: null;
    payment_method_reference_id: null;
    acquirer_reference: null;
  };
  fee_details: FakeFeeDetail[];
  refunds: FakeRefund[];
  card: {
    first_six_digits?: string;
    last_four_digits?: string;
    expiration_month?: number;
    expiration_year?: number;
    cardholder?: { name: string };
  };
  point_of_interaction: {
    type: 'PIX' | 'CHECKOUT';
    transaction_data?: { qr_code: string; qr_code_base64: string; ticket_url: string };
  };
}

export interface FakePreferenceItem {
  id?: string;
  title: string;
  quantity: number;
  unit_price: number;
  currency_id?: string;
}

/** A Checkout Pro preference as POST /checkout/preferences answered it (§2.5). */
export interface FakePreference {
  id: string;
  init_point: string;
  sandbox_init_point: string;
  collector_id: number;
  client_id: string;
  date_created: string;
  operation_type: 'regular_payment';
  site_id: 'MLB';
  items: FakePreferenceItem[];
  payer?: Record<string, unknown>;
  external_reference: string;
  back_urls: { success?: string; pending?: string; failure?: string };
  auto_return?: string;
  notification_url: string | null;
  payment_methods: {
    installments: number | null;
    default_installments: number | null;
    excluded_payment_types: { id: string }[];
    excluded_payment_methods: { id: string }[];
  };
  expires: boolean;
  expiration_date_from: string | null;
  expiration_date_to: string | null;
  date_of_expiration: string | null;
  statement_descriptor: string | null;
}

export interface FakeChargeback {
  id: string;
  payments: number[];
  amount: number;
  currency: 'BRL';
  coverage_applied: boolean;
  coverage_elegible: boolean;
  documentation_required: boolean;
  documentation_status: 'pending';
  documentation: unknown[];
  date_documentation_deadline: string;
  date_created: string;
  date_last_updated: string;
  live_mode: false;
}

/** A webhook call, ready to send (§3). */
export interface NotificationRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface NotificationOptions {
  /** Signs with the wrong secret, so the signature has the right form but does not verify. */
  forge?: boolean;
  requestId?: string;
  /** Unix seconds; now by default. */
  ts?: number;
  /** payment.updated by default. */
  action?: string;
}

/** A notification the fake sent, with our app's answer or why there was none. */
export interface SentNotification extends NotificationRequest {
  status?: number;
  answer?: string;
  error?: string;
}

export interface FakeMercadoPago {
  /** The base URL for MERCADOPAGO_API_URL, such as http://127.0.0.1:41234. */
  url: string;
  /** The collector (store) user id, in preference ids and notifications' user_id. */
  collectorId: number;
  /** Every request, in order, including refused ones. */
  requests: RecordedRequest[];
  /** Keyed by the payment id as a string. */
  payments: Map<string, FakePayment>;
  preferences: Map<string, FakePreference>;
  chargebacks: Map<string, FakeChargeback>;
  /** Every notification sent, in order, with the answer it got. */
  notifications: SentNotification[];
  /** Payments created, optionally for one external_reference. */
  charges(externalReference?: string): number;
  /** Refunds created through the API (a replayed key creates none). */
  refundCalls(paymentId?: string): number;
  /**
   * How long POST /v1/payments waits before answering (replays too). The payment is made when
   * the request arrives, so a client that gives up has still charged.
   */
  createDelayMs: number;
  /** Payment ids whose GET answers 500. */
  failingReads: Set<string>;
  /** Whether state changes and Checkout Pro payments notify the payment's notification_url. */
  sendNotifications: boolean;
  approve(id: string, options?: { installments?: number }): Promise<void>;
  reject(id: string): Promise<void>;
  /** The time to pay ran out: cancelled / expired. */
  expire(id: string): Promise<void>;
  /** A full refund made by the store in MP's panel, not through the API. */
  refundInPanel(id: string): Promise<void>;
  chargeback(id: string): Promise<FakeChargeback>;
  notification(paymentId: string, options?: NotificationOptions): NotificationRequest;
  /** Sends one notification; throws if our app could not be reached. */
  notify(
    paymentId: string,
    options?: NotificationOptions,
  ): Promise<{ status: number; body: string }>;
  /** Resolves when the notifications sent after an answer (Checkout Pro, refunds, cancel) are done. */
  notificationsSettled(): Promise<void>;
  close(): Promise<void>;
}

interface ErrorCause {
  code: number | string;
  description: string;
}

class MpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly causes: ErrorCause[] = [],
  ) {
    super(message);
  }
}

const badRequest = (code: number, description: string) =>
  new MpError(400, 'bad_request', description, [{ code, description }]);

const notFound = (what: string) =>
  new MpError(404, 'not_found', `${what} not found`, [
    { code: 2000, description: `${what} not found` },
  ]);

/** A 1×1 PNG: the app only passes qr_code_base64 on to an <img>, so any valid image will do. */
const PIX_QR_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const NOTIFICATION_TIMEOUT_MS = 10_000;
/** Fee rates are made up; tests need fees that exist and add up, not MP's price list. */
const MP_FEE_RATE: Record<FakePayment['payment_type_id'], number> = {
  bank_transfer: 0.0099,
  credit_card: 0.0498,
  ticket: 0.0349,
};
/** The buyer's interest per instalment, so 6× on 600.00 costs 43.20 as in §2.3's example. */
const FINANCING_RATE_PER_INSTALMENT = 0.012;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** MP writes its dates with Brasília's offset, such as 2026-11-27T15:30:00.000-03:00. */
function mpDate(at: number): string {
  return new Date(at - 3 * 3_600_000).toISOString().replace('Z', '-03:00');
}

const financingFee = (amount: number, installments: number) =>
  installments > 1 ? round2(amount * FINANCING_RATE_PER_INSTALMENT * installments) : 0;

/** What a paid payment carries (§2.3): its fees, what the buyer paid, when money is released. */
function settle(payment: FakePayment, installments: number, now: number): void {
  const amount = payment.transaction_amount;
  const mpFee = round2(amount * MP_FEE_RATE[payment.payment_type_id]);
  const financing = financingFee(amount, installments);
  payment.status = 'approved';
  payment.status_detail = 'accredited';
  payment.installments = installments;
  payment.date_approved = mpDate(now);
  payment.date_last_updated = mpDate(now);
  payment.money_release_status = 'pending';
  payment.money_release_date = mpDate(now + 30 * 86_400_000);
  payment.fee_details = [
    ...(financing > 0
      ? [{ type: 'financing_fee', amount: financing, fee_payer: 'payer' } as const]
      : []),
    { type: 'mercadopago_fee', amount: mpFee, fee_payer: 'collector' },
  ];
  payment.transaction_details.total_paid_amount = round2(amount + financing);
  payment.transaction_details.installment_amount = round2((amount + financing) / installments);
  payment.transaction_details.net_received_amount = round2(amount - mpFee);
}

const totalOf = (preference: FakePreference) =>
  round2(preference.items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0));

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

const brl = (amount: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(amount);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} – Mercado Pago (teste)</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 0 auto; padding: 1rem; }
label, select, button { display: block; width: 100%; box-sizing: border-box; font-size: 1rem; }
select, button { min-height: 44px; margin: 0.5rem 0; }
code { overflow-wrap: anywhere; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalString = (value: unknown) => (typeof value === 'string' ? value : null);

function validDate(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
    throw badRequest(4097, `${field} must be a valid date`);
  }
  return value;
}

function validUrl(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !URL.canParse(value)) {
    throw badRequest(4020, `${field} attribute must be url valid`);
  }
  return value;
}

interface StoredAnswer {
  body: string;
  status: number;
  answer: string;
}

/**
 * Starts the fake on a port the OS picks. API routes want `Authorization: Bearer <accessToken>`;
 * the Checkout Pro pages (/checkout/v1/…) and the ticket pages are a browser's and want none.
 */
export async function startFakeMercadoPago(
  options: FakeMercadoPagoOptions,
): Promise<FakeMercadoPago> {
  const requests: RecordedRequest[] = [];
  const payments = new Map<string, FakePayment>();
  const preferences = new Map<string, FakePreference>();
  const chargebacks = new Map<string, FakeChargeback>();
  const merchantOrders = new Map<string, number>();
  const notifications: SentNotification[] = [];
  const refundCallLog: string[] = [];
  const idempotent = new Map<string, StoredAnswer>();
  const inFlight = new Set<Promise<SentNotification>>();
  const closing = new AbortController();
  const collectorId = 1_260_702_847;
  const clock = () => (options.now ?? (() => new Date()))().getTime();
  // Random starts keep ids apart when several fakes write to one test database.
  const next = {
    payment: 1_300_000_000 + randomInt(500_000_000),
    refund: 1_000_000_000 + randomInt(900_000_000),
    merchantOrder: 15_000_000_000 + randomInt(1_000_000_000),
    notification: 110_000_000_000 + randomInt(1_000_000_000),
    chargeback: 235_000_000_000_000 + randomInt(1_000_000_000),
  };
  let base = '';

  function newPayment(fields: {
    amount: number;
    type: FakePayment['payment_type_id'];
    method: string;
    externalReference: string | null;
    notificationUrl: string | null;
    description: string | null;
    payer: Record<string, unknown>;
    expiration: string | null;
  }): FakePayment {
    const id = next.payment++;
    const now = mpDate(clock());
    const payment: FakePayment = {
      id,
      status: 'pending',
      status_detail: 'pending_waiting_transfer',
      payment_method_id: fields.method,
      payment_type_id: fields.type,
      operation_type: 'regular_payment',
      processing_mode: 'aggregator',
      external_reference: fields.externalReference,
      description: fields.description,
      transaction_amount: fields.amount,
      transaction_amount_refunded: 0,
      currency_id: 'BRL',
      installments: 1,
      date_created: now,
      date_approved: null,
      date_last_updated: now,
      date_of_expiration: fields.expiration,
      money_release_date: null,
      money_release_status: null,
      live_mode: false,
      captured: true,
      binary_mode: false,
      collector_id: collectorId,
      statement_descriptor: null,
      notification_url: fields.notificationUrl,
      payer: fields.payer,
      metadata: {},
      order: {},
      transaction_details: {
        net_received_amount: 0,
        total_paid_amount: fields.amount,
        installment_amount: 0,
        overpaid_amount: 0,
        external_resource_url: null,
        financial_institution: null,
        payment_method_reference_id: null,
        acquirer_reference: null,
      },
      fee_details: [],
      refunds: [],
      card: {},
      point_of_interaction: { type: 'CHECKOUT' },
    };
    payments.set(String(id), payment);
    return payment;
  }

  function createPix(body: unknown): FakePayment {
    if (!isObject(body)) throw badRequest(2067, 'Invalid body');
    if (body.payment_method_id !== 'pix') {
      throw badRequest(4020, 'payment_method_id must be pix at this fake');
    }
    const amount = body.transaction_amount;
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) {
      throw badRequest(4037, 'Invalid transaction_amount');
    }
    const payer = body.payer;
    if (!isObject(payer) || typeof payer.email !== 'string' || !payer.email.includes('@')) {
      throw badRequest(4050, 'payer.email must be a valid email');
    }
    const payment = newPayment({
      amount,
      type: 'bank_transfer',
      method: 'pix',
      externalReference: optionalString(body.external_reference),
      notificationUrl: validUrl(body.notification_url, 'notification_url'),
      description: optionalString(body.description),
      payer,
      // Left out, a PIX expires after 24 h (§2.1).
      expiration:
        validDate(body.date_of_expiration, 'date_of_expiration') ?? mpDate(clock() + 86_400_000),
    });
    const ticketUrl = `${base}/sandbox/payments/${payment.id}/ticket`;
    payment.point_of_interaction = {
      type: 'PIX',
      transaction_data: {
        qr_code: fakePixCode(String(payment.id)),
        qr_code_base64: PIX_QR_PNG,
        ticket_url: ticketUrl,
      },
    };
    return payment;
  }

  function createPreference(body: unknown): FakePreference {
    if (!isObject(body)) throw badRequest(2067, 'Invalid body');
    const items = body.items;
    if (
      !Array.isArray(items) ||
      items.length === 0 ||
      !items.every(
        (item) =>
          isObject(item) &&
          typeof item.title === 'string' &&
          typeof item.unit_price === 'number' &&
          item.unit_price > 0 &&
          Number.isInteger(item.quantity) &&
          (item.quantity as number) > 0,
      )
    ) {
      throw badRequest(
        1,
        'items needs at least one item with a title, a positive unit_price and quantity',
      );
    }
    const methods = isObject(body.payment_methods) ? body.payment_methods : {};
    const id = `${collectorId}-${randomUUID()}`;
    const link = `${base}/checkout/v1/redirect?pref_id=${id}`;
    const preference: FakePreference = {
      id,
      init_point: link,
      sandbox_init_point: link,
      collector_id: collectorId,
      client_id: '6295877106812064',
      date_created: mpDate(clock()),
      operation_type: 'regular_payment',
      site_id: 'MLB',
      items: items as FakePreferenceItem[],
      ...(isObject(body.payer) ? { payer: body.payer } : {}),
      external_reference:
        typeof body.external_reference === 'string' ? body.external_reference : '',
      back_urls: isObject(body.back_urls) ? (body.back_urls as FakePreference['back_urls']) : {},
      ...(typeof body.auto_return === 'string' ? { auto_return: body.auto_return } : {}),
      notification_url: validUrl(body.notification_url, 'notification_url'),
      payment_methods: {
        installments: typeof methods.installments === 'number' ? methods.installments : null,
        default_installments:
          typeof methods.default_installments === 'number' ? methods.default_installments : null,
        excluded_payment_types: Array.isArray(methods.excluded_payment_types)
          ? (methods.excluded_payment_types as { id: string }[])
          : [],
        excluded_payment_methods: Array.isArray(methods.excluded_payment_methods)
          ? (methods.excluded_payment_methods as { id: string }[])
          : [],
      },
      expires: body.expires === true,
      expiration_date_from: validDate(body.expiration_date_from, 'expiration_date_from'),
      expiration_date_to: validDate(body.expiration_date_to, 'expiration_date_to'),
      date_of_expiration: validDate(body.date_of_expiration, 'date_of_expiration'),
      statement_descriptor: optionalString(body.statement_descriptor),
    };
    preferences.set(id, preference);
    return preference;
  }

  function payment(id: string): FakePayment {
    const found = payments.get(id);
    if (!found) throw new Error(`No payment ${id} at the fake Mercado Pago`);
    return found;
  }

  function refund(target: FakePayment, amount: number): FakeRefund {
    const made: FakeRefund = {
      id: next.refund++,
      payment_id: target.id,
      amount,
      status: 'approved',
      source: { id: String(collectorId), name: 'Loja Vitrine', type: 'collector' },
      date_created: mpDate(clock()),
      refund_mode: 'standard',
      unique_sequence_number: null,
      adjustment_amount: 0,
      reason: null,
      amount_refunded_to_payer: amount,
    };
    target.refunds.push(made);
    target.transaction_amount_refunded = round2(target.transaction_amount_refunded + amount);
    const whole = target.transaction_amount_refunded >= target.transaction_amount;
    target.status = whole ? 'refunded' : 'approved';
    target.status_detail = whole ? 'refunded' : 'partially_refunded';
    target.date_last_updated = made.date_created;
    return made;
  }

  function notification(paymentId: string, opts: NotificationOptions = {}): NotificationRequest {
    const target = payment(paymentId);
    if (!target.notification_url) throw new Error(`Payment ${paymentId} has no notification_url`);
    const requestId = opts.requestId ?? randomUUID();
    const ts = opts.ts ?? Math.floor(clock() / 1000);
    const manifest = `id:${paymentId};request-id:${requestId};ts:${ts};`;
    // Same length and alphabet as a real signature, so a verifier's length check cannot reject it
    // before the comparison itself is tested.
    const key = opts.forge ? `${options.webhookSecret}-forged` : options.webhookSecret;
    const v1 = createHmac('sha256', key).update(manifest).digest('hex');
    const separator = target.notification_url.includes('?') ? '&' : '?';
    return {
      url: `${target.notification_url}${separator}data.id=${paymentId}&type=payment`,
      headers: {
        'content-type': 'application/json',
        'x-request-id': requestId,
        'x-signature': `ts=${ts},v1=${v1}`,
      },
      body: JSON.stringify({
        id: next.notification++,
        live_mode: false,
        type: 'payment',
        date_created: mpDate(clock()),
        user_id: collectorId,
        api_version: 'v1',
        action: opts.action ?? 'payment.updated',
        data: { id: paymentId },
      }),
    };
  }

  async function deliver(call: NotificationRequest): Promise<SentNotification> {
    const sent: SentNotification = { ...call };
    notifications.push(sent);
    try {
      const answer = await fetch(call.url, {
        method: 'POST',
        headers: call.headers,
        body: call.body,
        signal: AbortSignal.any([closing.signal, AbortSignal.timeout(NOTIFICATION_TIMEOUT_MS)]),
      });
      sent.status = answer.status;
      sent.answer = await answer.text();
    } catch (error) {
      sent.error = error instanceof Error ? error.message : String(error);
    }
    return sent;
  }

  async function changed(paymentId: string, action = 'payment.updated'): Promise<void> {
    if (!fake.sendNotifications || !payment(paymentId).notification_url) return;
    await deliver(notification(paymentId, { action }));
  }

  /** For a change a request made: MP answers it first and notifies on its own time. */
  function changedInBackground(paymentId: string, action = 'payment.updated'): void {
    if (!fake.sendNotifications || !payment(paymentId).notification_url) return;
    const delivery = deliver(notification(paymentId, { action }));
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  }

  /**
   * Same key and same body: the stored answer; same key, other body: 409 (§1). Only creations are
   * stored, so a request refused as invalid can be corrected and sent again under its key.
   */
  function once(
    scope: string,
    seen: RecordedRequest,
    create: () => { status: number; answer: unknown },
    keyRequired = true,
  ): StoredAnswer {
    const key = seen.headers['x-idempotency-key'];
    const body = JSON.stringify(seen.body ?? null);
    if (typeof key !== 'string' || key === '') {
      // Payments and refunds require the key since 2024 (§1); whether preferences honour it is
      // UNCONFIRMED, so they take it when given.
      if (!keyRequired) {
        const made = create();
        return { body, status: made.status, answer: JSON.stringify(made.answer) };
      }
      throw badRequest(4292, "Header X-Idempotency-Key can't be null");
    }
    const stored = idempotent.get(`${scope}\n${key}`);
    if (stored) {
      if (stored.body !== body) {
        throw new MpError(409, 'conflict', 'idempotency-key conflict', [
          {
            code: 'idempotency_key_already_used',
            description: 'The key was used with another body',
          },
        ]);
      }
      return stored;
    }
    const made = create();
    const answer = { body, status: made.status, answer: JSON.stringify(made.answer) };
    idempotent.set(`${scope}\n${key}`, answer);
    return answer;
  }

  function checkoutPage(preference: FakePreference): string {
    const total = totalOf(preference);
    const items = preference.items
      .map(
        (item) => `<li>${escapeHtml(item.title)} × ${item.quantity}: ${brl(item.unit_price)}</li>`,
      )
      .join('');
    const summary = `<ul>${items}</ul><p>Total: <strong>${brl(total)}</strong></p>`;
    if (expired(preference)) {
      return page('Pagamento', `${summary}<p role="alert">Este link de pagamento expirou.</p>`);
    }
    const excluded = new Set(preference.payment_methods.excluded_payment_types.map((t) => t.id));
    const max = preference.payment_methods.installments ?? 1;
    const chosen = preference.payment_methods.default_installments ?? 1;
    const choices = Array.from({ length: max }, (_, index) => {
      const count = index + 1;
      const each = brl(round2((total + financingFee(total, count)) / count));
      const selected = count === chosen ? ' selected' : '';
      return `<option value="${count}"${selected}>${count}x de ${each}</option>`;
    });
    const card = excluded.has('credit_card')
      ? ''
      : `<label for="installments">Parcelas</label>
<select id="installments" name="installments">${choices.join('')}</select>
<button type="submit" name="choice" value="card">Pagar com cartão</button>
<button type="submit" name="choice" value="reject">Recusar cartão</button>`;
    const boleto = excluded.has('ticket')
      ? ''
      : '<button type="submit" name="choice" value="boleto">Gerar boleto</button>';
    return page(
      'Pagamento',
      `${summary}
<form method="post" action="/checkout/v1/pay">
<input type="hidden" name="pref_id" value="${escapeHtml(preference.id)}">
${card}
${boleto}
</form>`,
    );
  }

  const expired = (preference: FakePreference) =>
    preference.expires &&
    preference.expiration_date_to !== null &&
    Date.parse(preference.expiration_date_to) < clock();

  /** A Checkout Pro payment: makes the payment, then sends the browser back to the store (§2.6). */
  function pay(seen: RecordedRequest): { status: number; location?: string; html?: string } {
    const form = isObject(seen.body) ? seen.body : {};
    const preference = preferences.get(String(form.pref_id));
    if (!preference) return { status: 404, html: page('Pagamento', '<p>Link não encontrado.</p>') };
    if (expired(preference)) {
      return { status: 400, html: page('Pagamento', '<p>Este link de pagamento expirou.</p>') };
    }
    const excluded = new Set(preference.payment_methods.excluded_payment_types.map((t) => t.id));
    const choice = form.choice;
    const installments = Number(form.installments ?? 1);
    const max = preference.payment_methods.installments ?? 1;
    const byCard = choice === 'card' || choice === 'reject';
    if (
      !(byCard || choice === 'boleto') ||
      excluded.has(byCard ? 'credit_card' : 'ticket') ||
      (byCard && !(Number.isInteger(installments) && installments >= 1 && installments <= max))
    ) {
      return { status: 400, html: page('Pagamento', '<p>Escolha inválida.</p>') };
    }
    const amount = totalOf(preference);
    const made = newPayment({
      amount,
      type: byCard ? 'credit_card' : 'ticket',
      method: byCard ? 'master' : 'bolbradesco',
      externalReference: preference.external_reference,
      notificationUrl: preference.notification_url,
      description: preference.items[0]?.title ?? null,
      payer: preference.payer ?? { email: 'test_user_123@testuser.com' },
      expiration: null,
    });
    made.statement_descriptor = preference.statement_descriptor;
    let merchantOrder = merchantOrders.get(preference.id);
    if (merchantOrder === undefined) {
      merchantOrder = next.merchantOrder++;
      merchantOrders.set(preference.id, merchantOrder);
    }
    made.order = { id: String(merchantOrder), type: 'mercadopago' };
    if (byCard) {
      made.installments = installments;
      made.card = {
        first_six_digits: '503143',
        last_four_digits: '6351',
        expiration_month: 11,
        expiration_year: 2030,
        cardholder: { name: choice === 'card' ? 'APRO' : 'OTHE' },
      };
      if (choice === 'card') {
        settle(made, installments, clock());
      } else {
        made.status = 'rejected';
        made.status_detail = 'cc_rejected_other_reason';
      }
    } else {
      made.status_detail = 'pending_waiting_payment';
      // The preference's date_of_expiration is the boleto's due date (§2.5); MP suggests 3 days.
      made.date_of_expiration = preference.date_of_expiration ?? mpDate(clock() + 3 * 86_400_000);
      const cents = String(Math.round(amount * 100)).padStart(10, '0');
      const digits = `23793381286${String(made.id).padStart(12, '0')}${cents}`;
      made.transaction_details.external_resource_url = `${base}/sandbox/payments/${made.id}/ticket`;
      made.transaction_details.digitable_line = digits.padEnd(47, '0');
      made.transaction_details.barcode = { content: digits.padEnd(44, '0').slice(0, 44) };
    }
    const outcome =
      made.status === 'approved' ? 'success' : made.status === 'pending' ? 'pending' : 'failure';
    const back = preference.back_urls[outcome];
    changedInBackground(String(made.id), 'payment.created');
    if (!back) {
      return { status: 200, html: page('Pagamento', `<p>Pagamento ${made.status}.</p>`) };
    }
    const query = new URLSearchParams({
      collection_id: String(made.id),
      collection_status: made.status,
      payment_id: String(made.id),
      status: made.status,
      external_reference: preference.external_reference,
      payment_type: made.payment_type_id,
      merchant_order_id: String(merchantOrder),
      preference_id: preference.id,
      site_id: 'MLB',
      processing_mode: 'aggregator',
      merchant_account_id: 'null',
    });
    return { status: 302, location: `${back}${back.includes('?') ? '&' : '?'}${query}` };
  }

  function ticketPage(target: FakePayment): string {
    const code =
      target.point_of_interaction.transaction_data?.qr_code ??
      target.transaction_details.digitable_line ??
      '';
    return page(
      target.payment_type_id === 'ticket' ? 'Boleto' : 'PIX',
      `<p>Valor: <strong>${brl(target.transaction_amount)}</strong></p>
<p>Situação: ${escapeHtml(target.status)}</p>
<p>Código: <code>${escapeHtml(code)}</code></p>`,
    );
  }

  async function route(seen: RecordedRequest, response: ServerResponse): Promise<void> {
    const json = (status: number, body: unknown): void => {
      response
        .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
        .end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const html = (status: number, text: string): void => {
      response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(text);
    };
    const { method, path } = seen;

    if (method === 'GET' && path === '/checkout/v1/redirect') {
      const preference = preferences.get(seen.query.get('pref_id') ?? '');
      if (!preference) return html(404, page('Pagamento', '<p>Link não encontrado.</p>'));
      return html(200, checkoutPage(preference));
    }
    if (method === 'POST' && path === '/checkout/v1/pay') {
      const answer = pay(seen);
      if (answer.location) {
        response.writeHead(302, { Location: answer.location }).end();
        return;
      }
      return html(answer.status, answer.html ?? '');
    }
    const ticket = /^\/sandbox\/payments\/(\d+)\/ticket$/.exec(path);
    if (method === 'GET' && ticket) {
      const target = payments.get(ticket[1]!);
      if (!target) return html(404, page('Pagamento', '<p>Pagamento não encontrado.</p>'));
      return html(200, ticketPage(target));
    }

    if (seen.headers.authorization !== `Bearer ${options.accessToken}`) {
      return json(401, { message: 'unauthorized', error: 'unauthorized', status: 401, cause: [] });
    }
    try {
      // The account the token belongs to: what the store reads to check a token staff typed.
      if (method === 'GET' && path === '/users/me') {
        return json(200, {
          id: collectorId,
          nickname: 'LOJADETESTE',
          first_name: 'Loja',
          last_name: 'de Teste',
          email: 'vendas@lojadeteste.com.br',
          site_id: 'MLB',
          country_id: 'BR',
        });
      }
      if (method === 'POST' && path === '/v1/payments') {
        const stored = once(path, seen, () => ({ status: 201, answer: createPix(seen.body) }));
        if (fake.createDelayMs > 0) {
          await sleep(fake.createDelayMs, undefined, { signal: closing.signal }).catch(() => {});
        }
        return json(stored.status, stored.answer);
      }
      if (method === 'GET' && path === '/v1/payments/search') {
        const reference = seen.query.get('external_reference');
        const ascending = seen.query.get('criteria') === 'asc';
        const limit = Number(seen.query.get('limit') ?? 30);
        const offset = Number(seen.query.get('offset') ?? 0);
        const found = [...payments.values()]
          .filter((each) => reference === null || each.external_reference === reference)
          .sort((a, b) => (ascending ? a.id - b.id : b.id - a.id));
        return json(200, {
          paging: { total: found.length, limit, offset },
          results: found.slice(offset, offset + limit),
        });
      }
      const refunds = /^\/v1\/payments\/(\d+)\/refunds$/.exec(path);
      if (refunds) {
        const target = payments.get(refunds[1]!);
        if (!target) throw notFound('Payment');
        if (method === 'GET') return json(200, target.refunds);
        if (method === 'POST') {
          const stored = once(path, seen, () => {
            if (target.status !== 'approved') {
              throw badRequest(2063, `Payment ${target.id} cannot be refunded: ${target.status}`);
            }
            const left = round2(target.transaction_amount - target.transaction_amount_refunded);
            const asked = isObject(seen.body) ? seen.body.amount : undefined;
            if (asked !== undefined && !(typeof asked === 'number' && asked > 0 && asked <= left)) {
              throw badRequest(4106, 'Invalid refund amount');
            }
            const made = refund(target, typeof asked === 'number' ? asked : left);
            refundCallLog.push(String(target.id));
            changedInBackground(String(target.id));
            return { status: 201, answer: made };
          });
          return json(stored.status, stored.answer);
        }
      }
      const one = /^\/v1\/payments\/(\d+)$/.exec(path);
      if (method === 'PUT' && one) {
        const target = payments.get(one[1]!);
        if (!target) throw notFound('Payment');
        // Only the store's cancelling of a payment still waiting (the SDK's payment.cancel) is
        // modelled; §1 lists no other update.
        if (!isObject(seen.body) || seen.body.status !== 'cancelled') {
          throw badRequest(4020, 'Only status cancelled can be set at this fake');
        }
        if (target.status !== 'pending' && target.status !== 'in_process') {
          throw badRequest(2078, `Payment ${target.id} cannot be cancelled: ${target.status}`);
        }
        target.status = 'cancelled';
        target.status_detail = 'by_collector';
        target.date_last_updated = mpDate(clock());
        changedInBackground(String(target.id));
        return json(200, target);
      }
      if (method === 'GET' && one) {
        if (fake.failingReads.has(one[1]!)) {
          throw new MpError(500, 'internal_error', 'Internal server error');
        }
        const target = payments.get(one[1]!);
        if (!target) throw notFound('Payment');
        return json(200, target);
      }
      if (
        method === 'POST' &&
        (path === '/checkout/preferences' || path === '/checkout/preferences/')
      ) {
        const stored = once(
          '/checkout/preferences',
          seen,
          () => ({ status: 201, answer: createPreference(seen.body) }),
          false,
        );
        return json(stored.status, stored.answer);
      }
      const chargeback = /^\/v1\/chargebacks\/(\d+)$/.exec(path);
      if (method === 'GET' && chargeback) {
        const found = chargebacks.get(chargeback[1]!);
        if (!found) throw notFound('Chargeback');
        return json(200, found);
      }
      throw new MpError(404, 'not_found', `No route ${method} ${path} at the fake Mercado Pago`);
    } catch (error) {
      if (!(error instanceof MpError)) throw error;
      return json(error.status, {
        message: error.message,
        error: error.error,
        status: error.status,
        cause: error.causes,
      });
    }
  }

  const server = createServer((request, response) => {
    void recordRequest(request, 'http://mercadopago.test')
      .then((seen) => {
        requests.push(seen);
        return route(seen, response);
      })
      .catch((error: unknown) => {
        // A bug in the fake should fail the test that met it, not crash the test process.
        console.error('fake Mercado Pago:', error);
        if (!response.headersSent) {
          response.writeHead(500, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({
              message: String(error),
              error: 'internal_error',
              status: 500,
              cause: [],
            }),
          );
        }
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  const fake: FakeMercadoPago = {
    url: base,
    collectorId,
    requests,
    payments,
    preferences,
    chargebacks,
    notifications,
    charges: (externalReference) =>
      [...payments.values()].filter(
        (each) => externalReference === undefined || each.external_reference === externalReference,
      ).length,
    refundCalls: (paymentId) =>
      refundCallLog.filter((each) => paymentId === undefined || each === paymentId).length,
    createDelayMs: 0,
    failingReads: new Set(),
    sendNotifications: true,
    async approve(id, opts = {}) {
      settle(payment(id), opts.installments ?? payment(id).installments, clock());
      await changed(id);
    },
    async reject(id) {
      const target = payment(id);
      target.status = 'rejected';
      target.status_detail =
        target.payment_type_id === 'credit_card'
          ? 'cc_rejected_other_reason'
          : 'rejected_other_reason';
      target.date_last_updated = mpDate(clock());
      await changed(id);
    },
    async expire(id) {
      const target = payment(id);
      target.status = 'cancelled';
      target.status_detail = 'expired';
      target.date_last_updated = mpDate(clock());
      await changed(id);
    },
    async refundInPanel(id) {
      const target = payment(id);
      refund(target, round2(target.transaction_amount - target.transaction_amount_refunded));
      await changed(id);
    },
    async chargeback(id) {
      const target = payment(id);
      const now = clock();
      const made: FakeChargeback = {
        id: String(next.chargeback++),
        payments: [target.id],
        amount: target.transaction_amount,
        currency: 'BRL',
        coverage_applied: false,
        coverage_elegible: true,
        documentation_required: true,
        documentation_status: 'pending',
        documentation: [],
        date_documentation_deadline: mpDate(now + 7 * 86_400_000),
        date_created: mpDate(now),
        date_last_updated: mpDate(now),
        live_mode: false,
      };
      chargebacks.set(made.id, made);
      target.status = 'charged_back';
      target.status_detail = 'in_process';
      target.date_last_updated = made.date_created;
      await changed(id);
      return made;
    },
    notification,
    async notify(paymentId, opts) {
      const sent = await deliver(notification(paymentId, opts));
      if (sent.status === undefined) {
        throw new Error(`Notification to ${sent.url} failed: ${sent.error ?? 'no answer'}`);
      }
      return { status: sent.status, body: sent.answer ?? '' };
    },
    async notificationsSettled() {
      await Promise.all(inFlight);
    },
    async close() {
      closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
