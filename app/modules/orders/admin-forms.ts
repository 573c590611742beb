import { z } from 'zod';

import { FORM_MESSAGES } from '~/lib/form';

import { ORDER_STATUSES } from './schema';

// These schemas also run in the browser, where zod is one chunk shared with the storefront's
// checkout: they use only the zod features checkout already loads (z.enum, not z.literal), so the
// admin does not grow what every shopper downloads. Server-only schemas are in
// admin-actions.server.ts.

export const ORDER_FORM_MESSAGES = {
  status: 'Escolha o novo status do pedido.',
  trackingCode: 'Informe o código de rastreio (de 4 a 40 letras ou números).',
  note: 'Escreva a observação.',
  noteLength: 'Use no máximo 1000 caracteres.',
  intent: 'Envie os dados pelo formulário do pedido.',
  labels: 'Selecione ao menos um pedido para gerar etiquetas.',
  labelsMax: 'Selecione no máximo 50 pedidos por vez.',
  invoices: 'Selecione ao menos um pedido para emitir a NF-e.',
} as const;

export const NOTE_MAX_LENGTH = 1000;

const normalizeCode = (value: string) => value.replace(/\s+/g, ' ').trim();

/**
 * A carrier's code: the Correios' AA123456789BR or any other carrier's letters and numbers
 * (spaces, dots, dashes and slashes allowed inside), 4 to 40 characters.
 */
const TRACKING_CODE = /^[\p{L}\p{N}][\p{L}\p{N} ./_-]{2,38}[\p{L}\p{N}]$/u;

/** The status selector: the new status, and the tracking code when it is 'Enviado'. */
export const orderStatusFormSchema = z
  .object({
    intent: z.enum(['status']),
    status: z.enum(ORDER_STATUSES, { error: ORDER_FORM_MESSAGES.status }),
    // Sent by the form whatever the status; only shipping reads it.
    trackingCode: z
      .string({ error: FORM_MESSAGES.invalid })
      .max(200, { error: ORDER_FORM_MESSAGES.trackingCode })
      .overwrite(normalizeCode)
      .optional(),
  })
  .superRefine((form, context) => {
    if (form.status === 'shipped' && !TRACKING_CODE.test(form.trackingCode ?? '')) {
      context.addIssue({
        code: 'custom',
        path: ['trackingCode'],
        message: ORDER_FORM_MESSAGES.trackingCode,
      });
    }
  });

/** A shipped order's tracking code, corrected (a typo, or the carrier gave a new one). */
export const orderTrackingFormSchema = z.object({
  intent: z.enum(['tracking']),
  trackingCode: z
    .string({ error: ORDER_FORM_MESSAGES.trackingCode })
    .max(200, { error: ORDER_FORM_MESSAGES.trackingCode })
    .overwrite(normalizeCode)
    .regex(TRACKING_CODE, { error: ORDER_FORM_MESSAGES.trackingCode }),
});

/** An internal note: staff only, never shown to the shopper. */
export const orderNoteFormSchema = z.object({
  intent: z.enum(['note']),
  note: z
    .string({ error: ORDER_FORM_MESSAGES.note })
    .trim()
    .min(1, { error: ORDER_FORM_MESSAGES.note })
    .max(NOTE_MAX_LENGTH, { error: ORDER_FORM_MESSAGES.noteLength }),
});
