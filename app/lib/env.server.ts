import { isIP } from 'node:net';

import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const milliseconds = (fallback: number, min = 0) =>
  z.coerce.number().int().min(min).default(fallback);

/** A comma-separated list; blanks between commas are ignored. */
function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

// What Express's `trust proxy` takes by name, besides addresses and subnets.
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (isIP(prefix) === 4) return true; // a netmask such as 255.255.255.0
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Like Express's `trust proxy`: true or false, a number of hops, or the addresses, subnets and
 * names (loopback, linklocal, uniquelocal) of the proxies whose X-Forwarded-* headers count.
 */
const trustProxy = z.string().transform((value, context): boolean | number | string[] => {
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = splitList(text);
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (entries.length === 0 || bad.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `use true, false, um número de saltos, ou endereços, sub-redes e os nomes loopback, linklocal, uniquelocal (não: ${bad.join(', ') || 'vazio'})`,
    });
    return z.NEVER;
  }
  return entries;
});

// A host name, an IPv4 or IPv6 address, a ".domain" for it and its subdomains, or "*".
const HOST_PATTERN =
  /^(\*|\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|[0-9a-f:.]+)$/;

const allowedHosts = z
  .string()
  .transform(splitList)
  .pipe(
    z
      .array(
        z
          .string()
          .transform((host) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1'))
          .refine((host) => HOST_PATTERN.test(host), {
            error: 'liste nomes de host sem esquema nem porta, como loja.com.br,.loja.com.br',
          }),
      )
      .min(1, { error: 'liste pelo menos um nome de host' }),
  );

/** An address such as the store's: the origin of an http(s) URL with no path. */
const originUrl = (what: string, example: string) =>
  z
    .string()
    .trim()
    .transform((value, context) => {
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        // reported below
      }
      if (
        !url ||
        !/^https?:$/.test(url.protocol) ||
        url.pathname !== '/' ||
        url.search ||
        url.hash
      ) {
        context.addIssue({
          code: 'custom',
          message: `use ${what}, com http:// ou https:// e sem caminho, como ${example}`,
        });
        return z.NEVER;
      }
      return url.origin;
    });

const httpUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: 'use um endereço http:// ou https://',
  })
  .transform((value) => value.replace(/\/+$/, ''));

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, 'use um endereço postgres:// ou postgresql://');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: postgresUrl.optional(),
    // A streaming replica of DATABASE_URL's server for the storefront's anonymous reads (ADR 033).
    DATABASE_REPLICA_URL: postgresUrl.optional(),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    // Copies of the server on the same port, one per core the machine gives it (ADR 051): with
    // PostgreSQL only, as the embedded database opens in one process.
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
    // Backups (ADR 030): the folder (default DATA_DIR/backups); with the embedded database, one
    // every so many hours (0: none; at most a week, as timers go) keeping the newest BACKUP_KEEP.
    BACKUP_DIR: z.string().min(1).optional(),
    BACKUP_INTERVAL_HOURS: z.coerce.number().min(0).max(168).default(0),
    BACKUP_KEEP: z.coerce.number().int().min(1).default(7),
    SEED: booleanFlag.default(true),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    SHUTDOWN_TIMEOUT_MS: milliseconds(10_000),
    SHUTDOWN_DELAY_MS: milliseconds(0),
    PUBLIC_URL: originUrl('o endereço da loja', 'https://loja.com.br').optional(),
    // The admin on an origin of its own, apart from the storefront's third-party tags (ADR 019).
    ADMIN_URL: originUrl('o endereço do painel', 'https://admin.loja.com.br').optional(),
    ALLOWED_HOSTS: allowedHosts.optional(),
    TRUST_PROXY: trustProxy.default(['loopback']),
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(100 * 1024 * 1024)
      .default(256 * 1024),
    // The admin's product forms and CSV import (signed-in admins only): 10 images of 8 MB fit.
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .min(1024 * 1024)
      .max(1024 * 1024 * 1024)
      .default(90 * 1024 * 1024),
    HEADERS_TIMEOUT_MS: milliseconds(10_000, 1_000),
    REQUEST_TIMEOUT_MS: milliseconds(30_000, 1_000),
    KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000),
    MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1_000),

    // Seals the secrets staff type at /admin/payments (ADR 038): 32 random bytes in base64. With
    // the embedded database a key is made in DATA_DIR when unset; PostgreSQL's instances share it.
    SECRETS_KEY: z
      .string()
      .trim()
      .refine(
        (value) =>
          /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
        {
          error: 'use 32 bytes aleatórios em base64, como a saída de openssl rand -base64 32',
        },
      )
      .optional(),
    // Payments: sandbox is the default outside production; production must choose. This and the
    // credentials below can also be typed at /admin/payments; set here, they win.

    PAYMENT_PROVIDER: z.enum(['sandbox', 'pix', 'pix-api', 'gateway', 'mercadopago']).optional(),
    PAYMENT_GATEWAY_URL: httpUrl.optional(),
    PAYMENT_GATEWAY_SECRET_KEY: z.string().min(1).optional(),
    // Mercado Pago (PAYMENT_PROVIDER=mercadopago): the account's access token, its public key
    // (shown to no one today: the hosted checkout needs none), and the secret its notifications
    // are signed with ('Suas integrações > Webhooks').
    MERCADOPAGO_ACCESS_TOKEN: z.string().min(1).optional(),
    MERCADOPAGO_PUBLIC_KEY: z.string().min(1).optional(),
    MERCADOPAGO_WEBHOOK_SECRET: z.string().min(1).optional(),
    MERCADOPAGO_API_URL: httpUrl.default('https://api.mercadopago.com'),
    // PIX through the store's own bank, its API Pix (PAYMENT_PROVIDER=pix-api): the API's base
    // URL, its OAuth2 token endpoint, the client's id and secret, and the client certificate for
    // mutual TLS: PEM files (PIX_API_CERT and PIX_API_KEY) or one PKCS#12 file (PIX_API_CERT
    // with PIX_API_CERT_PASSWORD), with the bank's CA in PIX_API_CA when it is not a public one.
    PIX_API_URL: httpUrl.optional(),
    PIX_API_TOKEN_URL: httpUrl.optional(),
    PIX_API_CLIENT_ID: z.string().min(1).optional(),
    PIX_API_CLIENT_SECRET: z.string().min(1).optional(),
    PIX_API_CERT: z.string().min(1).optional(),
    PIX_API_KEY: z.string().min(1).optional(),
    PIX_API_CERT_PASSWORD: z.string().min(1).optional(),
    PIX_API_CA: z.string().min(1).optional(),
    // How often an instance lists the PIX received, so a lost webhook leaves no paid order pending.
    PIX_API_RECONCILE_SECONDS: z.coerce.number().int().min(1).max(3600).default(180),
    // How often an instance cancels the unpaid orders past their deadline, and looks for abandoned
    // checkouts due their e-mail (whose delay is set in minutes). Shorter rounds only cost queries;
    // the tests of several instances shorten them rather than wait.
    ORDER_EXPIRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    RECOVERY_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    // Carrier shipping: off by default (the store's own rule prices shipping). Melhor Envio quotes
    // Correios and private carriers in one call and sells their labels from the account's balance;
    // it refuses calls without a User-Agent naming the application and a contact e-mail.
    SHIPPING_PROVIDER: z.enum(['melhorenvio']).optional(),
    MELHOR_ENVIO_TOKEN: z.string().min(1).optional(),
    MELHOR_ENVIO_API_URL: httpUrl.default('https://melhorenvio.com.br/api/v2'),
    MELHOR_ENVIO_USER_AGENT: z.string().min(1).max(200).optional(),
    // The application's client secret at Melhor Envio, which signs its tracking notifications;
    // without it /api/shipping/melhorenvio refuses them and the periodic check alone follows
    // deliveries.
    MELHOR_ENVIO_WEBHOOK_SECRET: z.string().min(1).optional(),
    // Notas fiscais through the merchant's ERP (Bling): the OAuth application's client id and
    // secret (also typed at /admin/integrations; set here, they win), and the API's address, under
    // which its OAuth endpoints also sit (tests point it at a fake).
    BLING_CLIENT_ID: z.string().min(1).max(200).optional(),
    BLING_CLIENT_SECRET: z.string().min(1).optional(),
    BLING_API_URL: httpUrl.default('https://api.bling.com.br/Api/v3'),
    // Sales tracking (UTMify's format); off without a token.
    UTMIFY_API_TOKEN: z.string().min(1).optional(),
    UTMIFY_API_URL: httpUrl.default('https://api.utmify.com.br/api-credentials/orders'),
    // E-mail: SMTP when set (smtp://user:pass@host:587 or smtps://…), else .eml files in DATA_DIR/mail.
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'use um endereço smtp:// ou smtps://')
      .optional(),
    SMTP_FROM: z.email().optional(),
    // Address look-up by CEP, ViaCEP's format: {base}/{cep}/json/.
    CEP_SERVICE_URL: httpUrl.default('https://viacep.com.br/ws'),
    // Checkout submissions per IP address per minute.
    CHECKOUT_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
    // The full-page cache of anonymous storefront pages: its size in bytes (0 turns it off) and
    // how long an entry may live even when no change notification drops it.
    PAGE_CACHE_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(16 * 1024 * 1024 * 1024)
      .default(64 * 1024 * 1024),
    PAGE_CACHE_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60 * 60)
      .default(300),
    // /metrics (Prometheus's format) answers only a scraper sending this as its bearer token;
    // unset, there is no /metrics. Long enough not to be guessed.
    METRICS_TOKEN: z.string().min(16, 'use pelo menos 16 caracteres').optional(),
  })
  .refine((env) => env.HEADERS_TIMEOUT_MS <= env.REQUEST_TIMEOUT_MS, {
    path: ['HEADERS_TIMEOUT_MS'],
    error: 'não pode ser maior que REQUEST_TIMEOUT_MS',
  })
  .refine((env) => env.WEB_CONCURRENCY === 1 || env.DATABASE_URL !== undefined, {
    path: ['WEB_CONCURRENCY'],
    error:
      'acima de 1 precisa de DATABASE_URL: o banco embutido abre em um só processo (use 1, ou PostgreSQL)',
  })
  // The embedded database has no replica: without DATABASE_URL a replica would go unused.
  .refine((env) => env.DATABASE_REPLICA_URL === undefined || env.DATABASE_URL !== undefined, {
    path: ['DATABASE_REPLICA_URL'],
    error:
      'precisa de DATABASE_URL, o banco principal que ela replica (o banco embutido não tem réplica)',
  })
  .refine(
    (env) =>
      env.ADMIN_URL === undefined ||
      (env.PUBLIC_URL !== undefined &&
        new URL(env.ADMIN_URL).hostname !== new URL(env.PUBLIC_URL).hostname),
    {
      path: ['ADMIN_URL'],
      error:
        'precisa de PUBLIC_URL, em outro nome de host (como PUBLIC_URL=https://loja.com.br e ADMIN_URL=https://admin.loja.com.br)',
    },
  )
  .refine(
    (env) =>
      env.PAYMENT_PROVIDER !== 'gateway' ||
      (env.PAYMENT_GATEWAY_URL !== undefined && env.PAYMENT_GATEWAY_SECRET_KEY !== undefined),
    {
      path: ['PAYMENT_PROVIDER'],
      error: 'gateway precisa de PAYMENT_GATEWAY_URL e PAYMENT_GATEWAY_SECRET_KEY',
    },
  )
  .refine(
    (env) =>
      env.PAYMENT_PROVIDER !== 'mercadopago' ||
      (env.MERCADOPAGO_ACCESS_TOKEN !== undefined && env.MERCADOPAGO_WEBHOOK_SECRET !== undefined),
    {
      path: ['PAYMENT_PROVIDER'],
      error: 'mercadopago precisa de MERCADOPAGO_ACCESS_TOKEN e MERCADOPAGO_WEBHOOK_SECRET',
    },
  )
  .refine(
    (env) =>
      env.PAYMENT_PROVIDER !== 'pix-api' ||
      (env.PIX_API_URL !== undefined &&
        env.PIX_API_TOKEN_URL !== undefined &&
        env.PIX_API_CLIENT_ID !== undefined &&
        env.PIX_API_CLIENT_SECRET !== undefined &&
        env.PIX_API_CERT !== undefined),
    {
      path: ['PAYMENT_PROVIDER'],
      error:
        'pix-api precisa de PIX_API_URL, PIX_API_TOKEN_URL, PIX_API_CLIENT_ID, ' +
        'PIX_API_CLIENT_SECRET e PIX_API_CERT (com PIX_API_KEY, ou PIX_API_CERT_PASSWORD se for PKCS#12)',
    },
  )
  .refine(
    (env) => env.SHIPPING_PROVIDER !== 'melhorenvio' || env.MELHOR_ENVIO_TOKEN !== undefined,
    {
      path: ['SHIPPING_PROVIDER'],
      error: 'melhorenvio precisa de MELHOR_ENVIO_TOKEN',
    },
  )
  // The gateway's postbacks (and Mercado Pago's notifications and return) go to PUBLIC_URL: an
  // address taken from a request's Host could be the attacker's, when ALLOWED_HOSTS lets any
  // host in.
  .refine(
    (env) =>
      (env.PAYMENT_PROVIDER !== 'gateway' &&
        env.PAYMENT_PROVIDER !== 'mercadopago' &&
        env.PAYMENT_PROVIDER !== 'pix-api') ||
      env.PUBLIC_URL !== undefined,
    {
      path: ['PUBLIC_URL'],
      error:
        'gateway, mercadopago e pix-api precisam de PUBLIC_URL, o endereço para onde vão os avisos deles',
    },
  );

export type Env = z.infer<typeof envSchema>;

/** A configuration the store cannot start with: every wrong variable, in one message. */
export class EnvError extends Error {
  override name = 'EnvError';
}

/** Reads the configuration from an environment; throws one readable error listing every bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  // The built-in messages (a number, one of a list) in Portuguese too, as every message a
  // merchant starting the store reads.
  const result = envSchema.safeParse(present, { error: z.locales.pt().localeError });
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Configuração do ambiente inválida:\n${lines.join('\n')}`);
  }
  return result.data;
}
