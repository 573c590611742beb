import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { variantLabel } from '~/modules/catalog';
import type { OrderView } from '~/modules/orders';
import {
  attributionQuery,
  getOrder,
  listExpiredOrders,
  lockOrder,
  recordPayment,
  type OrderEventOptions,
} from '~/modules/orders/index.server';
import {
  PAYMENT_METHODS,
  PAYMENT_NOT_CONFIGURED,
  type PaymentProvider,
  type PaymentReport,
} from '~/modules/payments';

import { applyPaymentReport, expireOrder, settleReport } from './order-changes.server';

const PAYMENT_MESSAGES = {
  notConfigured: PAYMENT_NOT_CONFIGURED,
  orderMissing: 'Não foi possível encontrar os dados do pedido para gerar o pagamento.',
  failed: (error: string) => `Erro ao gerar pagamento: ${error || 'Tente novamente.'}`,
  threw: 'Erro ao gerar pagamento. Tente novamente.',
  methodGone:
    'Esta forma de pagamento não está mais disponível na loja. Entre em contato com o suporte.',
};

export type PayOrderResult =
  /** `paymentUrl`: where the shopper goes to pay, when it is the provider's page, not ours. */
  { ok: true; paymentId: string; paymentUrl: string | null } | { ok: false; error: string };

/** Whether the order's current payment can still be paid: reuse it rather than issue another. */
export function hasLivePayment(order: OrderView, now: Date): boolean {
  const { payment } = order;
  return (
    payment.id !== null &&
    (payment.status === 'pending' || payment.status === null) &&
    (payment.expiresAt === null || payment.expiresAt > now)
  );
}

/**
 * Gives a pending order a payment the shopper can pay: its live one, or a new one from the
 * provider (first payment, or a PIX that expired). Runs outside any transaction, since it waits
 * on the provider; a failure leaves the order pending, to be paid later with 'Pagar agora'.
 */
export async function payOrder(
  db: Db,
  provider: PaymentProvider | null,
  orderOrId: string | OrderView,
  options: { now?: Date } = {},
): Promise<PayOrderResult> {
  if (!provider) return { ok: false, error: PAYMENT_MESSAGES.notConfigured };
  // An order just written is passed as it is; any other is read again.
  const order = typeof orderOrId === 'string' ? await getOrder(db, orderOrId) : orderOrId;
  if (!order || order.status !== 'pending')
    return { ok: false, error: PAYMENT_MESSAGES.orderMissing };
  if (hasLivePayment(order, options.now ?? new Date()))
    return { ok: true, paymentId: order.payment.id!, paymentUrl: order.payment.url };
  const method = PAYMENT_METHODS.find((known) => known === order.paymentMethod);
  if (!method || !provider.accepts.includes(method)) {
    return { ok: false, error: PAYMENT_MESSAGES.methodGone };
  }
  try {
    const outcome = await provider.create({
      orderId: order.id,
      // A payment that expired or failed gives way to a new one; none yet, the first.
      attempt: order.payment.id ? `after:${order.payment.id}` : 'first',
      description: `Pedido ${order.number}`,
      deadline: order.payment.id ? null : order.payment.expiresAt,
      amountCents: order.totalCents,
      method,
      customer: order.customer,
      items: order.lines.map((line) => ({
        productId: line.productId,
        title: variantLabel(line),
        unitPriceCents: line.unitPriceCents,
        quantity: line.quantity,
      })),
      utmQuery: attributionQuery(order.trackingParameters),
    });
    if (!outcome.ok) {
      logger.warn(
        { orderId: order.id, provider: provider.name, error: outcome.error },
        'Payment not created',
      );
      return { ok: false, error: PAYMENT_MESSAGES.failed(outcome.error) };
    }
    const payment = outcome.value;
    const stored = await recordPayment(db, order.id, {
      provider: provider.name,
      paymentId: payment.paymentId,
      status: payment.status,
      pixCode: payment.pixCode,
      pixQrCode: payment.pixQrCode,
      billetUrl: payment.billetUrl,
      billetCode: payment.billetCode,
      paymentUrl: payment.paymentUrl,
      expiresAt: payment.expiresAt,
    });
    if (!stored) return { ok: false, error: PAYMENT_MESSAGES.orderMissing };
    return { ok: true, paymentId: payment.paymentId, paymentUrl: payment.paymentUrl };
  } catch (error) {
    logger.error(
      { err: error, orderId: order.id, provider: provider.name },
      'Payment creation threw',
    );
    return { ok: false, error: PAYMENT_MESSAGES.threw };
  }
}

/**
 * Asks the provider how a pending order's payment stands and applies it: what the confirmation,
 * callback and thank-you pages call, so a paid order is confirmed by the server, never by a URL.
 */
export async function refreshPayment(
  db: Db,
  provider: PaymentProvider | null,
  order: OrderView,
  events: OrderEventOptions,
): Promise<{ order: OrderView; error?: string }> {
  const paymentId = order.payment.id;
  if (!provider || !paymentId || order.payment.provider !== provider.name) return { order };
  if (order.status !== 'pending') return { order };
  const answer = await provider.status(paymentId);
  if (!answer.ok) return { order, error: answer.error };
  const report = answer.value;
  // The usual answer while the shopper waits: nothing new, no transaction.
  if (
    report.status === order.payment.status &&
    report.paymentId === paymentId &&
    !report.money?.held
  ) {
    return { order };
  }
  const outcome = await applyPaymentReport(
    db,
    { orderId: order.id, provider: provider.name, report },
    events,
  );
  if (outcome === 'unchanged') return { order };
  return { order: (await getOrder(db, order.id)) ?? order };
}

/**
 * Cancels unpaid orders whose payment deadline passed and puts their stock back. Before giving
 * up on an order it asks the provider once more, so a payment made at the last minute confirms
 * it instead. Safe with several instances: each order is taken with SKIP LOCKED and checked again
 * under its lock.
 */
export async function expireOrders(
  db: Db,
  provider: PaymentProvider | null,
  events: OrderEventOptions,
  options: { now?: Date; limit?: number } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  let cancelled = 0;
  for (const candidate of await listExpiredOrders(db, now, options.limit ?? 50)) {
    let lastWord: PaymentReport | null = null;
    if (provider && candidate.paymentId) {
      const answer = await provider.status(candidate.paymentId);
      if (answer.ok) lastWord = answer.value;
    }
    const done = await db.transaction(async (tx) => {
      const order = await lockOrder(tx, candidate.id, { skipLocked: true });
      if (!order || order.status !== 'pending' || order.payment.review) return false;
      if (!order.payment.expiresAt || order.payment.expiresAt >= now) return false;
      if (provider && (lastWord?.status === 'approved' || lastWord?.money?.held)) {
        const outcome = await settleReport(tx, order, provider.name, lastWord, events);
        if (outcome !== 'unchanged') return false;
      }
      await expireOrder(tx, order, events);
      return true;
    });
    if (done) cancelled += 1;
  }
  return cancelled;
}
