import type { StoreSettings } from '~/modules/settings';

export type OfferSettings = Pick<
  StoreSettings,
  | 'pix_discount_percent'
  | 'enable_credit_card'
  | 'max_installments'
  | 'min_installment_cents'
  | 'installments_interest_free'
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

/** The price paid by PIX: the amount less its PIX discount. */
export function pixPriceCents(
  amountCents: number,
  settings: Pick<StoreSettings, 'pix_discount_percent'>,
): number {
  return amountCents - pixDiscountCents(amountCents, settings);
}

export interface InstallmentOffer {
  count: number;
  /**
   * Each instalment, rounded down (the first one carries the cents left over); null when the
   * shopper pays the interest, which the card's issuer sets, so no amount can be promised.
   */
  amountCents: number | null;
}

/**
 * 'ou 12x de R$ … sem juros' (or 'ou em até 12x no cartão' when the shopper pays the interest):
 * as many instalments as the store allows, each at least min_installment_cents; null when card
 * payments are off or one payment is all it allows.
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
  if (count < 2) return null;
  return {
    count,
    amountCents: settings.installments_interest_free ? Math.floor(amountCents / count) : null,
  };
}
