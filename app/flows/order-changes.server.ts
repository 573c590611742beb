import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { ordersPaid } from '~/lib/metrics.server';
import { formatCents } from '~/lib/money';
import { alertRestocked, releaseStock } from '~/modules/catalog/index.server';
import { releaseCouponUse } from '~/modules/coupons/index.server';
import { queuePaidOrder } from '~/modules/erp/index.server';
import {
  canTransition,
  transitionRefusal,
  wasPaid,
  type CancelReason,
  type OrderStatus,
  type OrderView,
} from '~/modules/orders';
import { ADMIN_ORDER_MESSAGES, PAYMENT_PROVIDER_LABELS } from '~/modules/orders/index.admin';
import {
  EVENT_ACTORS,
  lockOrder,
  lockOrderRow,
  mailOrder,
  ORDER_TOPICS,
  recordOrderEvent,
  trackOrder,
  trackOrderStatus,
  updateOrder,
  type OrderEventOptions,
} from '~/modules/orders/index.server';
import {
  isCheckoutPlaceholder,
  statusReport,
  type PaymentProviderName,
  type PaymentReport,
  type PaymentStatus,
} from '~/modules/payments';

// How an order's payment and status change, whoever asks: the payment provider (a postback, a
// status read), staff, the carrier. Each change is made under the order's row lock with its
// timeline line, e-mail and report, and a cancellation puts the stock and coupon back. The flows
// that talk to the provider, staff and the carrier call these steps; these call only modules,
// so the chain of flows stays short (ADR 043).

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
export async function settleReport(
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
  if (money.exactCents !== undefined && money.cents !== money.exactCents) {
    return (
      `${payment} recebido de ${formatCents(money.cents)}, diferente do valor cobrado ` +
      `(${formatCents(money.exactCents)}): ${NOT_CONFIRMED}; ${look}`
    );
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
      // To the merchant's ERP (Bling), for its NF-e, when one is connected.
      await queuePaidOrder(tx, order.id);
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
 * An unpaid order past its payment deadline, whose row the caller holds locked: cancelled by the
 * system, its stock put back, and reported as expired.
 */
export async function expireOrder(
  tx: Db,
  order: OrderView,
  events: OrderEventOptions,
): Promise<void> {
  await cancelOrder(
    tx,
    order,
    'expired',
    order.payment.id ? 'expired' : null,
    { actor: EVENT_ACTORS.system },
    EXPIRED_NOTE,
  );
  await trackOrder(tx, order.id, 'expired', events);
}

/** The timeline's words for each change staff make. */
const STAFF_EVENT_NOTES = {
  shipped: (trackingCode: string) => `Código de rastreio: ${trackingCode}`,
  trackingChanged: (from: string | null, to: string) =>
    from ? `Código de rastreio corrigido de ${from} para ${to}.` : `Código de rastreio: ${to}`,
  delivered: 'Entrega registrada pela equipe.',
  cancelled: 'Pedido cancelado pela equipe; estoque devolvido.',
  cancelledPaid: 'Pedido pago cancelado pela equipe; estoque devolvido. Reembolse o cliente.',
} as const;

/** The signed-in admin, as requireAdmin gives it. */
export interface StaffMember {
  id: string;
  email: string;
  fullName: string;
}

export type StaffResult =
  | { ok: true; message: string; warning?: boolean }
  | { ok: false; status: 400 | 404 | 409; error: string };

/** How the timeline names an admin who acted. */
export function staffActor(admin: StaffMember): OrderActor {
  return { actor: admin.fullName || admin.email, adminUserId: admin.id };
}

const notFound: StaffResult = { ok: false, status: 404, error: ADMIN_ORDER_MESSAGES.notFound };

/**
 * Moves an order along its lifecycle under the order's row lock: the status is read again inside
 * the transaction, so two admins changing one order at once cannot both apply (the second is
 * refused with the status the first left). Each change writes its timeline line, the shopper's
 * e-mail and the sales-tracking report, all in the same transaction. `by` is staff, or the store
 * itself on a carrier's word (a label bought, a delivery reported), whose timeline line says so
 * in `note`.
 */
export async function changeOrderStatusBy(
  db: Db,
  input: {
    orderId: string;
    to: OrderStatus;
    trackingCode: string | null;
    by: OrderActor;
    note?: string;
  },
  events: OrderEventOptions,
): Promise<StaffResult> {
  const { orderId, to, by } = input;
  return db.transaction(async (tx): Promise<StaffResult> => {
    const order = await lockOrder(tx, orderId);
    if (!order) return notFound;
    // The same change twice (a double click, two tabs) is done once and said so.
    if (order.status === to) {
      return { ok: true, message: ADMIN_ORDER_MESSAGES.alreadyThere(to) };
    }
    if (!canTransition(order.status, to)) {
      return { ok: false, status: 409, error: transitionRefusal(order.status, to) };
    }
    const timeline = {
      orderId,
      kind: 'status' as const,
      fromStatus: order.status,
      toStatus: to,
      actor: by.actor,
      adminUserId: by.adminUserId ?? null,
    };
    switch (to) {
      case 'confirmed': {
        // Staff approving a payment is the provider's approval by hand: same e-mail and report.
        const outcome = await settlePayment(tx, order, 'approved', events, by);
        if (outcome !== 'confirmed') {
          return { ok: false, status: 409, error: ADMIN_ORDER_MESSAGES.notPending };
        }
        break;
      }
      case 'shipped': {
        if (!input.trackingCode) {
          return { ok: false, status: 400, error: ADMIN_ORDER_MESSAGES.trackingRequired };
        }
        await updateOrder(tx, orderId, { status: 'shipped', trackingCode: input.trackingCode });
        await recordOrderEvent(tx, {
          ...timeline,
          note: input.note ?? STAFF_EVENT_NOTES.shipped(input.trackingCode),
        });
        await mailOrder(tx, ORDER_TOPICS.orderShipped, orderId);
        await trackOrderStatus(tx, orderId, to, events);
        break;
      }
      case 'delivered':
        await updateOrder(tx, orderId, { status: 'delivered' });
        await recordOrderEvent(tx, {
          ...timeline,
          note: input.note ?? STAFF_EVENT_NOTES.delivered,
        });
        await mailOrder(tx, ORDER_TOPICS.orderDelivered, orderId);
        await trackOrderStatus(tx, orderId, to, events);
        break;
      case 'cancelled':
        await cancelOrder(
          tx,
          order,
          'staff',
          null,
          by,
          wasPaid(order) ? STAFF_EVENT_NOTES.cancelledPaid : STAFF_EVENT_NOTES.cancelled,
        );
        await mailOrder(tx, ORDER_TOPICS.orderCancelled, orderId);
        await trackOrderStatus(tx, orderId, to, events);
        break;
      case 'pending':
        // No move leads back to pending; canTransition refused it above.
        return { ok: false, status: 409, error: transitionRefusal(order.status, to) };
    }
    return { ok: true, message: ADMIN_ORDER_MESSAGES.statusUpdated(to) };
  });
}

/**
 * Corrects the tracking code of a shipped order (a typo, or a new code from the carrier), under
 * the order's row lock: the timeline keeps the old and new codes and the shopper is e-mailed
 * the new one. Sales tracking is not told: the status did not change. `by` is staff, or the
 * carrier giving its own code later.
 */
export async function changeTrackingCodeBy(
  db: Db,
  input: { orderId: string; trackingCode: string; by: OrderActor },
): Promise<StaffResult> {
  return db.transaction(async (tx): Promise<StaffResult> => {
    const order = await lockOrderRow(tx, input.orderId);
    if (!order) return notFound;
    if (order.status !== 'shipped') {
      return { ok: false, status: 409, error: ADMIN_ORDER_MESSAGES.trackingNotShipped };
    }
    // The same code twice (a double click) changes nothing and e-mails nobody.
    if (order.trackingCode === input.trackingCode) {
      return { ok: true, message: ADMIN_ORDER_MESSAGES.trackingSame };
    }
    await updateOrder(tx, input.orderId, { trackingCode: input.trackingCode });
    await recordOrderEvent(tx, {
      orderId: input.orderId,
      kind: 'tracking',
      note: STAFF_EVENT_NOTES.trackingChanged(order.trackingCode, input.trackingCode),
      ...input.by,
    });
    await mailOrder(tx, ORDER_TOPICS.trackingCodeChanged, input.orderId);
    return { ok: true, message: ADMIN_ORDER_MESSAGES.trackingChanged };
  });
}
