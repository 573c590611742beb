import { z } from 'zod';

import {
  CONNECTION_FIELDS,
  PAYMENT_PROVIDER_CHOICES,
  SECRET_CONNECTION_FIELDS,
  type ConnectionField,
} from './connections';

/** The texts of /admin/payments' form, in one place for the screen, the server and the tests. */
export const CONNECTIONS_MESSAGES = {
  notSaved: 'Erro ao salvar as conexões',
  saved: 'Conexões salvas com sucesso!',
  invalid: 'Envie os dados pelo formulário de pagamentos.',
  provider: 'Escolha um provedor de pagamento da lista.',
  secretShape: 'Cole o valor sem espaços nem quebras de linha.',
  secretTooLong: 'Valor longo demais: confira se colou só o token.',
  gatewayUrl: 'Informe o endereço do gateway, começando com https:// (ou http://).',
  smtpUrl: 'Informe o servidor de e-mail como smtp://usuario:senha@servidor:587 ou smtps://…',
  smtpFrom: 'Informe o e-mail remetente, como vendas@sualoja.com.br.',
  noKey:
    'Para guardar senhas e tokens aqui, o servidor precisa da variável SECRETS_KEY (a mesma em ' +
    'todas as instâncias): peça a quem instalou a loja para defini-la.',
  fromEnv: 'Definido no servidor: altere a variável de ambiente para trocá-lo.',
  mercadoPagoToken: 'Digite o token de acesso do Mercado Pago.',
  mercadoPagoSecret: 'Digite a assinatura secreta dos webhooks do Mercado Pago.',
  gatewayMissing: 'Informe o endereço e a chave secreta do gateway.',
} as const;

const MAX_SECRET_LENGTH = 4_000;

/** A token or key pasted in: blank keeps what is stored. */
const secretField = z
  .string({ error: CONNECTIONS_MESSAGES.invalid })
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .max(MAX_SECRET_LENGTH, CONNECTIONS_MESSAGES.secretTooLong)
      .regex(/^\S*$/, CONNECTIONS_MESSAGES.secretShape),
  )
  .optional();

const optionalText = (check: (value: string) => boolean, message: string, max = 500) =>
  z
    .string({ error: CONNECTIONS_MESSAGES.invalid })
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .max(max, message)
        .refine((value) => value === '' || check(value), message),
    )
    .optional();

const isHttpUrl = (value: string) =>
  URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

const secretFields = Object.fromEntries(
  SECRET_CONNECTION_FIELDS.map((name) => [name, secretField]),
) as Record<(typeof SECRET_CONNECTION_FIELDS)[number], typeof secretField>;

/**
 * What /admin/payments posts: 'save' the fields (a blank secret keeps the stored one; 'remove'
 * names one to forget), or 'test-email', a message through the e-mail sending in force to the
 * admin asking.
 */
export const connectionsFormSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('save'),
      payment_provider: z
        .enum(['', ...PAYMENT_PROVIDER_CHOICES], { error: CONNECTIONS_MESSAGES.provider })
        .optional(),
      gateway_url: optionalText(isHttpUrl, CONNECTIONS_MESSAGES.gatewayUrl),
      smtp_from: optionalText(
        (value) => z.email().safeParse(value).success,
        CONNECTIONS_MESSAGES.smtpFrom,
        254,
      ),
      ...secretFields,
      smtp_url: secretField.refine(
        (value) => !value || /^smtps?:\/\/\S+$/.test(value),
        CONNECTIONS_MESSAGES.smtpUrl,
      ),
      remove: z
        .enum(CONNECTION_FIELDS as [ConnectionField, ...ConnectionField[]], {
          error: CONNECTIONS_MESSAGES.invalid,
        })
        .optional(),
    }),
    z.object({ intent: z.literal('test-email') }),
  ],
  { error: CONNECTIONS_MESSAGES.invalid },
);

export type ConnectionsForm = z.output<typeof connectionsFormSchema>;
export type ConnectionsSaveForm = Extract<ConnectionsForm, { intent: 'save' }>;

/** The form's fields sent back into a refused form: never a secret. */
export function echoableValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([name]) => !(SECRET_CONNECTION_FIELDS as readonly string[]).includes(name),
    ),
  );
}
