import type { OrderStatus } from './schema';
import { adminStatusWord } from './status-labels';

/** What staff read after acting on an order, whichever flow did it. */
export const ADMIN_ORDER_MESSAGES = {
  notFound: 'Pedido não encontrado.',
  statusError: 'Erro ao atualizar status do pedido',
  statusUpdated: (status: OrderStatus) => `Status atualizado para ${adminStatusWord(status)}.`,
  alreadyThere: (status: OrderStatus) => `O pedido já está ${adminStatusWord(status)}.`,
  trackingRequired: 'Informe o código de rastreio para marcar o pedido como enviado.',
  trackingChanged: 'Código de rastreio atualizado. O cliente recebeu o novo código por e-mail.',
  trackingSame: 'O pedido já tem este código de rastreio.',
  trackingNotShipped: 'O código de rastreio só pode ser corrigido enquanto o pedido está enviado.',
  markedPaid: 'Pagamento confirmado. Status atualizado para confirmado.',
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
