import { randomUUID } from 'node:crypto';

import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';

import type { Db } from '~/db/database.server';
import { orderEvents, orders, outbox, products, productVariants } from '~/db/schema';
import { deleteOrderByStaff } from '~/flows/admin-order-status.server';
import { expireOrders, payOrder, refreshPayment } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import { logger } from '~/lib/logger.server';
import { formatCents } from '~/lib/money';
import { checkoutFormSchema } from '~/modules/checkout';
import { getAdminOrder } from '~/modules/orders/index.admin.server';
import { getOrder } from '~/modules/orders/index.server';
import type { PaymentProvider } from '~/modules/payments';
import {
  createMercadoPagoProvider,
  mercadoPagoIdempotencyKey,
} from '~/modules/payments/mercadopago.server';
import { defaultSettings } from '~/modules/settings';

import { applyPaymentReport } from '~/flows/order-changes.server';
import { ADMIN_ORDER_MESSAGES } from '~/modules/orders/index.admin';
import { action as mercadoPagoNotification } from '~/routes/api/payment-mercadopago';

import { describeDb } from '../support/db';
import { startFakeMercadoPago, type FakeMercadoPago } from '../support/fake-mercadopago';
import { shopperAddress, shopperCpf } from '../support/shoppers';

// The PIX path of issue 25 through the real flows and a real database, with the Mercado Pago
// provider talking to the fake over HTTP: one charge per order, each status applied once.
const TOKEN = 'APP_USR-5550001112-112726-db-token-a1b2';
const SECRET = 'db-webhook-secret-c3d4';
const PIX_MINUTES = 30;
const MINUTE = 60_000;

const FONE = '5a3b1e00-0000-4000-8000-00000000d001';
const FONE_STOCK = 20;
const FONE_CENTS = 29990;

const withTracking = { tracking: true };

let fake: FakeMercadoPago;

beforeAll(async () => {
  fake = await startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: SECRET });
  // These tests apply what the provider reads; the webhook route is the e2e test's.
  fake.sendNotifications = false;
});

afterAll(async () => {
  await fake?.close();
});

function mercadoPago(options: { timeoutMs?: number } = {}): PaymentProvider {
  return createMercadoPagoProvider({
    apiUrl: fake.url,
    accessToken: TOKEN,
    webhookSecret: SECRET,
    publicUrl: 'https://loja.test',
    settings: async () => ({
      pix_expiration_minutes: PIX_MINUTES,
      max_installments: 1,
      boleto_due_days: 3,
    }),
    ...options,
  });
}

async function seed(db: Db): Promise<void> {
  await db.insert(products).values({
    id: FONE,
    name: 'Fone de Ouvido Bluetooth Pro',
    priceCents: FONE_CENTS,
    stockQuantity: FONE_STOCK,
  });
}

/** Places an order for `quantity` headphones as the checkout route would, and returns its id. */
async function placed(db: Db, quantity = 2, paymentMethod = 'pix'): Promise<string> {
  const [variant] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, FONE));
  const result = await placeOrder(
    db,
    {
      form: checkoutFormSchema.parse({
        customerName: 'Maria da Silva',
        customerEmail: 'maria@example.com',
        customerCpf: shopperCpf(),
        customerPhone: '(11) 98765-4321',
        zipCode: '01310-100',
        street: 'Avenida Paulista',
        number: '1000',
        neighborhood: 'Bela Vista',
        city: 'São Paulo',
        state: 'SP',
        paymentMethod,
        idempotencyKey: randomUUID(),
      }),
      cart: [
        {
          productId: FONE,
          variantId: variant!.id,
          quantity,
          seenPriceCents: FONE_CENTS,
          seenName: 'Fone de Ouvido Bluetooth Pro',
        },
      ],
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      settings: { ...defaultSettings(), pix_expiration_minutes: PIX_MINUTES },
    },
    withTracking,
  );
  if (!result.ok) throw new Error(`Order refused: ${JSON.stringify(result)}`);
  return result.orderId;
}

async function orderRow(db: Db, orderId: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!row) throw new Error(`No order ${orderId}`);
  return row;
}

async function stock(db: Db): Promise<number> {
  const [row] = await db
    .select({ stock: products.stockQuantity })
    .from(products)
    .where(eq(products.id, FONE));
  return row!.stock;
}

/** The outbox topics written for one order, in order (the tracking ones with their status). */
async function topicsOf(db: Db, orderId: string): Promise<string[]> {
  const rows = await db
    .select({ topic: outbox.topic, payload: outbox.payload })
    .from(outbox)
    .orderBy(asc(outbox.id));
  return rows
    .filter((row) => (row.payload as { orderId?: string }).orderId === orderId)
    .map((row) => {
      const status = (row.payload as { paymentStatus?: string }).paymentStatus;
      return status ? `${row.topic}:${status}` : row.topic;
    });
}

async function timeline(db: Db, orderId: string) {
  return db
    .select({
      kind: orderEvents.kind,
      fromStatus: orderEvents.fromStatus,
      toStatus: orderEvents.toStatus,
      actor: orderEvents.actor,
      note: orderEvents.note,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.id));
}

describeDb('paying an order with Mercado Pago PIX', ({ db }) => {
  beforeEach(async () => {
    await seed(db());
    fake.createDelayMs = 0;
    // A payment approved after its order was cancelled is logged as an error for staff.
    vi.spyOn(logger, 'error').mockImplementation(() => {});
    vi.spyOn(logger, 'warn').mockImplementation(() => {});
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A placed order with its PIX at the fake. */
  async function paidUp(quantity = 2) {
    const orderId = await placed(db(), quantity);
    const payment = await payOrder(db(), mercadoPago(), orderId);
    if (!payment.ok) throw new Error(payment.error);
    return { orderId, paymentId: payment.paymentId };
  }

  /** What the webhook route does with a payment: read it from Mercado Pago, apply it. */
  async function applyRead(orderId: string, paymentId: string) {
    const provider = mercadoPago();
    const read = await provider.status(paymentId);
    if (!read.ok) throw new Error(read.error);
    return applyPaymentReport(
      db(),
      { orderId, provider: 'mercadopago', report: read.value },
      withTracking,
    );
  }

  it('creates one PIX for an order and records it; paying again hands back the live one', async () => {
    const orderId = await placed(db());
    const { expiresAt: placedDeadline } = await orderRow(db(), orderId);
    const payment = await payOrder(db(), mercadoPago(), orderId);
    expect(payment).toEqual({
      ok: true,
      paymentId: expect.stringMatching(/^\d+$/),
      paymentUrl: null,
    });
    if (!payment.ok) return;

    const charge = fake.payments.get(payment.paymentId)!;
    expect(charge).toMatchObject({
      external_reference: orderId,
      transaction_amount: (2 * FONE_CENTS) / 100,
      status: 'pending',
    });
    const order = await orderRow(db(), orderId);
    expect(order).toMatchObject({
      status: 'pending',
      paymentProvider: 'mercadopago',
      paymentId: payment.paymentId,
      paymentStatus: 'pending',
      pixCode: charge.point_of_interaction.transaction_data!.qr_code,
    });
    // The PIX expires with the order: the deadline it was placed with (the store's 30 minutes).
    expect(order.expiresAt).toEqual(placedDeadline);
    expect(charge.date_of_expiration).toBe(
      new Date(placedDeadline!.getTime() - 3 * 60 * MINUTE).toISOString().replace('Z', '-03:00'),
    );

    await expect(payOrder(db(), mercadoPago(), orderId)).resolves.toEqual(payment);
    expect(fake.charges(orderId)).toBe(1);
  });

  it('charges once when a timed-out create is followed by "Pagar agora"', async () => {
    const orderId = await placed(db());
    fake.createDelayMs = 1_000;
    const first = await payOrder(db(), mercadoPago({ timeoutMs: 300 }), orderId);
    expect(first).toEqual({
      ok: false,
      error: 'Erro ao gerar pagamento: O serviço de pagamento não respondeu. Tente novamente.',
    });
    // Mercado Pago made the PIX although nobody heard its answer; the order does not know it.
    await expect.poll(() => fake.charges(orderId)).toBe(1);
    expect(await orderRow(db(), orderId)).toMatchObject({ status: 'pending', paymentId: null });

    // The retry comes later by the clock: the provider sends the same request under the same
    // key (the PIX's deadline is the order's, not the clock's), so MP hands back the same PIX.
    fake.createDelayMs = 0;
    const second = await payOrder(db(), mercadoPago(), orderId);
    const [made] = [...fake.payments.values()].filter(
      (each) => each.external_reference === orderId,
    );
    expect(second).toEqual({ ok: true, paymentId: String(made!.id), paymentUrl: null });
    expect(fake.charges(orderId)).toBe(1);
    expect(await orderRow(db(), orderId)).toMatchObject({ paymentId: String(made!.id) });
  });

  it('confirms on approval through refreshPayment: one e-mail, one tracking report', async () => {
    const { orderId, paymentId } = await paidUp();
    const pending = (await getOrder(db(), orderId))!;

    // Still waiting: nothing changes.
    const waiting = await refreshPayment(db(), mercadoPago(), pending, withTracking);
    expect(waiting).toEqual({ order: pending });

    await fake.approve(paymentId);
    const paid = await refreshPayment(db(), mercadoPago(), pending, withTracking);
    expect(paid.error).toBeUndefined();
    expect(paid.order).toMatchObject({ id: orderId, status: 'confirmed' });
    const order = await orderRow(db(), orderId);
    expect(order).toMatchObject({ status: 'confirmed', paymentStatus: 'approved' });
    expect(order.paidAt).toBeInstanceOf(Date);
    // What the admin shows: Mercado Pago's fee (0.99% of R$ 599,80) and what the store nets.
    expect(order.paymentDetails).toMatchObject({
      method: 'pix',
      installments: 1,
      feeCents: 594,
      netCents: 59386,
      releaseStatus: 'pending',
      refundedCents: 0,
    });
    expect(await topicsOf(db(), orderId)).toEqual([
      'email.order_received',
      'tracking.order:pending',
      'email.payment_confirmed',
      'tracking.order:approved',
    ]);

    // The page asks again (a stale view of the order): nothing more happens.
    await refreshPayment(db(), mercadoPago(), pending, withTracking);
    expect(await topicsOf(db(), orderId)).toHaveLength(4);
    expect(await stock(db())).toBe(FONE_STOCK - 2);
  });

  it('confirms once when 1,000 reports of one approval arrive at the same time', async () => {
    const { orderId, paymentId } = await paidUp();
    // What each polling page loaded before the money came: the order still pending.
    const pending = (await getOrder(db(), orderId))!;
    await fake.approve(paymentId);
    const read = await mercadoPago().status(paymentId);
    if (!read.ok) throw new Error(read.error);

    // Notifications applied while 50 pages poll Mercado Pago and apply what they read.
    const [outcomes] = await Promise.all([
      Promise.all(
        Array.from({ length: 1_000 }, () =>
          applyPaymentReport(
            db(),
            { orderId, provider: 'mercadopago', report: read.value },
            withTracking,
          ),
        ),
      ),
      Promise.all(
        Array.from({ length: 50 }, () =>
          refreshPayment(db(), mercadoPago(), pending, withTracking),
        ),
      ),
    ]);
    // At most one of all these confirmed: a poll may have been the one.
    expect(outcomes.filter((each) => each === 'confirmed').length).toBeLessThanOrEqual(1);
    expect(outcomes.filter((each) => each !== 'confirmed' && each !== 'unchanged')).toEqual([]);

    const topics = await topicsOf(db(), orderId);
    expect(topics.filter((each) => each === 'email.payment_confirmed')).toHaveLength(1);
    expect(topics.filter((each) => each === 'tracking.order:approved')).toHaveLength(1);
    const changes = (await timeline(db(), orderId)).filter((each) => each.toStatus === 'confirmed');
    expect(changes).toHaveLength(1);
    expect(await orderRow(db(), orderId)).toMatchObject({ status: 'confirmed' });
  });

  it('cancels a rejected payment and puts the stock back, once', async () => {
    const { orderId, paymentId } = await paidUp();
    expect(await stock(db())).toBe(FONE_STOCK - 2);
    await fake.reject(paymentId);

    await expect(applyRead(orderId, paymentId)).resolves.toBe('cancelled');
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'rejected',
      paymentStatus: 'rejected',
      paidAt: null,
    });
    expect(await stock(db())).toBe(FONE_STOCK);
    await expect(applyRead(orderId, paymentId)).resolves.toBe('unchanged');
    expect(await stock(db())).toBe(FONE_STOCK);
    expect(await topicsOf(db(), orderId)).toEqual([
      'email.order_received',
      'tracking.order:pending',
      'tracking.order:rejected',
    ]);
  });

  it('cancels an expired PIX when the expiry job passes its deadline, returning the stock', async () => {
    const { orderId, paymentId } = await paidUp();
    await fake.expire(paymentId);

    // Mercado Pago says expired: recorded, but the order waits for its own deadline.
    await expect(applyRead(orderId, paymentId)).resolves.toBe('recorded');
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'pending',
      paymentStatus: 'expired',
    });
    await expect(expireOrders(db(), mercadoPago(), withTracking)).resolves.toBe(0);
    expect(await stock(db())).toBe(FONE_STOCK - 2);

    const later = new Date(Date.now() + (PIX_MINUTES + 1) * MINUTE);
    await expect(expireOrders(db(), mercadoPago(), withTracking, { now: later })).resolves.toBe(1);
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'expired',
      paymentStatus: 'expired',
    });
    expect(await stock(db())).toBe(FONE_STOCK);
    expect(await topicsOf(db(), orderId)).toEqual([
      'email.order_received',
      'tracking.order:pending',
      'tracking.order:expired',
    ]);
    // Run again, it cancels nothing twice.
    await expect(expireOrders(db(), mercadoPago(), withTracking, { now: later })).resolves.toBe(0);
    expect(await stock(db())).toBe(FONE_STOCK);
  });

  it('confirms, not cancels, a PIX approved at the last minute that nobody reported', async () => {
    const { orderId, paymentId } = await paidUp();
    await fake.approve(paymentId);
    const later = new Date(Date.now() + (PIX_MINUTES + 1) * MINUTE);

    await expect(expireOrders(db(), mercadoPago(), withTracking, { now: later })).resolves.toBe(0);
    const order = await orderRow(db(), orderId);
    expect(order).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'approved',
      cancelReason: null,
    });
    expect(order.paidAt).toBeInstanceOf(Date);
    expect(await stock(db())).toBe(FONE_STOCK - 2);
    expect(await topicsOf(db(), orderId)).toEqual([
      'email.order_received',
      'tracking.order:pending',
      'email.payment_confirmed',
      'tracking.order:approved',
    ]);
  });

  it('after an expired PIX, "Pagar agora" makes a second one under a new key, and news of the old one changes nothing', async () => {
    const { orderId, paymentId: first } = await paidUp();
    await fake.expire(first);
    await expect(applyRead(orderId, first)).resolves.toBe('recorded');

    const again = await payOrder(db(), mercadoPago(), orderId);
    expect(again).toMatchObject({ ok: true });
    if (!again.ok) return;
    expect(again.paymentId).not.toBe(first);
    expect(fake.charges(orderId)).toBe(2);
    const keys = fake.requests
      .filter(
        (each) =>
          each.method === 'POST' &&
          each.path === '/v1/payments' &&
          (each.body as { external_reference?: string }).external_reference === orderId,
      )
      .map((each) => each.headers['x-idempotency-key']);
    expect(keys).toEqual([
      mercadoPagoIdempotencyKey(orderId, 'first'),
      mercadoPagoIdempotencyKey(orderId, `after:${first}`),
    ]);
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'pending',
      paymentId: again.paymentId,
      paymentStatus: 'pending',
      pixCode: fake.payments.get(again.paymentId)!.point_of_interaction.transaction_data!.qr_code,
    });
    // The new one is live: asked again, no third charge.
    await expect(payOrder(db(), mercadoPago(), orderId)).resolves.toEqual(again);
    expect(fake.charges(orderId)).toBe(2);

    await fake.approve(again.paymentId);
    await expect(applyRead(orderId, again.paymentId)).resolves.toBe('confirmed');
    // The expired one, reported again (a late retry of its notification): nothing happens.
    await expect(applyRead(orderId, first)).resolves.toBe('unchanged');
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'confirmed',
      paymentId: again.paymentId,
      paymentStatus: 'approved',
    });
    expect(await stock(db())).toBe(FONE_STOCK - 2);
  });

  it('records a refund and a chargeback after confirmation in the timeline, keeping the status', async () => {
    const refunded = await paidUp(1);
    const disputed = await paidUp(1);
    for (const { orderId, paymentId } of [refunded, disputed]) {
      await fake.approve(paymentId);
      await expect(applyRead(orderId, paymentId)).resolves.toBe('confirmed');
    }

    await fake.refundInPanel(refunded.paymentId);
    await expect(applyRead(refunded.orderId, refunded.paymentId)).resolves.toBe('recorded');
    await fake.chargeback(disputed.paymentId);
    await expect(applyRead(disputed.orderId, disputed.paymentId)).resolves.toBe('recorded');
    // Told again, nothing more is written.
    await expect(applyRead(refunded.orderId, refunded.paymentId)).resolves.toBe('unchanged');
    await expect(applyRead(disputed.orderId, disputed.paymentId)).resolves.toBe('unchanged');

    const refundedRow = await orderRow(db(), refunded.orderId);
    expect(refundedRow).toMatchObject({ status: 'confirmed', paymentStatus: 'refunded' });
    expect(refundedRow.paymentDetails).toMatchObject({ refundedCents: FONE_CENTS });
    expect(await orderRow(db(), disputed.orderId)).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'chargeback',
    });

    const confirmedLine = {
      kind: 'status',
      fromStatus: 'pending',
      toStatus: 'confirmed',
      actor: expect.any(String),
      note: 'Pagamento aprovado.',
    };
    expect((await timeline(db(), refunded.orderId)).slice(-2)).toEqual([
      confirmedLine,
      {
        kind: 'payment',
        fromStatus: null,
        toStatus: null,
        actor: confirmedLine.actor,
        note: 'Pagamento reembolsado.',
      },
    ]);
    expect((await timeline(db(), disputed.orderId)).slice(-2)).toEqual([
      confirmedLine,
      {
        kind: 'payment',
        fromStatus: null,
        toStatus: null,
        actor: confirmedLine.actor,
        note: 'Pagamento contestado (chargeback).',
      },
    ]);
    expect((await topicsOf(db(), refunded.orderId)).slice(-1)).toEqual(['tracking.order:refunded']);
    expect((await topicsOf(db(), disputed.orderId)).slice(-1)).toEqual([
      'tracking.order:chargeback',
    ]);
    // Stock stays sold: a refund is money, not a return of goods.
    expect(await stock(db())).toBe(FONE_STOCK - 2);
  });

  /** A card or boleto order paid on Mercado Pago's checkout: its payment there. */
  async function paidOnCheckout(method: 'credit_card' | 'boleto') {
    const orderId = await placed(db(), 2, method);
    const link = await payOrder(db(), mercadoPago(), orderId);
    if (!link.ok || !link.paymentUrl) throw new Error('No checkout link');
    const paid = await fetch(`${fake.url}/checkout/v1/pay`, {
      method: 'POST',
      body: new URLSearchParams({
        pref_id: new URL(link.paymentUrl).searchParams.get('pref_id')!,
        choice: method === 'credit_card' ? 'card' : 'boleto',
        installments: '1',
      }),
      redirect: 'manual',
    });
    await paid.body?.cancel();
    const payment = [...fake.payments.values()].find((each) => each.external_reference === orderId);
    if (!payment) throw new Error('No payment at the checkout');
    return { orderId, payment, paymentId: String(payment.id) };
  }

  const look = 'confira no Mercado Pago antes de enviar ou reembolsar.';

  it('does not confirm a PIX approved for less than the total: the order waits, and staff are told once', async () => {
    const { orderId, paymentId } = await paidUp();
    const { totalAmountCents } = await orderRow(db(), orderId);
    await fake.approve(paymentId);
    fake.payments.get(paymentId)!.transaction_amount = 100;

    expect(await applyRead(orderId, paymentId)).toBe('review');
    expect(await applyRead(orderId, paymentId)).toBe('unchanged');
    const review =
      `Pagamento ${paymentId} aprovado de R$ 100,00, menos que o total do pedido ` +
      `(${formatCents(totalAmountCents)}): o pedido não foi confirmado; ${look}`;
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'pending',
      paidAt: null,
      paymentReview: review,
    });
    const notes = (await timeline(db(), orderId)).filter((event) => event.note === review);
    expect(notes).toEqual([
      { kind: 'payment', fromStatus: null, toStatus: null, actor: 'Pagamento', note: review },
    ]);
    expect(await topicsOf(db(), orderId)).toEqual([
      'email.order_received',
      'tracking.order:pending',
    ]);
    expect((await getAdminOrder(db(), orderId))!.payment.review).toBe(review);

    // Past its deadline the order is not cancelled: money was taken, and staff decide.
    const later = new Date(Date.now() + 2 * PIX_MINUTES * MINUTE);
    expect(await expireOrders(db(), mercadoPago(), withTracking, { now: later })).toBe(0);
    expect(await orderRow(db(), orderId)).toMatchObject({ status: 'pending' });
    expect(await stock(db())).toBe(FONE_STOCK - 2);
    // Nor may staff delete it: the order is the record of money that may have been taken.
    const staff = { id: randomUUID(), fullName: 'Gerente', email: 'gerente@loja.com.br' };
    expect(await deleteOrderByStaff(db(), orderId, staff)).toEqual({
      ok: false,
      status: 409,
      error: ADMIN_ORDER_MESSAGES.reviewNoDelete,
    });
    expect(await orderRow(db(), orderId)).toMatchObject({ status: 'pending' });
  });

  it('does not count a card held but not charged, nor one charged in another currency, as paid', async () => {
    const { orderId, payment, paymentId } = await paidOnCheckout('credit_card');
    Object.assign(payment, {
      status: 'authorized',
      status_detail: 'pending_capture',
      captured: false,
    });
    const refresh = async () =>
      (await refreshPayment(db(), mercadoPago(), (await getOrder(db(), orderId))!, withTracking))
        .order;

    expect(await refresh()).toMatchObject({ status: 'pending', payment: { id: paymentId } });
    expect((await orderRow(db(), orderId)).paymentReview).toBe(
      `Pagamento ${paymentId} autorizado no cartão, mas não cobrado: o pedido não foi confirmado; ${look}`,
    );

    Object.assign(payment, { status: 'approved', status_detail: 'accredited', captured: true });
    payment.currency_id = 'USD';
    expect(await refresh()).toMatchObject({ status: 'pending' });
    expect((await orderRow(db(), orderId)).paymentReview).toBe(
      `Pagamento ${paymentId} aprovado em USD, não em reais: o pedido não foi confirmado; ${look}`,
    );

    // Charged in reais for the whole total: paid, and nothing left for staff to look at.
    payment.currency_id = 'BRL';
    expect(await refresh()).toMatchObject({ status: 'confirmed' });
    expect(await orderRow(db(), orderId)).toMatchObject({
      paymentStatus: 'approved',
      paymentReview: null,
    });
  });

  it("does not confirm a boleto paid for less, told by Mercado Pago's notification", async () => {
    const { orderId, payment, paymentId } = await paidOnCheckout('boleto');
    await fake.approve(paymentId);
    payment.transaction_amount = 299.9;
    const notification = fake.notification(paymentId);
    const answer = await mercadoPagoNotification({
      request: new Request(notification.url, {
        method: 'POST',
        headers: notification.headers,
        body: notification.body,
      }),
      context: { db: db(), payments: async () => mercadoPago(), orderEvents: withTracking },
      params: {},
    } as unknown as Parameters<typeof mercadoPagoNotification>[0]);
    expect(answer).toEqual({ ok: true, outcome: 'review' });
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'pending',
      paymentId,
      paymentReview: expect.stringContaining('aprovado de R$ 299,90, menos que o total do pedido'),
    });
  });
});
