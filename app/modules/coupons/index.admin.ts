// The admin's door: the coupon forms, labels and states (ADR 021).
export {
  COUPON_CODE_MAX,
  COUPON_FORM_REPEATABLE,
  COUPON_KIND_LABELS,
  COUPON_FORM_MESSAGES,
  COUPON_STATE_LABELS,
  couponFormSchema,
  type CouponForm,
  type CouponState,
} from './coupon-form';
export type { CouponFormValues, CouponListRow } from './admin-types';
