import type { Db } from '~/db/database.server';
import { formatCents } from '~/lib/money';
import { logger } from '~/lib/logger.server';
import { ordersPaid } from '~/lib/metrics.server';
import { variantLabel } from '~/modules/catalog';
import { releaseStock, alertRestocked } from '~/modules/catalog/index.server';
import { releaseCouponUse } from '~/modules/coupons/index.server';
import type { CancelReason, OrderView } from '~/modules/orders';
import { PAYMENT_PROVIDER_LABELS } from '~/modules/orders/index.admin';
import {
  attributionQuery,
  EVENT_ACTORS,
  getOrder,
  listExpiredOrders,
  lockOrder,
  recordOrderEvent,
  recordPayment,
  updateOrder,
  mailOrder,
  ORDER_TOPICS,
  trackOrder,
  type OrderEventOptions,
} from '~/modules/orders/index.server';
import {
  isCheckoutPlaceholder,
  PAYMENT_METHODS,
  PAYMENT_NOT_CONFIGURED,
  statusReport,
  type PaymentProvider,
  type PaymentProviderName,
  type PaymentReport,
  type PaymentStatus,
} from '~/modules/payments';

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

/** 'review': the provider's word did not confirm the order, and staff are asked to look. */
export type StatusOutcome =
  'confirmed' | 'cancelled' | 'recorded' | 'late' | 'review' | 'unchanged';

/** Who changed an order, as its timeline records it. */
export interface OrderActor {
  actor: string;
  /** Set when an admin acted. */
  adminUserId?: string | null;
}

const BY_PAYMENT: OrderActor = { actor: EVENT_ACTORS.payment };

/** What the timeline says when a payment's status is recorded. */
const PAYMENT_EVENT_NOTES: Record<PaymentStatus, string> = {
  pending: 'Pagamento aguardando confirmação.',
  approved: 'Pagamento aprovado.',
  rejected: 'Pagamento recusado.',
  expired: 'Pagamento expirado.',
  refunded: 'Pagamento reembolsado.',
  chargeback: 'Pagamento contestado (chargeback).',
};

const LATE_PAYMENT_NOTE =
  'Pagamento aprovado depois do cancelamento: reembolse o cliente ou envie o pedido.';

const EXPIRED_NOTE = 'Prazo de pagamento esgotado: pedido cancelado e estoque devolvido.';

/** Records a payment status that left the order's status as it was. */
async function paymentEvent(
  tx: Db,
  order: OrderView,
  status: PaymentStatus,
  by: OrderActor,
  note = PAYMENT_EVENT_NOTES[status],
): Promise<void> {
  await recordOrderEvent(tx, {
    orderId: order.id,
    kind: 'payment',
    actor: by.actor,
    adminUserId: by.adminUserId,
    note,
  });
}

/**
 * Applies what the provider reported of an order's payment, once: a replay, a stale payment or a
 * status that changes nothing leaves the order as it is. Approved confirms a pending order;
 * rejected cancels it and puts its stock back; approved after a cancellation is kept for staff.
 */
export async function applyPaymentReport(
  db: Db,
  change: {
    orderId: string;
    /** The provider that reported; null: the one the order's payment is with. */
    provider: PaymentProviderName | null;
    report: PaymentReport;
  },
  events: OrderEventOptions,
): Promise<StatusOutcome> {
  const outcome = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, change.orderId);
    if (!order) return 'unchanged' as const;
    return settleReport(tx, order, change.provider, change.report, events);
  });
  if (outcome === 'late') {
    logger.error(
      { orderId: change.orderId, paymentId: change.report.paymentId },
      'Payment approved for a cancelled order: staff must refund it or fulfil the order',
    );
  }
  if (outcome === 'review') {
    logger.error(
      { orderId: change.orderId, paymentId: change.report.paymentId },
      'A payment that does not cover the order (amount, currency or held): staff must look',
    );
  }
  return outcome;
}

/** A status the provider gave for the order's own payment (the gateway's postback). */
export function applyPaymentStatus(
  db: Db,
  change: { orderId: string; paymentId: string; status: PaymentStatus },
  events: OrderEventOptions,
): Promise<StatusOutcome> {
  return applyPaymentReport(
    db,
    {
      orderId: change.orderId,
      provider: null,
      report: statusReport(change.paymentId, change.status),
    },
    events,
  );
}

/**
 * A report on an order whose row the caller holds locked. A payment other than the order's own
 * counts only when the provider files it under this order and it is the one to follow: the
 * order's was a placeholder for the provider's checkout (where the shopper paid), or it is money
 * for an order still waiting (an earlier PIX paid at the last minute).
 */
async function settleReport(
  tx: Db,
  order: OrderView,
  provider: PaymentProviderName | null,
  report: PaymentReport,
  events: OrderEventOptions,
): Promise<StatusOutcome> {
  if (provider !== null && order.payment.provider !== provider) return 'unchanged';
  if (order.payment.id !== report.paymentId) {
    // A card refused on the provider's checkout is not the order's end: the shopper may try
    // another there until the link expires, and the order waits.
    const adopt =
      report.orderId === order.id &&
      ((report.status === 'approved' &&
        (order.status === 'pending' || order.status === 'cancelled')) ||
        (report.status === 'pending' &&
          order.status === 'pending' &&
          isCheckoutPlaceholder(order.payment.id)));
    if (!adopt) return 'unchanged';
    await updateOrder(tx, order.id, { paymentId: report.paymentId });
  }
  if (report.details || report.paymentUrl) {
    await updateOrder(tx, order.id, {
      ...(report.details ? { paymentDetails: report.details } : {}),
      ...(report.paymentUrl ? { paymentUrl: report.paymentUrl } : {}),
    });
  }
  const review =
    order.status === 'pending' || order.status === 'cancelled'
      ? paymentReview(order, report)
      : null;
  if (review) {
    // Told once: the same payment read again (every poll, every notification) adds nothing.
    if (order.payment.review === review) return 'unchanged';
    await updateOrder(tx, order.id, { paymentReview: review });
    await paymentEvent(tx, order, report.status, BY_PAYMENT, review);
    return 'review';
  }
  return settlePayment(tx, order, report.status, events);
}

const NOT_CONFIRMED = 'o pedido não foi confirmado';

/**
 * Why the provider's word must not confirm the order, in pt-BR for staff; null when it may (or
 * when the provider does not tell the money). Only a charge in reais of the order's whole total
 * pays it: less money, another currency or a card held but not charged is for staff to look at
 * in the provider's panel, the order kept as it is meanwhile.
 */
function paymentReview(order: OrderView, report: PaymentReport): string | null {
  const { money } = report;
  if (!money) return null;
  const label = PAYMENT_PROVIDER_LABELS[order.payment.provider ?? ''] ?? 'provedor';
  const look = `confira no ${label} antes de enviar ou reembolsar.`;
  const payment = `Pagamento ${report.paymentId}`;
  if (money.held) {
    return `${payment} autorizado no cartão, mas não cobrado: ${NOT_CONFIRMED}; ${look}`;
  }
  if (report.status !== 'approved') return null;
  if (money.currency !== 'BRL') {
    return `${payment} aprovado em ${money.currency || 'moeda não informada'}, não em reais: ${NOT_CONFIRMED}; ${look}`;
  }
  if (money.cents < order.totalCents) {
    return (
      `${payment} aprovado de ${formatCents(money.cents)}, menos que o total do pedido ` +
      `(${formatCents(order.totalCents)}): ${NOT_CONFIRMED}; ${look}`
    );
  }
  return null;
}

/**
 * Applies a payment status to an order whose row the caller holds locked, with its timeline
 * line: `by` is the provider unless staff confirmed the payment by hand.
 */
export async function settlePayment(
  tx: Db,
  order: OrderView,
  status: PaymentStatus,
  events: OrderEventOptions,
  by: OrderActor = BY_PAYMENT,
): Promise<StatusOutcome> {
  if (order.payment.status === status) return 'unchanged';
  switch (status) {
    case 'pending':
      return 'unchanged';
    case 'approved':
      if (order.status === 'cancelled') {
        await updateOrder(tx, order.id, { paymentStatus: status, latePaymentAt: new Date() });
        await paymentEvent(tx, order, status, by, LATE_PAYMENT_NOTE);
        await trackOrder(tx, order.id, status, events);
        return 'late';
      }
      if (order.status !== 'pending') {
        await updateOrder(tx, order.id, { paymentStatus: status });
        await paymentEvent(tx, order, status, by);
        return 'recorded';
      }
      await updateOrder(tx, order.id, {
        status: 'confirmed',
        paymentStatus: status,
        paidAt: new Date(),
        paymentReview: null,
      });
      await recordOrderEvent(tx, {
        orderId: order.id,
        kind: 'status',
        fromStatus: order.status,
        toStatus: 'confirmed',
        actor: by.actor,
        adminUserId: by.adminUserId,
        note: PAYMENT_EVENT_NOTES.approved,
      });
      await mailOrder(tx, ORDER_TOPICS.paymentConfirmed, order.id);
      await trackOrder(tx, order.id, status, events);
      // Counted before the caller's commit: a commit that then fails overcounts by one, which a
      // rate on a dashboard can bear; the orders table remains the record.
      ordersPaid.inc();
      return 'confirmed';
    case 'rejected':
      if (order.status !== 'pending') {
        await updateOrder(tx, order.id, { paymentStatus: status });
        await paymentEvent(tx, order, status, by);
        return 'recorded';
      }
      await cancelOrder(tx, order, 'rejected', status, by, PAYMENT_EVENT_NOTES.rejected);
      await trackOrder(tx, order.id, status, events);
      return 'cancelled';
    case 'expired':
      // A boleto the provider gave up on cannot be paid any more: its stock goes back now.
      if (order.status === 'pending' && order.paymentMethod === 'boleto') {
        await cancelOrder(tx, order, 'expired', status, by, EXPIRED_NOTE);
        await trackOrder(tx, order.id, status, events);
        return 'cancelled';
      }
      // The order waits for its own deadline (the expiry job); the shopper may ask for a new PIX.
      await updateOrder(tx, order.id, { paymentStatus: status });
      await paymentEvent(tx, order, status, by);
      return 'recorded';
    case 'refunded':
    case 'chargeback':
      await updateOrder(tx, order.id, { paymentStatus: status });
      await paymentEvent(tx, order, status, by);
      await trackOrder(tx, order.id, status, events);
      return 'recorded';
  }
}

/**
 * Cancels an order whose row the caller holds locked and puts its stock back, with its timeline
 * line; `paymentStatus` is recorded with it when one is given.
 */
export async function cancelOrder(
  tx: Db,
  order: OrderView,
  reason: CancelReason,
  paymentStatus: PaymentStatus | null,
  by: OrderActor,
  note: string,
): Promise<void> {
  await updateOrder(tx, order.id, {
    status: 'cancelled',
    cancelReason: reason,
    cancelledAt: new Date(),
    ...(paymentStatus ? { paymentStatus } : {}),
  });
  await recordOrderEvent(tx, {
    orderId: order.id,
    kind: 'status',
    fromStatus: order.status,
    toStatus: 'cancelled',
    actor: by.actor,
    adminUserId: by.adminUserId,
    note,
  });
  await releaseStock(tx, order.lines);
  await releaseCouponUses(tx, order);
  // A sold-out product this order held may be back: its 'Avise-me quando chegar' e-mails go.
  await alertRestocked(tx, orderProductIds(order));
}

/** A cancelled or deleted unpaid order gives its coupon's use back. */
export async function releaseCouponUses(tx: Db, order: OrderView): Promise<void> {
  for (const adjustment of order.adjustments) {
    if (adjustment.couponId) await releaseCouponUse(tx, adjustment.couponId);
  }
}

function orderProductIds(order: OrderView): string[] {
  return order.lines.flatMap((line) => (line.productId ? [line.productId] : []));
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
 * Staff saw the money arrive (PIX with the store's own key): confirms the order as a provider's
 * approval would, with the admin (`by`) in its timeline. The admin puts this behind 'Marcar como
 * pago'. 'missing' when no such order exists.
 */
export async function markOrderPaid(
  db: Db,
  orderId: string,
  events: OrderEventOptions,
  by?: OrderActor,
): Promise<StatusOutcome | 'missing'> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) return 'missing';
    // Only an order waiting for its money takes it (a cancelled one keeps it as a late payment):
    // a stale tab must not turn a shipped order's refund or chargeback back into 'approved'.
    if (order.status !== 'pending' && order.status !== 'cancelled') return 'unchanged';
    return settlePayment(tx, order, 'approved', events, by);
  });
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
      await cancelOrder(
        tx,
        order,
        'expired',
        order.payment.id ? 'expired' : null,
        { actor: EVENT_ACTORS.system },
        EXPIRED_NOTE,
      );
      await trackOrder(tx, order.id, 'expired', events);
      return true;
    });
    if (done) cancelled += 1;
  }
  return cancelled;
}
