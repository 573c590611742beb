import type { StoreSettings } from '~/modules/settings';

export type ShippingSettings = Pick<
  StoreSettings,
  'shipping_mode' | 'default_shipping_cost_cents' | 'free_shipping_threshold_cents'
>;

/**
 * The subtotal from which shipping is free: 0 when it always is (free shipping, or a flat rate
 * of nothing), null when it never is (a flat rate with no threshold). Every promise the store
 * makes about shipping (badges, pages, the cart) reads this one rule.
 */
export function freeShippingFromCents(settings: ShippingSettings): number | null {
  if (settings.shipping_mode === 'free' || settings.default_shipping_cost_cents === 0) return 0;
  const threshold = settings.free_shipping_threshold_cents;
  return threshold > 0 ? threshold : null;
}

/** Shipping for an order with this subtotal: free, or the flat rate below the free threshold. */
export function shippingCents(subtotalCents: number, settings: ShippingSettings): number {
  const freeFrom = freeShippingFromCents(settings);
  return freeFrom !== null && subtotalCents >= freeFrom ? 0 : settings.default_shipping_cost_cents;
}

export type CarrierMarkup = Pick<
  StoreSettings,
  'shipping_markup_cents' | 'shipping_markup_percent'
>;

/**
 * What the store charges for a carrier's quote: the quote with the store's markup, its percent
 * rounded up (a markup never costs the store a fraction of a cent) and its fixed cents.
 */
export function carrierPriceCents(quoteCents: number, markup: CarrierMarkup): number {
  return (
    quoteCents +
    Math.ceil((quoteCents * markup.shipping_markup_percent) / 100) +
    markup.shipping_markup_cents
  );
}

/** A carrier's option as pricing reads it: its id and its price before free shipping. */
export interface ShippingOffer {
  id: string;
  priceCents: number;
}

/**
 * The carriers' options priced for an order with this subtotal: the store's free shipping (its
 * threshold, or free shipping everywhere) makes the cheapest option free; the others keep their
 * price. In the order given.
 */
export function shippingOfferPrices<Offer extends ShippingOffer>(
  offers: readonly Offer[],
  subtotalCents: number,
  settings: ShippingSettings,
): Offer[] {
  const freeFrom = freeShippingFromCents(settings);
  if (freeFrom === null || subtotalCents < freeFrom || offers.length === 0) return [...offers];
  const cheapest = offers.reduce((best, offer) =>
    offer.priceCents < best.priceCents ? offer : best,
  );
  return offers.map((offer) => (offer === cheapest ? { ...offer, priceCents: 0 } : offer));
}
