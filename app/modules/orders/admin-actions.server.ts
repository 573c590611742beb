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
    z.object({ intent: z.literal('delete') }),
  ],
  { error: ORDER_FORM_MESSAGES.intent },
);

export type OrderAction = z.output<typeof orderActionSchema>;

/** What the list's row action posts: only deleting, by the order's id. */
export const orderListActionSchema = z.object(
  {
    intent: z.literal('delete'),
    id: z.string({ error: FORM_MESSAGES.invalid }).max(100),
  },
  { error: ORDER_FORM_MESSAGES.intent },
);
