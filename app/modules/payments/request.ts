import { MIN_PAYMENT_CENTS, type PaymentRequest } from './types';

/** SPEC §8: what the shopper reads when the store has no way to take payments. */
export const PAYMENT_NOT_CONFIGURED =
  'Sistema de pagamento não configurado. Entre em contato com o suporte.';

/**
 * Where buying starts (the product page, the cart, checkout) on a live store that cannot take a
 * payment yet: said there instead of leading the shopper to a checkout that would refuse them.
 */
export const STORE_NOT_SELLING = 'Esta loja ainda não está vendendo pela internet. Volte em breve.';

const MIN_PAYMENT_MESSAGE = 'Valor mínimo para pagamento é R$ 5,01';

/**
 * SPEC §5's checks on a payment, in pt-BR, or null when it may go ahead. Every provider runs
 * them, so the sandbox refuses what the real gateway would and testing shows the same errors.
 */
export function paymentRequestError(request: PaymentRequest): string | null {
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents < MIN_PAYMENT_CENTS) {
    return MIN_PAYMENT_MESSAGE;
  }
  if (request.customer.cpf.replace(/\D/g, '').length !== 11) return 'CPF deve ter 11 dígitos';
  const phoneDigits = request.customer.phone.replace(/\D/g, '').length;
  if (phoneDigits !== 10 && phoneDigits !== 11) return 'Telefone deve ter 10 ou 11 dígitos';
  return null;
}
