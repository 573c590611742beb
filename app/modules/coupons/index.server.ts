export {
  couponUsePart,
  findUsableCoupon,
  releaseCouponUse,
  type CouponCheck,
  type ShopperCoupon,
} from './coupons.server';
export {
  COUPON_PARAM,
  couponCookieHeader,
  couponLinkCookieHeader,
  readCouponCookie,
} from './cookie.server';
