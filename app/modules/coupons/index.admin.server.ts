// The admin's server door: the coupon list, its changes and its CSV (ADR 021).
export {
  createCoupon,
  deleteCoupon,
  deleteCouponRows,
  forgetCouponTargets,
  listAdminCoupons,
  listAllCoupons,
  putCoupon,
  setCouponActive,
  updateCoupon,
  type CouponChange,
  type CouponRecord,
} from './admin-coupons.server';
export { couponActionSchema } from './admin-actions.server';
export { couponsCsv } from './coupon-csv.server';
export { couponListRow } from './coupon-rows.server';
