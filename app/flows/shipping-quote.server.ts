import type { Db } from '~/db/database.server';
import { lookupVariants } from '~/modules/catalog/index.server';
import type { StateCode } from '~/modules/checkout';
import { estimatedDelivery, formatDeliveryDate } from '~/modules/orders';
import { shippingOfferPrices, type PricingChoices } from '~/modules/pricing';
import type { StoreSettings } from '~/modules/settings';
import {
  parcelFor,
  type OrderShipping,
  type ShippingOffer,
  type ShippingQuote,
} from '~/modules/shipping';
import type { ShippingQuoter } from '~/modules/shipping/index.server';
import { hitRateLimit, RATE_LIMITS } from '~/modules/rate-limits/index.server';

export interface ShippingScope {
  db: Db;
  /** The carrier integration of the connections in force, or null: the store's rule prices. */
  shipping(): Promise<ShippingQuoter | null>;
}

/** A shopper's estimate: its calls to the carrier count against the client's address. */
export interface EstimateScope extends ShippingScope {
  clientIp: string;
}

/** A quote, and how long the shopper must wait when their address spent its carrier calls. */
export interface ShopperQuote {
  quote: ShippingQuote;
  retryAfterSeconds: number | null;
}

/** What is shipped: a variant and how many of it. */
export interface ShippedItem {
  variantId: string;
  quantity: number;
}

/** What an estimate prices: the items, and their subtotal (free shipping reads it). */
export interface EstimatedGoods {
  items: readonly ShippedItem[];
  subtotalCents: number;
}

/** A priced cart's goods. */
export function cartGoods(cart: {
  lines: readonly ShippedItem[];
  subtotalCents: number;
}): EstimatedGoods {
  return {
    items: cart.lines.map((line) => ({ variantId: line.variantId, quantity: line.quantity })),
    subtotalCents: cart.subtotalCents,
  };
}

/** One unit of a product: the variant with this SKU, else its first. */
export function productGoods(
  variants: readonly { id: string; sku: string; priceCents: number }[],
  sku: string | null,
): EstimatedGoods | null {
  const variant = variants.find((each) => each.sku === sku) ?? (sku ? undefined : variants[0]);
  return variant
    ? { items: [{ variantId: variant.id, quantity: 1 }], subtotalCents: variant.priceCents }
    : null;
}

/**
 * The carrier that prices the store's shipping, or null: it needs an integration, and the CEP
 * parcels leave from.
 */
async function carrierOf(
  scope: Pick<ShippingScope, 'shipping'>,
  settings: Pick<StoreSettings, 'shipping_origin_cep'>,
): Promise<ShippingQuoter | null> {
  return settings.shipping_origin_cep === '' ? null : scope.shipping();
}

/** Whether carriers price the store's shipping. */
export async function carriersOn(
  scope: Pick<ShippingScope, 'shipping'>,
  settings: Pick<StoreSettings, 'shipping_origin_cep'>,
): Promise<boolean> {
  return (await carrierOf(scope, settings)) !== null;
}

/**
 * Shipping for these items to a CEP (8 digits): the carriers' options when the store has a
 * carrier and an origin CEP; else its own rule. A carrier that fails or is slow gives the store's
 * rule, marked approximate: a page or an order never waits on it longer than its deadline.
 * The order's own quote: the checkout that places it is limited on its own.
 */
export function quoteShipping(
  scope: ShippingScope,
  items: readonly ShippedItem[],
  toCep: string,
  settings: StoreSettings,
): Promise<ShippingQuote> {
  return quote(scope, items, toCep, settings);
}

/**
 * A shopper's estimate's quote (a page, `/frete`): as quoteShipping, but each call it makes to
 * the carrier counts against the client address (RATE_LIMITS.shippingQuote), since each spends
 * the merchant's quota there; past the limit the store's rule answers, approximate, and
 * `retryAfterSeconds` says how long until the carrier is asked again.
 */
export async function quoteForShopper(
  scope: EstimateScope,
  items: readonly ShippedItem[],
  toCep: string,
  settings: StoreSettings,
): Promise<ShopperQuote> {
  let retryAfterSeconds: number | null = null;
  const answer = await quote(scope, items, toCep, settings, async () => {
    const verdict = await hitRateLimit(scope.db, RATE_LIMITS.shippingQuote, {
      address: scope.clientIp,
    });
    if (!verdict.allowed) retryAfterSeconds = verdict.retryAfterSeconds;
    return verdict.allowed;
  });
  return { quote: answer, retryAfterSeconds };
}

async function quote(
  scope: ShippingScope,
  items: readonly ShippedItem[],
  toCep: string,
  settings: StoreSettings,
  mayCallCarrier?: () => Promise<boolean>,
): Promise<ShippingQuote> {
  const carrier = items.length === 0 ? null : await carrierOf(scope, settings);
  if (!carrier) return { kind: 'rule', approximate: false };
  const fromCep = settings.shipping_origin_cep;
  const variants = await lookupVariants(scope.db, {
    variantIds: items.map((item) => item.variantId),
  });
  const measures = new Map(variants.map((variant) => [variant.id, variant]));
  const parcel = parcelFor(
    items.map((item) => {
      const variant = measures.get(item.variantId);
      return {
        quantity: item.quantity,
        weightGrams: variant?.weightGrams ?? null,
        lengthMm: variant?.lengthMm ?? null,
        widthMm: variant?.widthMm ?? null,
        heightMm: variant?.heightMm ?? null,
      };
    }),
    settings,
  );
  return carrier.quote(scope.db, { fromCep, toCep, parcel }, settings, mayCallCarrier);
}

/** The quote as pages show it for an order of `subtotalCents` going to `state`. */
export function shippingOffer(
  quote: ShippingQuote,
  subtotalCents: number,
  state: StateCode,
  settings: StoreSettings,
  now = new Date(),
): ShippingOffer {
  if (quote.kind === 'rule') return quote;
  const charged = shippingOfferPrices(quote.options, subtotalCents, settings);
  return {
    kind: 'carrier',
    options: quote.options.map((option, index) => {
      const due = estimatedDelivery(now, option.businessDays, settings.timezone, state);
      return {
        ...option,
        chargedCents: charged[index]!.priceCents,
        arrivesBy: due ? formatDeliveryDate(due, { year: false }) : null,
      };
    }),
  };
}

/** The pricing pipeline's shipping choice for a quote: the carriers' options, if any. */
export function carrierChoice(
  quote: ShippingQuote | null,
  chosenId: string | null,
): PricingChoices['shipping'] {
  return quote?.kind === 'carrier' ? { offers: quote.options, chosenId } : null;
}

/** What an order records of how it ships: the chosen option, or the store's rule. */
export function orderShipping(
  quote: ShippingQuote,
  chosenId: string | null,
  provider: string | null,
): OrderShipping {
  const chosen =
    quote.kind === 'carrier' ? quote.options.find((option) => option.id === chosenId) : undefined;
  if (!chosen) {
    return {
      provider: null,
      serviceId: null,
      carrier: null,
      service: null,
      businessDays: null,
      approximate: quote.kind === 'rule' && quote.approximate,
    };
  }
  return {
    provider,
    serviceId: chosen.id,
    carrier: chosen.carrier,
    service: chosen.service,
    businessDays: chosen.businessDays,
    approximate: false,
  };
}
