// What staff connect in the admin (/admin/payments): the names below are a contract (the form's
// fields, the table's rows, the documentation), each with the environment variable that, when
// set, wins over what the admin stored.

/** The providers staff may choose; none (an empty choice) leaves the sandbox to a demo store. */
export const PAYMENT_PROVIDER_CHOICES = ['mercadopago', 'pix-api', 'pix', 'gateway'] as const;
export type PaymentProviderChoice = (typeof PAYMENT_PROVIDER_CHOICES)[number];

/** Fields whose value is shown and kept as typed. */
export const PLAIN_CONNECTION_FIELDS = [
  'payment_provider',
  'gateway_url',
  'smtp_from',
  'pix_api_url',
  'pix_api_token_url',
  'pix_api_client_id',
  'bling_client_id',
] as const;
/** Fields stored sealed (ADR 038): never shown again, only replaced or removed. */
export const SECRET_CONNECTION_FIELDS = [
  'mercadopago_access_token',
  'mercadopago_webhook_secret',
  'gateway_secret_key',
  'smtp_url',
  'melhor_envio_token',
  'melhor_envio_webhook_secret',
  'pix_api_client_secret',
  // The bank's client certificate as uploaded: PEM (certificate and key) or PKCS#12, in base64.
  'pix_api_certificate',
  'pix_api_certificate_password',
  'bling_client_secret',
] as const;

export type PlainConnectionField = (typeof PLAIN_CONNECTION_FIELDS)[number];
export type SecretConnectionField = (typeof SECRET_CONNECTION_FIELDS)[number];
export type ConnectionField = PlainConnectionField | SecretConnectionField;

export const CONNECTION_FIELDS: readonly ConnectionField[] = [
  ...PLAIN_CONNECTION_FIELDS,
  ...SECRET_CONNECTION_FIELDS,
];

/** The environment variable that sets each field instead of the admin. */
export const CONNECTION_ENV: Record<ConnectionField, string> = {
  payment_provider: 'PAYMENT_PROVIDER',
  gateway_url: 'PAYMENT_GATEWAY_URL',
  smtp_from: 'SMTP_FROM',
  mercadopago_access_token: 'MERCADOPAGO_ACCESS_TOKEN',
  mercadopago_webhook_secret: 'MERCADOPAGO_WEBHOOK_SECRET',
  gateway_secret_key: 'PAYMENT_GATEWAY_SECRET_KEY',
  smtp_url: 'SMTP_URL',
  melhor_envio_token: 'MELHOR_ENVIO_TOKEN',
  melhor_envio_webhook_secret: 'MELHOR_ENVIO_WEBHOOK_SECRET',
  pix_api_url: 'PIX_API_URL',
  pix_api_token_url: 'PIX_API_TOKEN_URL',
  pix_api_client_id: 'PIX_API_CLIENT_ID',
  pix_api_client_secret: 'PIX_API_CLIENT_SECRET',
  // From the environment these name files (PIX_API_KEY beside the certificate): see pixApiTls.
  pix_api_certificate: 'PIX_API_CERT',
  pix_api_certificate_password: 'PIX_API_CERT_PASSWORD',
  bling_client_id: 'BLING_CLIENT_ID',
  bling_client_secret: 'BLING_CLIENT_SECRET',
};

export function isSecretField(name: string): name is SecretConnectionField {
  return (SECRET_CONNECTION_FIELDS as readonly string[]).includes(name);
}

/**
 * What the admin may know of a field: where its value comes from, never a secret's value.
 * 'unreadable': stored under another secrets key (SECRETS_KEY changed), to be typed again.
 */
export type ConnectionSource = 'env' | 'admin' | 'unreadable' | null;

/** The screen's view of the connections: plain values, and for secrets only where they come from. */
export interface ConnectionsView {
  plain: Record<PlainConnectionField, string>;
  sources: Record<ConnectionField, ConnectionSource>;
  /** Whether secrets can be stored here: false on PostgreSQL without SECRETS_KEY. */
  canStoreSecrets: boolean;
}
