export { cartCookieHeader, readCart } from './cookie.server';
export { cartCount, priceCart, priceRequestCart, type PricingSettings } from './pricing.server';
export { updateCart, type CartUpdate } from './update.server';
