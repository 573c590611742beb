import { z } from 'zod/mini';

import { couponCodeSchema } from './code';

/** The cart's coupon intents: apply the code typed in 'Cupom de desconto', or drop the held one. */
export const couponIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('coupon'), couponCode: couponCodeSchema }),
  z.object({ intent: z.literal('coupon-remove') }),
]);

export const COUPON_INTENTS: readonly string[] = ['coupon', 'coupon-remove'];
