import type { OrderStatus } from './schema';
import { adminStatusWord } from './status-labels';

/**
 * The one list of moves an order may make (PRODUCT.md §10): staff confirm a payment, ship with a
 * tracking code, record the delivery, or cancel before shipping. Delivered and cancelled are
 * final. The selector offers these and the server refuses anything else.
 */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** The refusal staff read for a move the lifecycle does not allow. */
export function transitionRefusal(from: OrderStatus, to: OrderStatus): string {
  return `Não é possível mudar de ${adminStatusWord(from)} para ${adminStatusWord(to)}.`;
}

/** What the delete and cancel rules read of an order. */
export interface OrderMoneyState {
  status: OrderStatus;
  paidAt: Date | string | null;
  latePaymentAt: Date | string | null;
}

/** Orders whose money was received: they are cancelled (and refunded), never deleted. */
export function wasPaid(order: OrderMoneyState): boolean {
  return (
    order.status === 'confirmed' ||
    order.status === 'shipped' ||
    order.status === 'delivered' ||
    order.paidAt !== null ||
    order.latePaymentAt !== null
  );
}

/**
 * The one rule for 'Excluir': the server refuses to delete an order it does not allow, and the
 * admin's list and detail offer the button only where it does. An order with a payment to look
 * at is kept too: money may have been taken for it.
 */
export function canDeleteOrder(
  order: OrderMoneyState & {
    /** Why a payment for it is for staff to look at (orders.payment_review), if one is. */
    paymentReview: string | null;
  },
): boolean {
  return !wasPaid(order) && !order.paymentReview;
}

/** Whether staff may still cancel the order ('Cancelar pedido'). */
export function canCancelOrder(order: Pick<OrderMoneyState, 'status'>): boolean {
  return canTransition(order.status, 'cancelled');
}
