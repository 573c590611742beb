/** One parcel as carriers price it: grams and whole centimetres. */
export interface Parcel {
  weightGrams: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

/** A carrier's service as its quote named and priced it, before the store's own terms. */
export interface CarrierQuote {
  /** The carrier's id for the service ('2' for Correios SEDEX at Melhor Envio). */
  serviceId: string;
  /** 'Correios' */
  carrier: string;
  /** 'SEDEX' */
  service: string;
  priceCents: number;
  /** Business days from posting to delivery. */
  businessDays: number;
}

/**
 * A way to ship the shopper may choose: a carrier's service with the store's markup and
 * handling days in, its free-shipping rule not yet (pricing applies it to the whole order).
 */
export interface ShippingOption {
  /** What the checkout's `shippingOption` names: the service's id. */
  id: string;
  carrier: string;
  service: string;
  priceCents: number;
  /** Business days from payment to delivery: the store's handling days plus the carrier's. */
  businessDays: number;
}

/**
 * Shipping for one destination: the carriers' options, or the store's own rule, which is
 * approximate when it stands in for a carrier that did not answer (in time).
 */
export type ShippingQuote =
  { kind: 'carrier'; options: ShippingOption[] } | { kind: 'rule'; approximate: boolean };

/** How an order ships, as it was chosen: copied onto the order, never looked up again. */
export interface OrderShipping {
  /** 'melhorenvio', or null for the store's own rule. */
  provider: string | null;
  serviceId: string | null;
  carrier: string | null;
  service: string | null;
  businessDays: number | null;
  /** The store's rule priced it because the carrier did not answer: 'Prazo e valor aproximados'. */
  approximate: boolean;
}

/** What a carrier service is asked to price. */
export interface QuoteRequest {
  /** 8 digits each. */
  fromCep: string;
  toCep: string;
  parcel: Parcel;
}

/** A carrier integration: it prices a parcel between two CEPs, each service on its own. */
export interface ShippingProvider {
  name: 'melhorenvio';
  /** The services that can carry it; those that answered with an error are left out. Throws when the service gives no usable answer. */
  quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]>;
}

/** A carrier option as a page lists it: its price for this order, and when it arrives. */
export interface ShippingOptionView extends ShippingOption {
  /** What this order pays for it: `priceCents` after the store's free shipping. */
  chargedCents: number;
  /** 'sexta-feira, 4 de dezembro', if paid today; null past the holiday table's years. */
  arrivesBy: string | null;
}

export type ShippingOffer =
  { kind: 'carrier'; options: ShippingOptionView[] } | { kind: 'rule'; approximate: boolean };

/**
 * The carrier refused this one quote (a CEP it does not know, a parcel it will not take): the
 * carrier itself is up, so other shoppers' quotes go on being asked.
 */
export class QuoteRefused extends Error {
  constructor(readonly status: number) {
    super(`The carrier refused the quote (${status})`);
    this.name = 'QuoteRefused';
  }
}

export const APPROXIMATE_SHIPPING = 'Prazo e valor aproximados';

/** The order's shipping line: 'Frete (Correios SEDEX)', or 'Frete' by the store's own rule. */
export function shippingLineLabel(
  shipping: Pick<OrderShipping, 'carrier' | 'service' | 'approximate'> | null,
): string {
  if (shipping?.carrier && shipping.service)
    return `Frete (${shipping.carrier} ${shipping.service})`;
  return shipping?.approximate ? `Frete (${APPROXIMATE_SHIPPING.toLowerCase()})` : 'Frete';
}

/** Business days from payment to delivery: the carrier's as chosen, else the store's promise. */
export function deliveryDays(shipping: OrderShipping | null, storeDays: number): number {
  return shipping?.businessDays ?? storeDays;
}

/** How far an order's label has gone at the carrier; each step is saved before the next starts. */
export type LabelStep = 'cart' | 'paid' | 'generated' | 'printed' | 'tracked';

/**
 * The label bought for an order, as Melhor Envio returned it: saved after every step, so a retry
 * continues where the last one stopped and never buys the same shipment twice.
 */
export interface ShippingLabel {
  provider: 'melhorenvio';
  /** Melhor Envio's id of the shipment (its 'order'), a UUID. */
  shipmentId: string;
  /** 'ORD-202611…', as its panel shows it. */
  protocol: string | null;
  step: LabelStep;
  /** What the carrier charged the store's balance, in cents. */
  priceCents: number | null;
  /** The label's PDF, opened by staff in a new tab. */
  labelUrl: string | null;
  trackingCode: string | null;
  /** The carrier's status as last read ('released', 'generated', 'posted', 'delivered'…). */
  carrierStatus: string | null;
  /** When the tracking was last read (ISO), so the periodic check takes each order in turn. */
  checkedAt: string | null;
}
