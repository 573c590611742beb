import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { alertRestocked, releaseStock } from '~/modules/catalog/index.server';
import { canDeleteOrder, type OrderStatus } from '~/modules/orders';
import { ADMIN_ORDER_MESSAGES } from '~/modules/orders/index.admin';
import { deleteOrderRow } from '~/modules/orders/index.admin.server';
import {
  lockOrder,
  lockOrderRow,
  recordOrderEvent,
  type OrderEventOptions,
} from '~/modules/orders/index.server';

import {
  changeOrderStatusBy,
  changeTrackingCodeBy,
  markOrderPaid,
  releaseCouponUses,
  staffActor,
  type StaffMember,
  type StaffResult,
} from './order-changes.server';

const notFound: StaffResult = { ok: false, status: 404, error: ADMIN_ORDER_MESSAGES.notFound };

/** A status change staff make ('Alterar status', 'Cancelar pedido'), with them in the timeline. */
export async function changeOrderStatus(
  db: Db,
  input: { orderId: string; to: OrderStatus; trackingCode: string | null; admin: StaffMember },
  events: OrderEventOptions,
): Promise<StaffResult> {
  const { admin, ...change } = input;
  return changeOrderStatusBy(db, { ...change, by: staffActor(admin) }, events);
}

/** A tracking code staff correct, with them in the timeline. */
export async function changeTrackingCode(
  db: Db,
  input: { orderId: string; trackingCode: string; admin: StaffMember },
): Promise<StaffResult> {
  const { admin, ...change } = input;
  return changeTrackingCodeBy(db, { ...change, by: staffActor(admin) });
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
