import { ACCEPTED_METHOD_LABELS } from '~/modules/payments';
import { ownEntry } from '~/lib/lookup';

import type { CancelReason, OrderEventKind } from './schema';

/** How the admin names who took the payment. */
export const PAYMENT_PROVIDER_LABELS: Record<string, string> = {
  pix: 'PIX com a chave da loja',
  gateway: 'Gateway de pagamento',
  sandbox: 'Modo de teste (sandbox)',
  mercadopago: 'Mercado Pago',
  'pix-api': 'banco (API Pix)',
};

/** The payment's status as the provider last reported it (payments module's PaymentStatus). */
export const PAYMENT_STATUS_LABELS: Record<string, string> = {
  pending: 'Aguardando pagamento',
  approved: 'Aprovado',
  rejected: 'Recusado',
  expired: 'Expirado',
  refunded: 'Reembolsado',
  chargeback: 'Contestado (chargeback)',
};

/** How the admin names a way to pay ('credit_card' → 'Cartão de crédito'); unknown ones as given. */
export function paymentMethodLabel(method: string): string {
  return ownEntry<string>(ACCEPTED_METHOD_LABELS, method) ?? method.toUpperCase();
}

/** Card brands and boleto issuers as Mercado Pago names them; unknown ones as given. */
const PAYMENT_BRAND_LABELS: Record<string, string> = {
  master: 'Mastercard',
  visa: 'Visa',
  elo: 'Elo',
  amex: 'Amex',
  hipercard: 'Hipercard',
  cabal: 'Cabal',
  debmaster: 'Mastercard (débito)',
  debvisa: 'Visa (débito)',
  debelo: 'Elo (débito)',
  bolbradesco: 'Bradesco',
  pec: 'Pagamento na lotérica',
};

export function paymentBrandLabel(brand: string): string {
  return ownEntry(PAYMENT_BRAND_LABELS, brand) ?? brand;
}

export const CANCEL_REASON_LABELS: Record<CancelReason, string> = {
  rejected: 'pagamento recusado',
  expired: 'prazo de pagamento esgotado',
  staff: 'cancelado pela equipe',
};

export const EVENT_KIND_LABELS: Record<OrderEventKind, string> = {
  status: 'Status',
  payment: 'Pagamento',
  tracking: 'Código de rastreio',
  label: 'Etiqueta',
  note: 'Observação interna',
  invoice: 'Nota fiscal (ERP)',
};

// The two masks below are written out rather than taken from the checkout's library: sharing it
// would split it into a chunk the storefront's checkout then loads separately.

/** 000.000.000-00 for the CPF's 11 digits; anything else as stored. */
export function displayCpf(digits: string): string {
  return digits.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
}

/** (00) 00000-0000 or (00) 0000-0000; anything else as stored. */
export function displayPhone(digits: string): string {
  return digits.replace(/^(\d{2})(\d{4,5})(\d{4})$/, '($1) $2-$3');
}
