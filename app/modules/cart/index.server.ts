export { cartCookieHeader, readCart } from './cookie.server';
export { cartCount, priceCart } from './pricing.server';
export { updateCart, type CartUpdate } from './update.server';
