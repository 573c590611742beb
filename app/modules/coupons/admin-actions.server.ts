import { z } from 'zod';

import { COUPON_FORM_MESSAGES, couponFormSchema, couponRowSchema } from './coupon-form';

/**
 * What the coupons screen posts: add, edit, activate, deactivate or delete one coupon. Only the
 * server reads it (the dialog checks its form with couponFormSchema), so it stays out of bundles.
 */
export const couponActionSchema = z.discriminatedUnion(
  'intent',
  [couponFormSchema, couponRowSchema],
  { error: COUPON_FORM_MESSAGES.invalid },
);
