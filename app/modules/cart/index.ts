export { cartIntentSchema, type CartIntent } from './intent';
export {
  MAX_CART_LINES,
  type CartLine,
  type CartReply,
  type PricedCart,
  type PricedLine,
} from './types';
