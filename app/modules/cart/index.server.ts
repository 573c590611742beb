export { CART_COOKIE, cartCookieHeader, readCart } from './cookie.server';
export { countUnits, priceCart, priceRequestCart } from './pricing.server';
export { updateCart } from './update.server';
