// What staff and shoppers read of the store's ERP (Bling today, Tiny next: ADR 048), and the
// states an order and its NF-e go through there. Safe for the browser: no secret, no server code.

export const ERP_NAMES = ['bling'] as const;
export type ErpName = (typeof ERP_NAMES)[number];

export const ERP_LABELS: Record<ErpName, string> = { bling: 'Bling' };

/** queued: waiting for the outbox; sent: the ERP has it; refused: the ERP said why not. */
export type SendState = 'queued' | 'sent' | 'refused';

/**
 * issuing: asked for, not yet at SEFAZ; pending: at SEFAZ, no answer yet; then authorized,
 * rejected (SEFAZ's reason kept, 'Tentar de novo' once fixed) or cancelled (in the ERP).
 */
export type InvoiceState = 'issuing' | 'pending' | 'authorized' | 'rejected' | 'cancelled';

/** When the NF-e is issued: as soon as a paid order is at the ERP, or when staff ask. */
export const INVOICE_ON_CHOICES = ['manual', 'paid'] as const;
export type InvoiceOn = (typeof INVOICE_ON_CHOICES)[number];

/** The connection as the admin shows it: never a token. */
export type ErpConnectionState =
  | { state: 'not-configured' }
  | { state: 'disconnected' }
  | { state: 'connected'; expiresAt: Date }
  | { state: 'revoked'; revokedAt: Date };

/** An order's ERP box on its admin page. */
export interface ErpOrderView {
  provider: ErpName;
  sendState: SendState;
  erpOrderId: string | null;
  sendError: string | null;
  invoiceRequested: boolean;
  invoiceState: InvoiceState | null;
  invoiceId: string | null;
  invoiceNumber: string | null;
  invoiceKey: string | null;
  danfeUrl: string | null;
  invoiceReason: string | null;
}

export const ERP_MESSAGES = {
  title: 'Integrações',
  connect: 'Conectar ao Bling',
  connected: 'Bling conectado: os pedidos pagos vão para o Bling.',
  notConfigured: 'Informe o Client Id e o Client Secret do aplicativo criado no Bling.',
  disconnected: 'Bling não conectado.',
  revoked:
    'A autorização do Bling foi revogada ou expirou: conecte de novo em Integrações para ' +
    'continuar enviando pedidos e emitindo notas.',
  badState:
    'O retorno do Bling não corresponde a uma conexão iniciada aqui. Tente conectar de novo.',
  denied: 'A conexão com o Bling não foi autorizada.',
  exchangeFailed: 'O Bling não confirmou a autorização. Tente conectar de novo.',
  connectedToast: 'Bling conectado com sucesso!',
  noKey:
    'Para guardar a autorização do Bling, o servidor precisa da variável SECRETS_KEY (a mesma ' +
    'em todas as instâncias).',
  notConnected: 'Conecte o Bling em Integrações antes de enviar pedidos.',
  sendQueued: 'Pedido na fila para o Bling.',
  alreadySent: 'Este pedido já está no Bling.',
  notPaid: 'Só pedidos pagos vão para o Bling.',
  invoiceQueued: 'Emissão da NF-e solicitada.',
  invoiceAlready: 'A NF-e deste pedido já foi autorizada.',
  invoiceBusy: 'A NF-e deste pedido já está sendo emitida.',
  retryQueued: 'Nova tentativa de emissão da NF-e solicitada.',
  notRejected: 'Só uma NF-e rejeitada pode ser enviada de novo.',
  notFound: 'Pedido não encontrado.',
  failed: 'Erro ao falar com o Bling. Tente novamente em instantes.',
  cancelInBling: (link: string) =>
    `Este pedido tem NF-e autorizada: cancele a nota no Bling (${link}) — cancelar o pedido ` +
    'aqui não cancela a nota.',
  invoicesQueued: (count: number) =>
    count === 1 ? '1 pedido com NF-e solicitada.' : `${count} pedidos com NF-e solicitada.`,
} as const;

/** The timeline's words for each step at the ERP. */
export const ERP_EVENT_NOTES = {
  sent: (erp: string, id: string) => `Pedido enviado ao ${erp} (pedido de venda ${id}).`,
  refused: (erp: string, reason: string) => `O ${erp} recusou o pedido: ${reason}`,
  invoiceRequested: 'Emissão da NF-e solicitada.',
  invoicePending: 'NF-e enviada à SEFAZ; aguardando autorização.',
  authorized: (number: string, key: string) =>
    `NF-e nº ${number} autorizada. Chave de acesso: ${key}.`,
  rejected: (reason: string) => `NF-e rejeitada pela SEFAZ: ${reason}`,
  cancelled: 'NF-e cancelada no ERP.',
  retry: 'NF-e enviada de novo à SEFAZ.',
} as const;

/** The timeline and dashboard's label for a state of the NF-e. */
export const INVOICE_STATE_LABELS: Record<InvoiceState, string> = {
  issuing: 'Em emissão',
  pending: 'Aguardando SEFAZ',
  authorized: 'Autorizada',
  rejected: 'Rejeitada',
  cancelled: 'Cancelada',
};

/** Where staff open a note in Bling's own screens (to cancel it there). */
export function blingInvoiceLink(invoiceId: string): string {
  return `https://www.bling.com.br/notas.fiscais.php#edit/${encodeURIComponent(invoiceId)}`;
}

/** The 44-digit access key in groups of four, as a DANFE prints it. */
export function formatAccessKey(key: string): string {
  return key.replace(/(\d{4})(?=\d)/g, '$1 ');
}
