import type { StoreSettings } from '~/modules/settings';

import { pixDiscountCents } from './offers';
import {
  shippingCents,
  shippingOfferPrices,
  type ShippingOffer,
  type ShippingSettings,
} from './shipping';
import { lineTotalCents } from './unit-price';

/** What the pipeline reads of a line: its product (and category, for coupons), price and units. */
export interface PricingLine {
  productId: string;
  categoryId: string | null;
  unitPriceCents: number;
  quantity: number;
}

/** What the pipeline reads of the store's settings. */
export type PricingRules = ShippingSettings &
  Pick<StoreSettings, 'pix_discount_percent' | 'coupon_stacks_with_pix'>;

/**
 * A coupon's terms as pricing applies them. Whether it may be used at all (dates, uses, the
 * shopper's history) is the coupons domain's check, made before; the minimum and the products
 * it covers depend on the lines, so they are checked here, in the browser too.
 */
export interface CouponTerms {
  id: string;
  code: string;
  kind: 'percent' | 'fixed' | 'free_shipping';
  /** Whole percent, or cents for 'fixed'. */
  value: number;
  minSubtotalCents: number;
  /** Empty both: every product. */
  productIds: readonly string[];
  categoryIds: readonly string[];
}

export interface PricingChoices {
  /** How the shopper pays; null while not chosen (the cart shows the PIX total beside). */
  paymentMethod: 'pix' | null;
  coupon: CouponTerms | null;
  /**
   * The carriers' options for the shopper's CEP and the one chosen (the cheapest while none is):
   * absent, the store's own rule prices shipping.
   */
  shipping?: { offers: readonly ShippingOffer[]; chosenId: string | null } | null;
}

export type AdjustmentKind = 'coupon' | 'pix';

/** One line between the subtotal and the total: negative cents for a discount. */
export interface Adjustment {
  kind: AdjustmentKind;
  label: string;
  cents: number;
  couponId: string | null;
  couponCode: string | null;
}

/** Why a coupon the shopper holds does not apply to these lines. */
export type CouponMiss =
  | { reason: 'minimum'; minimumCents: number; missingCents: number }
  | { reason: 'products' }
  /** A free-shipping coupon on an order that already ships free. */
  | { reason: 'shipping_free' }
  /** Not stacking, the PIX discount gives more: the coupon waits for another payment method. */
  | { reason: 'pix_better' };

export interface PricedOrder {
  subtotalCents: number;
  /** The shipping rule's (or the chosen carrier option's) price for these lines, before any coupon. */
  shippingCents: number;
  /** The carrier option priced, when carriers price shipping. */
  shippingOptionId: string | null;
  adjustments: Adjustment[];
  /** Subtotal + shipping + the adjustments: what the shopper pays. */
  totalCents: number;
  /** Set when the shopper holds a coupon that this pricing did not apply. */
  couponMiss: CouponMiss | null;
}

/**
 * The one place money is added up: the cart page, the checkout, order placement and the
 * browser's optimistic cart all call this, so what the shopper is shown is what the order
 * charges. Pure: the lines, the store's rules and the shopper's choices in, the order's money
 * out.
 *
 * The coupon comes first, then the PIX discount on what the products cost after it (never on
 * shipping). When the store does not stack them, the larger of the two applies (the coupon when
 * they are equal: the shopper typed it).
 */
export function priceOrder(
  lines: readonly PricingLine[],
  rules: PricingRules,
  choices: PricingChoices,
): PricedOrder {
  const subtotalCents = linesTotal(lines);
  const { cents: shipping, optionId: shippingOptionId } =
    lines.length > 0
      ? shippingFor(subtotalCents, rules, choices.shipping ?? null)
      : { cents: 0, optionId: null };
  const adjustments: Adjustment[] = [];
  let couponMiss: CouponMiss | null = null;

  let coupon: Adjustment | null = null;
  if (choices.coupon) {
    const applied = couponAdjustment(lines, subtotalCents, shipping, choices.coupon);
    if ('miss' in applied) couponMiss = applied.miss;
    else coupon = applied.adjustment;
  }
  const productsAfterCoupon =
    subtotalCents - (coupon && choices.coupon?.kind !== 'free_shipping' ? -coupon.cents : 0);
  const pixCents =
    choices.paymentMethod === 'pix' ? pixDiscountCents(productsAfterCoupon, rules) : 0;
  const pix: Adjustment | null =
    pixCents > 0
      ? {
          kind: 'pix',
          label: `Desconto PIX (${rules.pix_discount_percent}%)`,
          cents: -pixCents,
          couponId: null,
          couponCode: null,
        }
      : null;

  if (coupon && pix && !rules.coupon_stacks_with_pix) {
    const pixAlone = pixDiscountCents(subtotalCents, rules);
    if (pixAlone > -coupon.cents) {
      adjustments.push({ ...pix, cents: -pixAlone });
      couponMiss = { reason: 'pix_better' };
    } else {
      adjustments.push(coupon);
    }
  } else {
    if (coupon) adjustments.push(coupon);
    if (pix) adjustments.push(pix);
  }

  const totalCents =
    subtotalCents + shipping + adjustments.reduce((sum, adjustment) => sum + adjustment.cents, 0);
  return {
    subtotalCents,
    shippingCents: shipping,
    shippingOptionId,
    adjustments,
    totalCents,
    couponMiss,
  };
}

function shippingFor(
  subtotalCents: number,
  rules: ShippingSettings,
  carriers: PricingChoices['shipping'] | null,
): { cents: number; optionId: string | null } {
  if (!carriers || carriers.offers.length === 0) {
    return { cents: shippingCents(subtotalCents, rules), optionId: null };
  }
  const priced = shippingOfferPrices(carriers.offers, subtotalCents, rules);
  const chosen =
    priced.find((offer) => offer.id === carriers.chosenId) ??
    priced.reduce((best, offer) => (offer.priceCents < best.priceCents ? offer : best));
  return { cents: chosen.priceCents, optionId: chosen.id };
}

function couponAdjustment(
  lines: readonly PricingLine[],
  subtotalCents: number,
  shipping: number,
  coupon: CouponTerms,
): { adjustment: Adjustment } | { miss: CouponMiss } {
  if (subtotalCents < coupon.minSubtotalCents) {
    return {
      miss: {
        reason: 'minimum',
        minimumCents: coupon.minSubtotalCents,
        missingCents: coupon.minSubtotalCents - subtotalCents,
      },
    };
  }
  const covered = coveredSubtotal(lines, coupon);
  if (covered === 0) return { miss: { reason: 'products' } };
  const label = `Cupom ${coupon.code}`;
  switch (coupon.kind) {
    case 'percent':
      // Rounded down, as the PIX discount: never more off than promised.
      return { adjustment: discount(label, Math.floor((covered * coupon.value) / 100), coupon) };
    case 'fixed':
      return { adjustment: discount(label, Math.min(coupon.value, covered), coupon) };
    case 'free_shipping':
      if (shipping === 0) return { miss: { reason: 'shipping_free' } };
      return { adjustment: discount(`${label} (frete grátis)`, shipping, coupon) };
  }
}

function discount(label: string, cents: number, coupon: CouponTerms): Adjustment {
  return { kind: 'coupon', label, cents: -cents, couponId: coupon.id, couponCode: coupon.code };
}

/** The subtotal of the lines the coupon covers: all of them unless it names products or categories. */
function coveredSubtotal(lines: readonly PricingLine[], coupon: CouponTerms): number {
  const limited = coupon.productIds.length > 0 || coupon.categoryIds.length > 0;
  return linesTotal(
    lines.filter(
      (line) =>
        !limited ||
        coupon.productIds.includes(line.productId) ||
        (line.categoryId !== null && coupon.categoryIds.includes(line.categoryId)),
    ),
  );
}

function linesTotal(lines: readonly PricingLine[]): number {
  return lines.reduce((sum, line) => sum + lineTotalCents(line.unitPriceCents, line.quantity), 0);
}

/** What the products must still add up to for the store's minimum order; 0 once they reach it. */
export function missingForMinimumCents(
  subtotalCents: number,
  settings: Pick<StoreSettings, 'min_order_value_cents'>,
): number {
  return Math.max(0, settings.min_order_value_cents - subtotalCents);
}

/** The discounts of an order, as a positive amount ('you saved'). */
export function discountTotal(adjustments: readonly { cents: number }[]): number {
  return -adjustments.reduce((sum, adjustment) => sum + Math.min(0, adjustment.cents), 0);
}
