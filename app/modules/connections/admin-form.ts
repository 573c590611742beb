import { z } from 'zod';

import { countOf } from '~/lib/plural';

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
  pixApiUrl: 'Informe o endereço da API Pix do banco, começando com https://.',
  pixApiTokenUrl: 'Informe o endereço de token (OAuth2) do banco, começando com https://.',
  pixApiClientId: 'Cole o Client ID sem espaços.',
  pixApiMissing:
    'Para a API Pix, informe o endereço da API, o endereço de token, o Client ID, o Client ' +
    'Secret e o certificado do banco.',
  pixApiCertificate:
    'Envie o certificado do banco: um arquivo .p12 ou .pfx, ou um .pem com o certificado e a chave.',
  pixApiInactive: 'A API Pix não é o provedor ativo: salve-a como provedor de pagamento antes.',
  pixApiWorks: (charges: number) =>
    `Conexão com a API Pix funcionando: token obtido e ${countOf(charges, 'cobrança', 'cobranças')} na última hora.`,
  pixApiWebhook: (url: string) => `Webhook cadastrado no banco: ${url}`,
  pixApiNoKey: 'Cadastre a chave PIX da loja em Configurações › Avançado antes de usar a API Pix.',
  blingClientId: 'Cole o Client Id do aplicativo do Bling, sem espaços.',
} as const;

const MAX_SECRET_LENGTH = 4_000;
/** A bank's client certificate: a PKCS#12 bundle or PEM is a few kilobytes. */
export const MAX_CERTIFICATE_BYTES = 64 * 1024;

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
      bling_client_id: optionalText(
        (value) => /^\S+$/.test(value),
        CONNECTIONS_MESSAGES.invalid,
        200,
      ),
      ...secretFields,
      pix_api_url: optionalText(isHttpUrl, CONNECTIONS_MESSAGES.pixApiUrl),
      pix_api_token_url: optionalText(isHttpUrl, CONNECTIONS_MESSAGES.pixApiTokenUrl),
      pix_api_client_id: optionalText(
        (value) => /^\S+$/.test(value),
        CONNECTIONS_MESSAGES.pixApiClientId,
        200,
      ),
      // The file uploaded; none chosen comes as an empty file (or nothing), which keeps the stored one.
      pix_api_certificate: z
        .custom<File>((value) => value instanceof File, { error: CONNECTIONS_MESSAGES.invalid })
        .refine(
          (file) => file.size <= MAX_CERTIFICATE_BYTES,
          CONNECTIONS_MESSAGES.pixApiCertificate,
        )
        .optional(),
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
    z.object({ intent: z.literal('pix-api-test') }),
    z.object({ intent: z.literal('pix-api-webhook') }),
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
