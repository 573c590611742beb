export { cartIntentSchema, type CartIntent } from './intent';
export {
  installmentOffer,
  pixDiscountCents,
  type InstallmentOffer,
  type OfferSettings,
} from './offers';
export { freeShippingFromCents, shippingCents, type ShippingSettings } from './shipping';
export {
  MAX_CART_LINES,
  MAX_LINE_QUANTITY,
  type CartLine,
  type CartReply,
  type PricedCart,
  type PricedLine,
} from './types';
