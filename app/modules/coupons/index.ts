export { couponCodeSchema, optionalCouponCodeSchema, readCouponCode } from './code';
export { COUPON_MESSAGES, couponMissText } from './messages';
export { COUPON_KINDS, type CouponKind } from './schema';
export type { HeldCoupon } from './types';
export { COUPON_INTENTS, couponIntentSchema } from './intent';
