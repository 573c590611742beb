import { z } from 'zod';

/** The texts of /admin/integrations' form. */
export const INTEGRATIONS_FORM_MESSAGES = {
  invalid: 'Envie os dados pelo formulário de integrações.',
  clientId: 'Cole o Client Id do aplicativo do Bling, sem espaços.',
  clientSecret: 'Cole o Client Secret do aplicativo do Bling, sem espaços.',
} as const;

const pasted = (message: string, max: number) =>
  z
    .string({ error: INTEGRATIONS_FORM_MESSAGES.invalid })
    .transform((value) => value.trim())
    .pipe(z.string().max(max, message).regex(/^\S*$/, message))
    .optional();

/**
 * What /admin/integrations posts: 'save' the application's client id and secret (a blank secret
 * keeps the stored one), or 'remove' one of them.
 */
export const integrationsFormSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('save'),
      bling_client_id: pasted(INTEGRATIONS_FORM_MESSAGES.clientId, 200),
      bling_client_secret: pasted(INTEGRATIONS_FORM_MESSAGES.clientSecret, 4_000),
    }),
    z.object({
      intent: z.literal('remove'),
      remove: z.enum(['bling_client_id', 'bling_client_secret'], {
        error: INTEGRATIONS_FORM_MESSAGES.invalid,
      }),
    }),
  ],
  { error: INTEGRATIONS_FORM_MESSAGES.invalid },
);

export type IntegrationsForm = z.output<typeof integrationsFormSchema>;
