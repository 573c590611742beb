export {
  installmentOffer,
  pixDiscountCents,
  pixPriceCents,
  type InstallmentOffer,
  type OfferSettings,
} from './offers';
export {
  discountTotal,
  missingForMinimumCents,
  priceOrder,
  type Adjustment,
  type AdjustmentKind,
  type CouponMiss,
  type CouponTerms,
  type PricedOrder,
  type PricingChoices,
  type PricingLine,
  type PricingRules,
} from './price-order';
export {
  carrierPriceCents,
  freeShippingFromCents,
  shippingCents,
  shippingOfferPrices,
  type CarrierMarkup,
  type ShippingOffer,
  type ShippingSettings,
} from './shipping';
export { effectivePriceCents, lineTotalCents } from './unit-price';
