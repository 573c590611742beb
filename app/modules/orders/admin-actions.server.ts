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
    z.object({ intent: z.literal('label') }),
    z.object({ intent: z.literal('delete') }),
    // The ERP (Bling): 'Enviar ao Bling', 'Emitir NF-e' and 'Tentar de novo' on a rejected note.
    z.object({ intent: z.literal('erp-send') }),
    z.object({ intent: z.literal('invoice') }),
    z.object({ intent: z.literal('invoice-retry') }),
  ],
  { error: ORDER_FORM_MESSAGES.intent },
);

export type OrderAction = z.output<typeof orderActionSchema>;

const listedOrderId = z.string({ error: FORM_MESSAGES.invalid }).max(100);

/** The most orders 'Gerar etiquetas' takes at once: a page of the list. */
export const MAX_LABELS_AT_ONCE = 50;

/**
 * What the list posts: a row's action by the order's id (deleting it, or cancelling it), or
 * 'Gerar etiquetas' or 'Emitir NF-e' for the orders ticked (`ids`, read as repeatable).
 */
export const orderListActionSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('delete'), id: listedOrderId }),
    z.object({ intent: z.literal('cancel'), id: listedOrderId }),
    z.object({
      intent: z.literal('labels'),
      ids: z
        .array(listedOrderId, { error: ORDER_FORM_MESSAGES.labels })
        .min(1, { error: ORDER_FORM_MESSAGES.labels })
        .max(MAX_LABELS_AT_ONCE, { error: ORDER_FORM_MESSAGES.labelsMax }),
    }),
    // 'Emitir NF-e' (through the ERP) for the orders ticked.
    z.object({
      intent: z.literal('invoices'),
      ids: z
        .array(listedOrderId, { error: ORDER_FORM_MESSAGES.invoices })
        .min(1, { error: ORDER_FORM_MESSAGES.invoices })
        .max(MAX_LABELS_AT_ONCE, { error: ORDER_FORM_MESSAGES.labelsMax }),
    }),
  ],
  { error: ORDER_FORM_MESSAGES.intent },
);

export type OrderListAction = z.output<typeof orderListActionSchema>;
