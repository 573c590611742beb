export {
  installmentOffer,
  pixDiscountCents,
  type InstallmentOffer,
  type OfferSettings,
} from './offers';
export {
  discountTotal,
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
  freeShippingFromCents,
  shippingCents,
  shippingOfferPrices,
  type ShippingOffer,
  type ShippingSettings,
} from './shipping';
export { effectivePriceCents, lineTotalCents } from './unit-price';
