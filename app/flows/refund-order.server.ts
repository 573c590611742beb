import { createHash } from 'node:crypto';

import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { ownEntry } from '~/lib/lookup';
import { formatCents } from '~/lib/money';
import type { OrderView } from '~/modules/orders';
import { PAYMENT_PROVIDER_LABELS } from '~/modules/orders/index.admin';
import {
  getOrder,
  listOrderEvents,
  lockOrder,
  lockOrderRow,
  recordOrderEvent,
  updateOrder,
  mailOrder,
  ORDER_TOPICS,
  trackOrder,
  type OrderEventOptions,
} from '~/modules/orders/index.server';
import {
  isCheckoutPlaceholder,
  type PaymentProvider,
  type PaymentReport,
} from '~/modules/payments';

import {
  applyPaymentReport,
  cancelOrder,
  staffActor,
  type OrderActor,
  type StaffMember,
  type StaffResult,
} from './order-changes.server';

export const REFUND_MESSAGES = {
  notFound: 'Pedido não encontrado.',
  notRefundable:
    'Este pagamento não pode ser reembolsado pelo painel: só um pagamento aprovado pelo provedor ' +
    'da loja pode.',
  alreadyRefunded: 'Este pedido já foi reembolsado.',
  refunded: (amount: string) =>
    `Reembolso de ${amount} feito. Pedido cancelado e estoque devolvido.`,
  refundedCancelled: (amount: string) => `Reembolso de ${amount} feito.`,
  notConfirmed: (provider: string) =>
    `O ${provider} recebeu o pedido de reembolso, mas ainda não o confirmou. Confira o pagamento ` +
    'no painel dele antes de cancelar o pedido.',
  moved: 'O pagamento deste pedido mudou enquanto o reembolso era feito. Confira o pedido.',
} as const;

/**
 * How the timeline's line of a refund staff made begins (and no other line), and how it names
 * the payment: a cancelled order may take a second payment later, refunded on its own.
 */
const REFUND_DONE = 'Reembolso de ';
const refundedPayment = (paymentId: string) => `(pagamento ${paymentId};`;

/** The timeline's words for a refund. */
const REFUND_NOTES = {
  done: (amount: string, provider: string, paymentId: string, actor: string) =>
    `${REFUND_DONE}${amount} feito pelo ${provider} ${refundedPayment(paymentId)} pedido por ${actor}).`,
  cancelled: 'Pedido cancelado pelo reembolso; estoque devolvido.',
  refused: (provider: string, error: string) => `Reembolso recusado pelo ${provider}: ${error}`,
  notConfirmed: (provider: string, actor: string) =>
    `Reembolso pedido ao ${provider} por ${actor}; ele ainda não o confirmou.`,
} as const;

/** What the refund needs of an order: its payment, and who took it. */
type RefundableOrder = { payment: Pick<OrderView['payment'], 'provider' | 'id' | 'status'> };

/**
 * Whether 'Reembolsar' applies: the order's payment was approved by the store's provider, which
 * refunds through its API. The order's status does not matter: a confirmed, shipped or delivered
 * order is refunded and cancelled; a cancelled one paid late is refunded.
 */
export function canRefundOrder(
  order: RefundableOrder,
  provider: PaymentProvider | null,
): provider is PaymentProvider & Required<Pick<PaymentProvider, 'refund'>> {
  return (
    provider !== null &&
    typeof provider.refund === 'function' &&
    order.payment.provider === provider.name &&
    order.payment.status === 'approved' &&
    order.payment.id !== null &&
    !isCheckoutPlaceholder(order.payment.id)
  );
}

/**
 * The refund's idempotency key, from the order and its payment only: a double click, a second
 * tab or a second admin sends the same key, so the provider makes one refund. Written as a UUID,
 * the form Mercado Pago asks for.
 */
export function refundIdempotencyKey(orderId: string, paymentId: string): string {
  const hex = createHash('sha256').update(`vitrine:refund:${orderId}:${paymentId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function providerLabel(provider: PaymentProvider): string {
  return ownEntry(PAYMENT_PROVIDER_LABELS, provider.name) ?? provider.name;
}

/** A timeline line about the payment, by the admin; the order may have been deleted meanwhile. */
async function paymentNote(db: Db, orderId: string, note: string, by: OrderActor): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await lockOrderRow(tx, orderId))) return;
    await recordOrderEvent(tx, { orderId, kind: 'payment', note, ...by });
  });
}

/**
 * 'Reembolsar': gives the shopper the whole payment back through the provider, then, under the
 * order's lock and in one transaction, records the payment as refunded (timeline, sales tracking)
 * and cancels the order if it was not yet (stock and coupon back, the cancellation e-mail). The
 * provider is called outside any transaction, with a key from the order, so concurrent clicks
 * make one refund and the second finds the work done. A refusal changes nothing but the timeline.
 */
export async function refundOrderByStaff(
  db: Db,
  provider: PaymentProvider | null,
  orderId: string,
  admin: StaffMember,
  events: OrderEventOptions,
): Promise<StaffResult> {
  const order = await getOrder(db, orderId);
  if (!order) return { ok: false, status: 404, error: REFUND_MESSAGES.notFound };
  if (order.payment.status === 'refunded') {
    return { ok: true, message: REFUND_MESSAGES.alreadyRefunded };
  }
  if (!canRefundOrder(order, provider)) {
    return { ok: false, status: 409, error: REFUND_MESSAGES.notRefundable };
  }
  const paymentId = order.payment.id!;
  const by = staffActor(admin);
  const label = providerLabel(provider);

  let answer: Awaited<ReturnType<typeof provider.refund>>;
  try {
    answer = await provider.refund(paymentId, refundIdempotencyKey(order.id, paymentId));
  } catch (error) {
    logger.error({ err: error, orderId, paymentId }, 'Refund threw');
    answer = { ok: false, error: 'Erro ao pedir o reembolso. Tente novamente.' };
  }
  if (!answer.ok) {
    // A refund made but its answer lost (a timeout, the re-read failing) is still made: the
    // payment is read once more before the refusal is believed.
    const now = await provider.status(paymentId).catch(() => null);
    if (now?.ok && now.value.status === 'refunded') answer = now;
  }
  if (!answer.ok) {
    logger.warn({ orderId, paymentId, error: answer.error }, 'Refund refused');
    await paymentNote(db, orderId, REFUND_NOTES.refused(label, answer.error), by);
    return { ok: false, status: 409, error: answer.error };
  }
  const report = answer.value;
  if (report.status !== 'refunded' || report.paymentId !== paymentId) {
    // Taken but not yet done (a refund in process): the report is applied as any other, and the
    // order waits for staff, who see the provider's word in the timeline.
    logger.warn({ orderId, paymentId, status: report.status }, 'Refund not confirmed');
    await applyPaymentReport(db, { orderId, provider: provider.name, report }, events);
    await paymentNote(db, orderId, REFUND_NOTES.notConfirmed(label, by.actor), by);
    return { ok: true, warning: true, message: REFUND_MESSAGES.notConfirmed(label) };
  }
  return db.transaction((tx) =>
    settleRefund(tx, { orderId, paymentId, report, by, label }, events),
  );
}

async function settleRefund(
  tx: Db,
  refund: {
    orderId: string;
    paymentId: string;
    report: PaymentReport;
    by: OrderActor;
    label: string;
  },
  events: OrderEventOptions,
): Promise<StaffResult> {
  const { orderId, report, by } = refund;
  const order = await lockOrder(tx, orderId);
  if (!order) return { ok: false, status: 404, error: REFUND_MESSAGES.notFound };
  if (order.payment.id !== refund.paymentId) {
    return { ok: false, status: 409, error: REFUND_MESSAGES.moved };
  }
  // Another click got here first: its refund is this one (same key), already recorded. The
  // timeline tells, not the payment's status: Mercado Pago's notification of this very refund
  // may have recorded that first.
  const recorded = (await listOrderEvents(tx, orderId)).some(
    (event) =>
      event.kind === 'payment' &&
      event.note?.startsWith(REFUND_DONE) &&
      event.note.includes(refundedPayment(refund.paymentId)),
  );
  if (recorded) return { ok: true, message: REFUND_MESSAGES.alreadyRefunded };
  const refundedCents = report.details?.refundedCents || order.totalCents;
  const amount = formatCents(refundedCents);
  await updateOrder(tx, orderId, {
    ...(report.details ? { paymentDetails: report.details } : {}),
    paymentStatus: 'refunded',
  });
  await recordOrderEvent(tx, {
    orderId,
    kind: 'payment',
    note: REFUND_NOTES.done(amount, refund.label, refund.paymentId, by.actor),
    ...by,
  });
  // The provider's notification may have recorded the refund already; it is reported once.
  if (order.payment.status !== 'refunded') await trackOrder(tx, orderId, 'refunded', events);
  if (order.status === 'cancelled') {
    return { ok: true, message: REFUND_MESSAGES.refundedCancelled(amount) };
  }
  await cancelOrder(tx, order, 'staff', null, by, REFUND_NOTES.cancelled);
  await mailOrder(tx, ORDER_TOPICS.orderCancelled, orderId);
  // No 'cancelled' status report: sales tracking would read it as 'refused', where the refund
  // just reported the sale as 'refunded'.
  return { ok: true, message: REFUND_MESSAGES.refunded(amount) };
}
