import { z } from 'zod';

import { FORM_MESSAGES } from '~/lib/form';

import {
  ORDER_FORM_MESSAGES,
  orderNoteFormSchema,
  orderStatusFormSchema,
  orderTrackingFormSchema,
} from './admin-forms';

/** Everything the order's page posts, told apart by `intent`. */
export const orderActionSchema = z.discriminatedUnion(
  'intent',
  [
    orderStatusFormSchema,
    orderTrackingFormSchema,
    orderNoteFormSchema,
    z.object({ intent: z.literal('mark-paid') }),
    z.object({ intent: z.literal('refund') }),
    z.object({ intent: z.literal('delete') }),
  ],
  { error: ORDER_FORM_MESSAGES.intent },
);

export type OrderAction = z.output<typeof orderActionSchema>;

const listedOrderId = z.string({ error: FORM_MESSAGES.invalid }).max(100);

/** What the list's row actions post, by the order's id: deleting it, or cancelling it. */
export const orderListActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('delete'), id: listedOrderId }),
    z.object({ intent: z.literal('cancel'), id: listedOrderId }),
  ],
  { error: ORDER_FORM_MESSAGES.intent },
);

export type OrderListAction = z.output<typeof orderListActionSchema>;
