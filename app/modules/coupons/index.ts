export { COUPON_KINDS, type CouponKind } from './schema';
