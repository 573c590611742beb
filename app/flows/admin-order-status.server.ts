import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { releaseStock, alertRestocked } from '~/modules/catalog/index.server';
import {
  canDeleteOrder,
  canTransition,
  transitionRefusal,
  wasPaid,
  type OrderStatus,
} from '~/modules/orders';
import { ADMIN_STATUS_LABELS } from '~/modules/orders/index.admin';
import { deleteOrderRow } from '~/modules/orders/index.admin.server';
import {
  lockOrder,
  lockOrderRow,
  recordOrderEvent,
  updateOrder,
  mailOrder,
  ORDER_TOPICS,
  trackOrderStatus,
  type OrderEventOptions,
} from '~/modules/orders/index.server';

import {
  cancelOrder,
  markOrderPaid,
  releaseCouponUses,
  settlePayment,
  type OrderActor,
} from './order-payment.server';

export const ADMIN_ORDER_MESSAGES = {
  notFound: 'Pedido não encontrado.',
  statusError: 'Erro ao atualizar status do pedido',
  statusUpdated: (status: OrderStatus) => `Status atualizado para ${ADMIN_STATUS_LABELS[status]}.`,
  alreadyThere: (status: OrderStatus) => `O pedido já está ${ADMIN_STATUS_LABELS[status]}.`,
  trackingRequired: 'Informe o código de rastreio para marcar o pedido como Enviado.',
  trackingChanged: 'Código de rastreio atualizado. O cliente recebeu o novo código por e-mail.',
  trackingSame: 'O pedido já tem este código de rastreio.',
  trackingNotShipped: 'O código de rastreio só pode ser corrigido enquanto o pedido está Enviado.',
  markedPaid: 'Pagamento confirmado. Status atualizado para Confirmado.',
  latePayment:
    'Pagamento registrado em um pedido cancelado: reembolse o cliente ou envie o pedido.',
  notPending: 'Este pedido não está mais aguardando pagamento.',
  refundError: 'Erro ao reembolsar o pedido. Confira o pagamento no painel do provedor.',
  noteAdded: 'Observação adicionada.',
  noteError: 'Erro ao salvar observação',
  deleted: 'Pedido excluído com sucesso!',
  deleteError: 'Erro ao excluir pedido',
  paidNoDelete: 'Pedidos pagos não podem ser excluídos. Cancele o pedido.',
  reviewNoDelete:
    'Este pedido tem um pagamento a conferir e não pode ser excluído. Confira o pagamento ou cancele o pedido.',
} as const;

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
 * Moves an order along its lifecycle for staff, under the order's row lock: the status is read
 * again inside the transaction, so two admins changing one order at once cannot both apply
 * (the second is refused with the status the first left). Each change writes its timeline line,
 * the shopper's e-mail and the sales-tracking report, all in the same transaction.
 */
export async function changeOrderStatus(
  db: Db,
  input: { orderId: string; to: OrderStatus; trackingCode: string | null; admin: StaffMember },
  events: OrderEventOptions,
): Promise<StaffResult> {
  const { admin, ...change } = input;
  return changeOrderStatusBy(db, { ...change, by: staffActor(admin) }, events);
}

/**
 * changeOrderStatus for whoever acts: staff, or the store itself on a carrier's word (a label
 * bought, a delivery reported), whose timeline line says so in `note`.
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
 * the new one. Sales tracking is not told: the status did not change.
 */
export async function changeTrackingCode(
  db: Db,
  input: { orderId: string; trackingCode: string; admin: StaffMember },
): Promise<StaffResult> {
  const { admin, ...change } = input;
  return changeTrackingCodeBy(db, { ...change, by: staffActor(admin) });
}

/** changeTrackingCode for whoever acts: staff, or the carrier giving its own code later. */
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

/**
 * 'Marcar como pago' (PIX with the store's own key): the existing markOrderPaid, with the admin
 * in the timeline. A payment seen after the order was cancelled is kept, with a warning.
 */
export async function markPaidByStaff(
  db: Db,
  orderId: string,
  admin: StaffMember,
  events: OrderEventOptions,
): Promise<StaffResult> {
  const outcome = await markOrderPaid(db, orderId, events, staffActor(admin));
  switch (outcome) {
    case 'confirmed':
      return { ok: true, message: ADMIN_ORDER_MESSAGES.markedPaid };
    case 'late':
      return { ok: true, message: ADMIN_ORDER_MESSAGES.latePayment, warning: true };
    case 'missing':
      return notFound;
    default:
      return { ok: false, status: 409, error: ADMIN_ORDER_MESSAGES.notPending };
  }
}

/** An internal note in the order's timeline: staff only, never shown to the shopper. */
export async function addOrderNote(
  db: Db,
  input: { orderId: string; note: string; admin: StaffMember },
): Promise<StaffResult> {
  return db.transaction(async (tx): Promise<StaffResult> => {
    // Locked so the order cannot be deleted between the check and the insert.
    if (!(await lockOrderRow(tx, input.orderId))) return notFound;
    await recordOrderEvent(tx, {
      orderId: input.orderId,
      kind: 'note',
      note: input.note,
      ...staffActor(input.admin),
    });
    return { ok: true, message: ADMIN_ORDER_MESSAGES.noteAdded };
  });
}

/**
 * Deletes an order staff no longer want, unless money was received for it (those are cancelled
 * and refunded instead, and kept). A pending order's stock goes back first; a cancelled one's
 * already did.
 */
export async function deleteOrderByStaff(
  db: Db,
  orderId: string,
  admin: StaffMember,
): Promise<StaffResult> {
  const result = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) return { result: notFound };
    if (!canDeleteOrder({ ...order, paymentReview: order.payment.review })) {
      const error = order.payment.review
        ? ADMIN_ORDER_MESSAGES.reviewNoDelete
        : ADMIN_ORDER_MESSAGES.paidNoDelete;
      return { result: { ok: false, status: 409, error } as const };
    }
    if (order.status === 'pending') {
      await releaseStock(tx, order.lines);
      await releaseCouponUses(tx, order);
      await alertRestocked(
        tx,
        order.lines.flatMap((line) => (line.productId ? [line.productId] : [])),
      );
    }
    await deleteOrderRow(tx, orderId);
    return { result: { ok: true, message: ADMIN_ORDER_MESSAGES.deleted } as const, order };
  });
  if (result.order) {
    // A payment arriving later for this order finds nothing: the log keeps what identifies it.
    logger.info(
      {
        orderId,
        adminUserId: admin.id,
        status: result.order.status,
        paymentProvider: result.order.payment.provider,
        paymentId: result.order.payment.id,
      },
      'Order deleted by staff',
    );
  }
  return result.result;
}
