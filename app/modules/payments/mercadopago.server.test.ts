import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { logger } from '~/lib/logger.server';

import {
  startFakeMercadoPago,
  type FakeMercadoPago,
} from '../../../tests/support/fake-mercadopago';
import type { RecordedRequest } from '../../../tests/support/fake-gateway';

import {
  createMercadoPagoProvider,
  mercadoPagoIdempotencyKey,
  type MercadoPagoOptions,
} from './mercadopago.server';
import type { PaymentOutcome, PaymentRequest } from './types';

// The provider against the fake Mercado Pago over real HTTP: what it sends (research §2.1), what
// it reads back (§2.2, §2.3), and that a create that timed out and is sent again charges once.
const TOKEN = 'APP_USR-8891234567-112726-unit-token-3f9a';
const SECRET = 'unit-webhook-secret-71c2';
const PUBLIC_URL = 'https://loja.test/';
const NOW = new Date('2026-11-27T18:00:00.000Z');
const PIX_MINUTES = 45;

let fake: FakeMercadoPago;
let orderCount = 0;

beforeAll(async () => {
  fake = await startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: SECRET });
  // Notifications go to loja.test, which does not exist: these tests read payments, not webhooks.
  fake.sendNotifications = false;
});

afterAll(async () => {
  await fake.close();
});

let warn: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  fake.createDelayMs = 0;
  fake.failingReads.clear();
  warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  // Whatever happened, the token stays out of the logs as well as the answers.
  expect(JSON.stringify(warn.mock.calls)).not.toContain(TOKEN);
  warn.mockRestore();
});

/** A new order id for each test: the fake keeps its payments for the whole file. */
function newOrderId(): string {
  orderCount += 1;
  return `7c1d2e3f-4a5b-4c6d-8e7f-${String(orderCount).padStart(12, '0')}`;
}

const request = (overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  orderId: newOrderId(),
  attempt: 'first',
  description: 'Pedido #1042',
  deadline: null,
  amountCents: 35970,
  method: 'pix',
  customer: {
    name: '  Maria  da Silva Souza ',
    email: 'maria@example.com',
    cpf: '529.982.247-25',
    phone: '11987654321',
  },
  items: [
    { productId: null, title: 'Fone de Ouvido', unitPriceCents: 29990, quantity: 1 },
    { productId: null, title: 'Cabo USB-C', unitPriceCents: 2990, quantity: 2 },
  ],
  utmQuery: '',
  ...overrides,
});

function provider(options: Partial<MercadoPagoOptions> = {}) {
  return createMercadoPagoProvider({
    apiUrl: `${fake.url}/`,
    accessToken: TOKEN,
    webhookSecret: SECRET,
    publicUrl: PUBLIC_URL,
    settings: async () => ({
      pix_expiration_minutes: PIX_MINUTES,
      max_installments: 1,
      boleto_due_days: 3,
    }),
    now: () => NOW,
    ...options,
  });
}

function value<T>(outcome: PaymentOutcome<T>): T {
  if (!outcome.ok) throw new Error(`Expected success, got: ${outcome.error}`);
  return outcome.value;
}

const creates = (orderId: string): RecordedRequest[] =>
  fake.requests.filter(
    (each) =>
      each.method === 'POST' &&
      each.path === '/v1/payments' &&
      (each.body as { external_reference?: string } | undefined)?.external_reference === orderId,
  );

/** A PIX made through the provider, as the fake holds it. */
async function pixFor(overrides: Partial<PaymentRequest> = {}) {
  const asked = request(overrides);
  const created = value(await provider().create(asked));
  return { request: asked, created, payment: fake.payments.get(created.paymentId)! };
}

describe('Mercado Pago PIX: create', () => {
  it('sends what research §2.1 says, with the token and an idempotency key of order and attempt', async () => {
    const asked = request();
    const created = value(await provider().create(asked));

    const [sent, ...others] = creates(asked.orderId);
    expect(others).toEqual([]);
    expect(sent!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent!.headers['content-type']).toMatch(/^application\/json/);
    expect(sent!.headers['x-idempotency-key']).toBe(
      mercadoPagoIdempotencyKey(asked.orderId, 'first'),
    );
    // 45 minutes after NOW (18:00Z), written in Brasília's time: 15:45 at -03:00.
    expect(sent!.body).toEqual({
      transaction_amount: 359.7,
      description: expect.any(String),
      payment_method_id: 'pix',
      external_reference: asked.orderId,
      date_of_expiration: '2026-11-27T15:45:00.000-03:00',
      notification_url: 'https://loja.test/api/payments/mercadopago?source_news=webhooks',
      payer: {
        email: 'maria@example.com',
        first_name: 'Maria',
        last_name: 'da Silva Souza',
        identification: { type: 'CPF', number: '52998224725' },
      },
    });
    const body = sent!.body as { date_of_expiration: string };
    expect(Date.parse(body.date_of_expiration)).toBe(NOW.getTime() + PIX_MINUTES * 60_000);

    const payment = fake.payments.get(created.paymentId)!;
    expect(created).toEqual({
      paymentId: String(payment.id),
      status: 'pending',
      pixCode: payment.point_of_interaction.transaction_data!.qr_code,
      pixQrCode: null,
      billetUrl: null,
      billetCode: null,
      paymentUrl: null,
      expiresAt: new Date(NOW.getTime() + PIX_MINUTES * 60_000),
    });
    expect(created.pixCode).toMatch(/^000201/);
    expect(fake.charges(asked.orderId)).toBe(1);
  });

  it('gives each order and attempt its own key, and the same key for the same pair', () => {
    const a = mercadoPagoIdempotencyKey('order-a', 'first');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(mercadoPagoIdempotencyKey('order-a', 'first')).toBe(a);
    expect(mercadoPagoIdempotencyKey('order-b', 'first')).not.toBe(a);
    expect(mercadoPagoIdempotencyKey('order-a', 'after:123')).not.toBe(a);
  });

  it('a create that times out says so in Portuguese; sent again, it finds the same payment', async () => {
    const asked = request();
    fake.createDelayMs = 1_000;
    const slow = provider({ timeoutMs: 300 });
    await expect(slow.create(asked)).resolves.toEqual({
      ok: false,
      error: 'O serviço de pagamento não respondeu. Tente novamente.',
    });
    // Mercado Pago made the payment even though nobody heard its answer.
    await expect.poll(() => fake.charges(asked.orderId)).toBe(1);

    fake.createDelayMs = 0;
    const retried = value(await slow.create(asked));
    const [first] = [...fake.payments.values()].filter(
      (each) => each.external_reference === asked.orderId,
    );
    expect(retried.paymentId).toBe(String(first!.id));
    expect(fake.charges(asked.orderId)).toBe(1);
    const keys = creates(asked.orderId).map((each) => each.headers['x-idempotency-key']);
    expect(keys).toEqual([
      mercadoPagoIdempotencyKey(asked.orderId, 'first'),
      mercadoPagoIdempotencyKey(asked.orderId, 'first'),
    ]);
  });

  it('a retry sent later than the timed-out create still finds the same payment', async () => {
    // payOrder retries with the clock moved on (at least the 15 s timeout): the request must
    // still be "the same" to Mercado Pago, or the key meets another body (409) or a second PIX.
    const asked = request();
    let clock = NOW;
    const moving = provider({ timeoutMs: 300, now: () => clock });
    fake.createDelayMs = 1_000;
    await expect(moving.create(asked)).resolves.toMatchObject({ ok: false });
    // The first create reached Mercado Pago: the retry is the case under test, not a first try.
    await expect.poll(() => fake.charges(asked.orderId)).toBe(1);
    fake.createDelayMs = 0;
    clock = new Date(NOW.getTime() + 16_000);
    const retried = await moving.create(asked);
    const [first] = [...fake.payments.values()].filter(
      (each) => each.external_reference === asked.orderId,
    );
    // Today the second body differs (date_of_expiration moved with the clock), so the fake, as
    // research §1 expects of MP, answers 409 and the shopper is told the payment failed.
    expect(retried).toEqual({
      ok: true,
      value: expect.objectContaining({ paymentId: String(first!.id) }),
    });
    expect(fake.charges(asked.orderId)).toBe(1);
  });

  it('never puts the token in an error, whatever Mercado Pago answers', async () => {
    const outcomes: PaymentOutcome<unknown>[] = [];
    // Refused for a wrong token (401), with the wrong token sent.
    const wrong = provider({ accessToken: `${TOKEN}-revoked` });
    outcomes.push(await wrong.create(request()));
    outcomes.push(await wrong.status('123'));
    // Refused as invalid (400): an e-mail the fake does not take.
    outcomes.push(
      await provider().create(request({ customer: { ...request().customer, email: 'nope' } })),
    );
    // Nobody listening at all.
    const nowhere = provider({ apiUrl: 'http://127.0.0.1:9' });
    outcomes.push(await nowhere.create(request()));
    outcomes.push(await nowhere.status('123'));

    expect(outcomes.map((each) => each.ok)).toEqual([false, false, false, false, false]);
    expect(outcomes).toEqual([
      { ok: false, error: 'Erro ao processar pagamento' },
      { ok: false, error: 'Erro ao verificar status do pagamento' },
      { ok: false, error: 'Erro ao processar pagamento' },
      { ok: false, error: 'Erro ao processar pagamento' },
      { ok: false, error: 'Erro ao verificar status do pagamento' },
    ]);
    expect(JSON.stringify(outcomes)).not.toContain(TOKEN);
    // The logs said why, without the token: the afterEach checks that; here, that they spoke.
    expect(warn).toHaveBeenCalled();
  });

  it('checks the request before calling: minimum amount, CPF, order id', async () => {
    const before = fake.requests.length;
    await expect(provider().create(request({ amountCents: 500 }))).resolves.toEqual({
      ok: false,
      error: 'Valor mínimo para pagamento é R$ 5,01',
    });
    await expect(
      provider().create(request({ customer: { ...request().customer, cpf: '123' } })),
    ).resolves.toEqual({ ok: false, error: 'CPF deve ter 11 dígitos' });
    await expect(provider().create(request({ orderId: 'not-an-order' }))).resolves.toEqual({
      ok: false,
      error: 'Erro ao processar pagamento',
    });
    expect(fake.requests.length).toBe(before);
  });
});

describe('Mercado Pago PIX: status', () => {
  it('reads a waiting PIX as pending, with its order and details', async () => {
    const { request: asked, created, payment } = await pixFor();
    const read = value(await provider().status(created.paymentId));
    expect(read).toEqual({
      status: 'pending',
      paymentId: created.paymentId,
      orderId: asked.orderId,
      details: {
        method: 'pix',
        brand: 'pix',
        installments: 1,
        installmentCents: 0,
        paidCents: 35970,
        feeCents: null,
        netCents: 0,
        refundedCents: 0,
        releaseStatus: null,
        releaseDate: null,
        panelUrl: `https://www.mercadopago.com.br/activities/1?q=${payment.id}`,
      },
      // A PIX is paid on our page: there is no page of Mercado Pago's to send the shopper to.
      paymentUrl: null,
      // What an approval will be checked against the order's total with.
      money: { cents: 35970, currency: 'BRL', held: false },
    });
    const [get] = fake.requests.filter(
      (each) => each.method === 'GET' && each.path === `/v1/payments/${created.paymentId}`,
    );
    expect(get!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('reads an approval with its fees: only those the store pays, and what it nets', async () => {
    const { created, payment } = await pixFor();
    // Three instalments put a financing fee on the buyer: it is not the store's cost.
    await fake.approve(created.paymentId, { installments: 3 });
    expect(payment.fee_details.map((fee) => fee.fee_payer).sort()).toEqual(['collector', 'payer']);

    const read = value(await provider().status(created.paymentId));
    expect(read.status).toBe('approved');
    // R$ 359,70: MP's fee 0.99% = 3,56 (store); financing 1.2% × 3 = 12,95 (buyer).
    expect(read.details).toEqual({
      method: 'pix',
      brand: 'pix',
      installments: 3,
      installmentCents: 12422,
      paidCents: 37265,
      feeCents: 356,
      netCents: 35614,
      refundedCents: 0,
      releaseStatus: 'pending',
      releaseDate: payment.money_release_date,
      panelUrl: `https://www.mercadopago.com.br/activities/1?q=${payment.id}`,
    });
    expect(read.details!.releaseDate).toMatch(/-03:00$/);
  });

  it('maps every outcome: rejected, expired, cancelled, refunded, charged back', async () => {
    const statusOf = async (id: string) => value(await provider().status(id)).status;

    const rejected = await pixFor();
    await fake.reject(rejected.created.paymentId);
    expect(await statusOf(rejected.created.paymentId)).toBe('rejected');

    const expired = await pixFor();
    await fake.expire(expired.created.paymentId);
    expect(expired.payment).toMatchObject({ status: 'cancelled', status_detail: 'expired' });
    expect(await statusOf(expired.created.paymentId)).toBe('expired');

    // Cancelled for another reason than time: the payment failed, it did not run out.
    const cancelled = await pixFor();
    cancelled.payment.status = 'cancelled';
    cancelled.payment.status_detail = 'by_collector';
    expect(await statusOf(cancelled.created.paymentId)).toBe('rejected');

    const refunded = await pixFor();
    await fake.approve(refunded.created.paymentId);
    await fake.refundInPanel(refunded.created.paymentId);
    const refund = value(await provider().status(refunded.created.paymentId));
    expect(refund.status).toBe('refunded');
    expect(refund.details!.refundedCents).toBe(35970);

    const disputed = await pixFor();
    await fake.approve(disputed.created.paymentId);
    await fake.chargeback(disputed.created.paymentId);
    expect(await statusOf(disputed.created.paymentId)).toBe('chargeback');

    // Under review is still waiting; authorized (held on the card, not captured) is no payment
    // yet either, and the report says the money is held.
    const review = await pixFor();
    review.payment.status = 'in_process';
    expect(await statusOf(review.created.paymentId)).toBe('pending');
    review.payment.status = 'authorized';
    const held = value(await provider().status(review.created.paymentId));
    expect(held.status).toBe('pending');
    expect(held.money).toEqual({ cents: 35970, currency: 'BRL', held: true });
  });

  it('reads a status it does not know as an invalid answer, not as a guess', async () => {
    const { created, payment } = await pixFor();
    payment.status = 'teleported';
    await expect(provider().status(created.paymentId)).resolves.toEqual({
      ok: false,
      error: 'Resposta inválida da API de pagamento',
    });
  });

  it("does not find an unknown id, and does not ask about one that is not Mercado Pago's", async () => {
    await expect(provider().status('999999999')).resolves.toEqual({
      ok: false,
      error: 'Pagamento não encontrado',
    });
    const before = fake.requests.length;
    // A hosted checkout's placeholder is asked about by its order (mercadopago-checkout tests).
    for (const id of ['', 'abc', '12a', '../v1/payments/1', 'checkout-not-an-order']) {
      await expect(provider().status(id)).resolves.toEqual({
        ok: false,
        error: 'Pagamento não encontrado',
      });
    }
    expect(fake.requests.length).toBe(before);
  });

  it('says it could not check when Mercado Pago fails to answer a read', async () => {
    const { created } = await pixFor();
    fake.failingReads.add(created.paymentId);
    await expect(provider().status(created.paymentId)).resolves.toEqual({
      ok: false,
      error: 'Erro ao verificar status do pagamento',
    });
    fake.failingReads.delete(created.paymentId);
    await expect(provider().status(created.paymentId)).resolves.toMatchObject({
      ok: true,
      value: { status: 'pending' },
    });
  });
});
