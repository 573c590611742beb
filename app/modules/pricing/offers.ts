import type { StoreSettings } from '~/modules/settings';

export type OfferSettings = Pick<
  StoreSettings,
  'pix_discount_percent' | 'enable_credit_card' | 'max_installments' | 'min_installment_cents'
>;

/**
 * The PIX discount on an amount: pix_discount_percent of it, rounded down so the store never
 * takes off more than it promised. The checkout applies this same rule to the subtotal.
 */
export function pixDiscountCents(
  amountCents: number,
  settings: Pick<StoreSettings, 'pix_discount_percent'>,
): number {
  return Math.floor((amountCents * settings.pix_discount_percent) / 100);
}

export interface InstallmentOffer {
  count: number;
  /** Each instalment, rounded down: the first one carries the cents left over. */
  amountCents: number;
}

/**
 * 'ou 12x de R$ … sem juros': as many instalments as the store allows, each at least
 * min_installment_cents; null when card payments are off or one payment is all it allows.
 */
export function installmentOffer(
  amountCents: number,
  settings: OfferSettings,
): InstallmentOffer | null {
  if (!settings.enable_credit_card || settings.max_installments < 2) return null;
  const count = Math.min(
    settings.max_installments,
    Math.floor(amountCents / settings.min_installment_cents),
  );
  return count < 2 ? null : { count, amountCents: Math.floor(amountCents / count) };
}
