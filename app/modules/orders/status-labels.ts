import type { OrderStatus } from './schema';

// An order's status in words, once per audience (SPEC §4). The two differ only where the
// audience sees the same moment differently: a confirmed order is one the shopper paid.

/** How shoppers read a status: the order history, the storefront. */
export const SHOPPER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pendente',
  confirmed: 'Pago',
  shipped: 'Enviado',
  delivered: 'Entregue',
  cancelled: 'Cancelado',
};

/** What happens next with the delivery, as the shopper's history cards say it. */
export const DELIVERY_LINES: Record<OrderStatus, string> = {
  pending: 'Aguardando pagamento',
  confirmed: 'Preparando o pedido para envio',
  shipped: 'Pedido enviado',
  delivered: 'Pedido entregue',
  cancelled: 'Pedido cancelado',
};

/** How staff read a status: the admin's badges, filters, history, messages and CSV export. */
export const ADMIN_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pendente',
  confirmed: 'Confirmado',
  shipped: 'Enviado',
  delivered: 'Entregue',
  cancelled: 'Cancelado',
};

/**
 * A status inside a staff sentence, in sentence case: 'Este pedido está entregue', not
 * 'está Entregue' (the labels are capitalised because they stand alone on badges and filters).
 */
export function adminStatusWord(status: OrderStatus): string {
  return ADMIN_STATUS_LABELS[status].toLocaleLowerCase('pt-BR');
}

/** The staff's status selector names each move: confirming an order is approving its payment. */
export const TRANSITION_LABELS: Record<OrderStatus, string> = {
  ...ADMIN_STATUS_LABELS,
  confirmed: 'Aprovado',
};
