export {
  findUsableCoupon,
  releaseCouponUse,
  takeCouponUse,
  type CouponCheck,
  type ShopperCoupon,
} from './coupons.server';
export {
  COUPON_PARAM,
  couponCookieHeader,
  couponLinkCookieHeader,
  readCouponCookie,
} from './cookie.server';
