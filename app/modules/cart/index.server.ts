export { CART_COOKIE, cartCookieHeader, readCart } from './cookie.server';
export { countUnits, priceCart, priceRequestCart, type PricingSettings } from './pricing.server';
export { updateCart } from './update.server';
