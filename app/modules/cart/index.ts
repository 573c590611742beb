export { cartIntentSchema, type CartIntent } from './intent';
export { installmentOffer, pixDiscountCents, type InstallmentOffer } from './offers';
export { freeShippingFromCents, shippingCents, type ShippingSettings } from './shipping';
export {
  MAX_CART_LINES,
  type CartLine,
  type CartReply,
  type PricedCart,
  type PricedLine,
} from './types';
