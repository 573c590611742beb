import { randomUUID } from 'node:crypto';

import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { orderEvents, orders, outbox, products } from '~/db/schema';
import { changeOrderStatus } from '~/flows/admin-order-status.server';
import { applyPaymentReport, type StaffMember } from '~/flows/order-changes.server';
import { payOrder } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import { canRefundOrder, REFUND_MESSAGES, refundOrderByStaff } from '~/flows/refund-order.server';
import { formatCents } from '~/lib/money';
import { createAdmin } from '~/modules/auth/index.server';
import { checkoutFormSchema } from '~/modules/checkout';
import { getOrder } from '~/modules/orders/index.server';
import type { PaymentProvider } from '~/modules/payments';
import { createMercadoPagoProvider } from '~/modules/payments/mercadopago.server';
import { defaultSettings } from '~/modules/settings';

import { ADMIN } from '../support/admin';
import { describeDb } from '../support/db';
import { startFakeMercadoPago, type FakeMercadoPago } from '../support/fake-mercadopago';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { VALID_CHECKOUT } from '../support/visitor';

const TOKEN = 'TEST-7731-refund-token';
const SECRET = 'whsec-refund-3318';
const FONE = '5a3b1e00-0000-4000-8000-00000000e001';
const STOCK = 20;
const withTracking = { tracking: true };
const REFUND_FAILED = 'O Mercado Pago não aceitou o reembolso. Confira o pagamento no painel dele.';

let fake: FakeMercadoPago;

beforeAll(async () => {
  fake = await startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: SECRET });
  // No store listens here: the tests apply what the provider answers themselves.
  fake.sendNotifications = false;
});

afterAll(async () => {
  await fake.close();
});

function mercadoPago(): PaymentProvider {
  return createMercadoPagoProvider({
    apiUrl: fake.url,
    accessToken: TOKEN,
    webhookSecret: SECRET,
    publicUrl: 'https://loja.test',
    settings: async () => ({
      pix_expiration_minutes: 30,
      max_installments: 12,
      boleto_due_days: 3,
    }),
  });
}

async function seed(db: Db): Promise<StaffMember> {
  await db
    .insert(products)
    .values({ id: FONE, name: 'Fone Bluetooth', priceCents: 29990, stockQuantity: STOCK });
  const created = await createAdmin(db, ADMIN);
  if (!created.ok) throw new Error(created.error);
  return { id: created.id, email: ADMIN.email, fullName: ADMIN.fullName };
}

/** Two headphones bought through checkout's own flow, with a PIX at the fake Mercado Pago. */
async function placeWithPix(db: Db): Promise<{ orderId: string; paymentId: string }> {
  const result = await placeOrder(
    db,
    {
      form: checkoutFormSchema.parse({
        ...VALID_CHECKOUT,
        customerCpf: shopperCpf(),
        idempotencyKey: randomUUID(),
      }),
      cart: [
        {
          productId: FONE,
          variantId: null,
          quantity: 2,
          seenPriceCents: 29990,
          seenName: 'Fone Bluetooth',
        },
      ],
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      settings: defaultSettings(),
    },
    { tracking: false },
  );
  if (!result.ok) throw new Error(`Order refused: ${JSON.stringify(result)}`);
  const paid = await payOrder(db, mercadoPago(), result.orderId);
  if (!paid.ok) throw new Error(paid.error);
  return { orderId: result.orderId, paymentId: paid.paymentId };
}

/** Applies how the fake says the payment stands, as a notification would. */
async function applyFromFake(db: Db, orderId: string, paymentId: string) {
  const answer = await mercadoPago().status(paymentId);
  if (!answer.ok) throw new Error(answer.error);
  return applyPaymentReport(
    db,
    { orderId, provider: 'mercadopago', report: answer.value },
    withTracking,
  );
}

async function paidOrder(db: Db) {
  const placed = await placeWithPix(db);
  await fake.approve(placed.paymentId);
  expect(await applyFromFake(db, placed.orderId, placed.paymentId)).toBe('confirmed');
  await db.delete(outbox);
  return placed;
}

async function stockOf(db: Db): Promise<number> {
  const [row] = await db
    .select({ stock: products.stockQuantity })
    .from(products)
    .where(eq(products.id, FONE));
  return row!.stock;
}

const eventsOf = (db: Db, orderId: string) =>
  db
    .select({
      kind: orderEvents.kind,
      fromStatus: orderEvents.fromStatus,
      toStatus: orderEvents.toStatus,
      actor: orderEvents.actor,
      adminUserId: orderEvents.adminUserId,
      note: orderEvents.note,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.id));

const topics = async (db: Db) =>
  (await db.select({ topic: outbox.topic }).from(outbox).orderBy(asc(outbox.id))).map(
    (row) => row.topic,
  );

async function orderRow(db: Db, orderId: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

describeDb('refunding a Mercado Pago payment (admin)', ({ db }) => {
  let admin: StaffMember;

  beforeEach(async () => {
    admin = await seed(db());
  });

  const refund = (orderId: string, provider: PaymentProvider | null = mercadoPago()) =>
    refundOrderByStaff(db(), provider, orderId, admin, withTracking);

  it('refunds a confirmed order once though asked twice at once, and cancels it: stock back, timeline, one e-mail', async () => {
    const { orderId, paymentId } = await paidOrder(db());
    const before = (await getOrder(db(), orderId))!;
    expect(before.status).toBe('confirmed');
    expect(canRefundOrder(before, mercadoPago())).toBe(true);
    expect(await stockOf(db())).toBe(STOCK - 2);
    const amount = `R$ ${(before.totalCents / 100).toFixed(2).replace('.', ',')}`;

    const results = await Promise.all([refund(orderId), refund(orderId)]);
    expect(results).toEqual(
      expect.arrayContaining([
        { ok: true, message: REFUND_MESSAGES.refunded(amount) },
        { ok: true, message: REFUND_MESSAGES.alreadyRefunded },
      ]),
    );
    expect(fake.refundCalls(paymentId)).toBe(1);
    // Both asked with the one key the order gives, in the form Mercado Pago documents.
    const keys = fake.requests
      .filter((request) => request.path === `/v1/payments/${paymentId}/refunds`)
      .map((request) => request.headers['x-idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);

    const row = await orderRow(db(), orderId);
    expect(row).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'refunded',
      cancelReason: 'staff',
    });
    expect(row.paymentDetails).toMatchObject({ refundedCents: before.totalCents });
    expect(await stockOf(db())).toBe(STOCK);

    const byAdmin = { actor: ADMIN.fullName, adminUserId: admin.id };
    expect((await eventsOf(db(), orderId)).slice(-2)).toEqual([
      {
        ...byAdmin,
        kind: 'payment',
        fromStatus: null,
        toStatus: null,
        note: `Reembolso de ${amount} feito pelo Mercado Pago (pagamento ${paymentId}; pedido por ${ADMIN.fullName}).`,
      },
      {
        ...byAdmin,
        kind: 'status',
        fromStatus: 'confirmed',
        toStatus: 'cancelled',
        note: 'Pedido cancelado pelo reembolso; estoque devolvido.',
      },
    ]);
    // One cancellation e-mail, and sales tracking told 'refunded' once (not 'cancelled', which
    // it would read as refused).
    expect(await topics(db())).toEqual(['tracking.order', 'email.order_cancelled']);

    // Asked again later: said so, and Mercado Pago is not asked.
    expect(await refund(orderId)).toEqual({ ok: true, message: REFUND_MESSAGES.alreadyRefunded });
    expect(fake.refundCalls(paymentId)).toBe(1);
    expect(canRefundOrder((await getOrder(db(), orderId))!, mercadoPago())).toBe(false);
  });

  it('changes nothing but the timeline when Mercado Pago refuses the refund', async () => {
    const { orderId, paymentId } = await paidOrder(db());
    const eventsBefore = await eventsOf(db(), orderId);
    // At Mercado Pago the payment is not (or no longer) approved: it refuses to refund it.
    fake.payments.get(paymentId)!.status = 'in_process';

    expect(await refund(orderId)).toEqual({ ok: false, status: 409, error: REFUND_FAILED });
    expect(fake.refundCalls(paymentId)).toBe(0);
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'approved',
      cancelledAt: null,
    });
    expect(await stockOf(db())).toBe(STOCK - 2);
    expect(await eventsOf(db(), orderId)).toEqual([
      ...eventsBefore,
      {
        kind: 'payment',
        fromStatus: null,
        toStatus: null,
        actor: ADMIN.fullName,
        adminUserId: admin.id,
        note: `Reembolso recusado pelo Mercado Pago: ${REFUND_FAILED}`,
      },
    ]);
    expect(await topics(db())).toEqual([]);
  });

  it('goes on with a refund made whose answer was lost, as Mercado Pago then reads it', async () => {
    const { orderId, paymentId } = await paidOrder(db());
    const real = mercadoPago();
    const lostAnswer: PaymentProvider = {
      ...real,
      async refund(id, key) {
        await real.refund!(id, key);
        return { ok: false, error: 'O serviço de pagamento não respondeu. Tente novamente.' };
      },
    };
    expect(await refund(orderId, lostAnswer)).toMatchObject({ ok: true });
    expect(fake.refundCalls(paymentId)).toBe(1);
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'refunded',
    });
    expect((await eventsOf(db(), orderId)).map((event) => event.note)).not.toContainEqual(
      expect.stringContaining('recusado'),
    );
  });

  it('leaves the order as it is when Mercado Pago took the refund but has not made it yet', async () => {
    const { orderId, paymentId } = await paidOrder(db());
    const real = mercadoPago();
    const inProcess: PaymentProvider = {
      ...real,
      // As a refund in process reads: the payment still approved.
      refund: async (id) => real.status(id),
    };
    expect(await refund(orderId, inProcess)).toEqual({
      ok: true,
      warning: true,
      message: REFUND_MESSAGES.notConfirmed('Mercado Pago'),
    });
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'approved',
    });
    expect(await stockOf(db())).toBe(STOCK - 2);
    expect((await eventsOf(db(), orderId)).at(-1)).toMatchObject({
      kind: 'payment',
      note: `Reembolso pedido ao Mercado Pago por ${ADMIN.fullName}; ele ainda não o confirmou.`,
    });
    expect(await topics(db())).toEqual([]);
    expect(fake.refundCalls(paymentId)).toBe(0);
  });

  it('records a refund made in Mercado Pago’s panel, and then offers none', async () => {
    const { orderId, paymentId } = await paidOrder(db());
    await fake.refundInPanel(paymentId);
    expect(await applyFromFake(db(), orderId, paymentId)).toBe('recorded');

    const order = (await getOrder(db(), orderId))!;
    // The order is the staff's to cancel: the money went back, the goods may have gone too.
    expect(order.status).toBe('confirmed');
    expect(order.payment.status).toBe('refunded');
    expect(order.payment.details).toMatchObject({ refundedCents: order.totalCents });
    expect((await eventsOf(db(), orderId)).at(-1)).toMatchObject({
      kind: 'payment',
      note: 'Pagamento reembolsado.',
    });
    expect(await topics(db())).toEqual(['tracking.order']);

    expect(canRefundOrder(order, mercadoPago())).toBe(false);
    expect(await refund(orderId)).toEqual({ ok: true, message: REFUND_MESSAGES.alreadyRefunded });
    expect(
      fake.requests.some((request) => request.path === `/v1/payments/${paymentId}/refunds`),
    ).toBe(false);
  });

  it('refunds a payment that arrived after the order was cancelled, without cancelling it again', async () => {
    const { orderId, paymentId } = await placeWithPix(db());
    await changeOrderStatus(
      db(),
      { orderId, to: 'cancelled', trackingCode: null, admin },
      withTracking,
    );
    expect(await stockOf(db())).toBe(STOCK);
    await fake.approve(paymentId);
    expect(await applyFromFake(db(), orderId, paymentId)).toBe('late');
    await db().delete(outbox);

    const order = (await getOrder(db(), orderId))!;
    expect(canRefundOrder(order, mercadoPago())).toBe(true);
    const amount = `R$ ${(order.totalCents / 100).toFixed(2).replace('.', ',')}`;
    expect(await refund(orderId)).toEqual({
      ok: true,
      message: REFUND_MESSAGES.refundedCancelled(amount),
    });
    expect(fake.refundCalls(paymentId)).toBe(1);
    expect(await orderRow(db(), orderId)).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'refunded',
    });
    // Its stock went back with the cancellation, not twice.
    expect(await stockOf(db())).toBe(STOCK);
    expect((await eventsOf(db(), orderId)).at(-1)).toMatchObject({
      kind: 'payment',
      note: `Reembolso de ${amount} feito pelo Mercado Pago (pagamento ${paymentId}; pedido por ${ADMIN.fullName}).`,
    });
    expect(await topics(db())).toEqual(['tracking.order']);
  });

  it('records the refund it made though Mercado Pago’s notification of it came first', async () => {
    // A payment after the order was cancelled: no cancellation marks the refund as done.
    const { orderId, paymentId } = await placeWithPix(db());
    await changeOrderStatus(
      db(),
      { orderId, to: 'cancelled', trackingCode: null, admin },
      withTracking,
    );
    await fake.approve(paymentId);
    expect(await applyFromFake(db(), orderId, paymentId)).toBe('late');
    await db().delete(outbox);
    const real = mercadoPago();
    const notifiedFirst: PaymentProvider = {
      ...real,
      async refund(id, key) {
        const answer = await real.refund!(id, key);
        expect(await applyFromFake(db(), orderId, paymentId)).toBe('recorded');
        return answer;
      },
    };

    const amount = formatCents(Math.round(fake.payments.get(paymentId)!.transaction_amount * 100));
    expect(await refund(orderId, notifiedFirst)).toEqual({
      ok: true,
      message: REFUND_MESSAGES.refundedCancelled(amount),
    });
    expect(await refund(orderId, real)).toEqual({
      ok: true,
      message: REFUND_MESSAGES.alreadyRefunded,
    });
    expect(fake.refundCalls(paymentId)).toBe(1);
    const notes = (await eventsOf(db(), orderId)).map((event) => event.note);
    expect(notes).toContain('Pagamento reembolsado.');
    expect(notes.filter((note) => note?.startsWith('Reembolso de'))).toEqual([
      `Reembolso de ${amount} feito pelo Mercado Pago (pagamento ${paymentId}; pedido por ${ADMIN.fullName}).`,
    ]);
    // Sales tracking heard of the refund once, from the notification.
    expect(await topics(db())).toEqual(['tracking.order']);
  });

  it('refuses what it cannot refund, without asking Mercado Pago', async () => {
    const { orderId, paymentId } = await placeWithPix(db());
    expect(await refund(orderId)).toEqual({
      ok: false,
      status: 409,
      error: REFUND_MESSAGES.notRefundable,
    });
    // A provider that does not refund through its API (PIX with the store's key, the sandbox).
    const paid = await paidOrder(db());
    const withoutRefund: PaymentProvider = { ...mercadoPago(), refund: undefined };
    expect(await refund(paid.orderId, withoutRefund)).toMatchObject({ ok: false, status: 409 });
    expect(await refund(paid.orderId, null)).toMatchObject({ ok: false, status: 409 });
    expect(await refund(randomUUID())).toMatchObject({ ok: false, status: 404 });
    expect(await refund('not-an-id')).toMatchObject({ ok: false, status: 404 });
    expect(fake.refundCalls(paymentId) + fake.refundCalls(paid.paymentId)).toBe(0);
  });
});
