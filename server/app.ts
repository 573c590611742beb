import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';

import compression from 'compression';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';

import { startServerBackups } from '~/db/backup.server';
import { createChangeFeed, type ChangeFeed } from '~/db/changes.server';
import { databaseOptionsFromEnv, openDatabase, type Database, type Db } from '~/db/database.server';
import { openReadReplica, type ReadReplica } from '~/db/read-replica.server';
import { startBackgroundJobs } from '~/flows/background-jobs.server';
import type { ErpAccess } from '~/flows/erp-orders.server';
import { currentMailSending } from '~/flows/mail-sending.server';
import { initializeStore } from '~/flows/seed-sample-store.server';
import { storeReadiness } from '~/flows/store-readiness.server';
import { isAdminPath } from '~/lib/admin-path';
import type { Env } from '~/lib/env.server';
import { logger, redactUrl, requestLogLevel } from '~/lib/logger.server';
import { makePrivate } from '~/lib/private-folder.server';
import {
  findSignedInAdmin,
  issueSetupCode,
  logSetupCode,
  type SignedInAdmin,
} from '~/modules/auth/index.server';
import {
  createConnectionsStore,
  loadSecretsKey,
  warnOfUnreadableSecrets,
  type Connections,
  type ConnectionsStore,
  secretsVault,
  type SecretsKey,
} from '~/modules/connections/index.server';
import { createBling } from '~/modules/erp/index.server';
import type { OrderEventOptions } from '~/modules/orders/index.server';
import type { PaymentProvider } from '~/modules/payments';
import type { SecretsSet } from '~/modules/payments/index.server';
import {
  createPaymentProvider,
  databaseTokens,
  liveSandboxError,
  mercadoPagoCheckoutOrigins,
  pixApiTlsFromFiles,
  pixApiTlsFromUpload,
  processTokens,
  type PixApiTls,
} from '~/modules/payments/index.server';
import type { StoreMode } from '~/modules/settings';
import {
  createSettingsStore,
  readStoreMode,
  type SettingsStore,
} from '~/modules/settings/index.server';
import {
  createCarrierLabels,
  createCarrierQuoter,
  type MelhorEnvioLabels,
  type ShippingQuoter,
} from '~/modules/shipping/index.server';

import { errorPage } from './error-page';
import { createMetrics } from './metrics';
import { createPageCache } from './page-cache';
import { reactRouterHandler } from './react-router-handler';
import { createRequestGuard, isUploadRequest, requestOrigins, routePath } from './request-guard';

export { parseEnv } from '~/lib/env.server';
export { logger } from '~/lib/logger.server';
export { PUBLIC_FILES_VERSION } from '~/lib/public-files';

const HEALTH_TIMEOUT_MS = 2_000;
/** An uploaded image's file (app/routes/media.ts): a WebP or a plain-text 404, never a page. */
const MEDIA_FILE = /^\/media\/[^/]+$/;
/**
 * An SVG opened on its own is a document, and its scripts would run (as an <img> it runs none):
 * it may draw with its own styles, and nothing else.
 */
const SVG_FILE = /\.svg$/i;
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

/** The browser's files: build/client in production, Vite's middleware in development. */
export interface StaticFiles {
  handler: RequestHandler;
  /** Whether a GET of this path is answered with a file (or a plain-text 404), never a page. */
  serves(path: string): boolean;
}

export interface RunningApp {
  handler: express.Express;
  /** From now on /healthz answers 503, so a load balancer stops sending traffic. */
  beginShutdown(): void;
  close(): Promise<void>;
}

/** Opens and migrates the database, prepares the store, and returns the request handler. */
export async function startApp(env: Env, assets: StaticFiles): Promise<RunningApp> {
  logger.level = env.LOG_LEVEL;
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    logger.warn(
      'PUBLIC_URL não está definida: os links das páginas, do sitemap e dos e-mails usam o ' +
        'canonical_url das configurações ou, sem ele, o host do pedido (só hosts em ' +
        'ALLOWED_HOSTS). Defina PUBLIC_URL com o endereço da loja, como https://loja.com.br.',
    );
  }
  // DATA_DIR holds shoppers' data (the embedded database, e-mails, backups): closed to other
  // users on every start, a folder an earlier version or a copy left open included. With
  // PostgreSQL it may not exist, and is not made for nothing.
  const databaseOptions = databaseOptionsFromEnv(env);
  if ('dataDir' in databaseOptions || existsSync(env.DATA_DIR)) await makePrivate(env.DATA_DIR);
  const database = await openDatabase(databaseOptions);
  let replica: ReadReplica | undefined;
  let connections: ConnectionsStore | undefined;
  try {
    await database.migrate();
    const state = await initializeStore(database.db, { seed: env.SEED });
    logger.info(
      { database: database.kind, store: state },
      state === 'seeded'
        ? 'Banco de dados pronto; catálogo de exemplo criado'
        : 'Banco de dados pronto',
    );
    // The mode is the database's (ADR 018): known only now, after seeding.
    const mode = await readStoreMode(database.db);
    const refused = liveSandboxError(env, mode);
    if (refused) throw new Error(refused);
    const setupCode = await issueSetupCode(database.db);
    if (setupCode) {
      const origin =
        env.ADMIN_URL ?? env.PUBLIC_URL ?? (env.PORT ? `http://localhost:${env.PORT}` : '');
      logSetupCode(setupCode, `${origin}/admin/login`);
    }
    const changes = await createChangeFeed(database);
    // The storefront's anonymous reads, on the replica whenever it has caught up (ADR 033).
    if (env.DATABASE_REPLICA_URL && database.pool) {
      replica = openReadReplica({
        url: env.DATABASE_REPLICA_URL,
        primary: database.pool,
        changes,
        poolMax: env.DATABASE_POOL_MAX,
      });
      logger.info('Read replica configured: storefront pages read from it once it has caught up');
    }
    const settings = createSettingsStore(database.db, changes);
    const secretsKey = await loadSecretsKey({
      secretsKey: env.SECRETS_KEY,
      embeddedDataDir: database.kind === 'pglite' ? env.DATA_DIR : undefined,
    });
    connections = createConnectionsStore({ db: database.db, changes, env, key: secretsKey });
    await warnOfUnreadableSecrets(connections);
    const payments = paymentProviders(env, database.db, settings, connections, secretsKey);
    const orderEvents: OrderEventOptions = { tracking: env.UTMIFY_API_TOKEN !== undefined };
    const carrier = carrierShipping(env, settings, connections);
    const erp = erpAccess(env, connections, secretsKey);
    await logReadiness(database.db, { mode, settings, connections, payments, carrier, env });
    const jobs = startBackgroundJobs({
      env,
      db: database.db,
      settings,
      payments,
      orderEvents,
      mailSending: currentMailSending(connections),
      shippingLabels: carrier.shippingLabels,
      erp,
    });
    const backups = startServerBackups(database, env);
    let shuttingDown = false;
    const handler = buildHandler({
      env,
      database,
      readDb: replica?.db ?? database.db,
      settings,
      changes,
      connections,
      payments,
      carrier,
      erp,
      // The storefront's forms may lead to a provider's own checkout (its redirect is checked
      // against form-action too). Staff may switch to Mercado Pago at any time, on any instance:
      // its sites are allowed whichever provider runs now (the others redirect to no other site).
      checkoutOrigins: mercadoPagoCheckoutOrigins(env.MERCADOPAGO_API_URL),
      orderEvents,
      assets,
      isShuttingDown: () => shuttingDown,
    });
    return {
      handler,
      beginShutdown: () => {
        shuttingDown = true;
      },
      async close() {
        await jobs.stop();
        await backups.stop();
        await replica?.close();
        await changes.close();
        await connections?.close();
        await settings.close();
        await database.close();
      },
    };
  } catch (error) {
    await connections?.close();
    await replica?.close();
    await database.close();
    throw error;
  }
}

/**
 * The payment provider for the store's mode and connections now, built again only when either
 * changes: a demo made live, or a provider typed at /admin/payments, on any instance, is heard
 * through the database's notifications and used by the next request of every instance.
 */
function paymentProviders(
  env: Env,
  db: Db,
  settings: SettingsStore,
  connections: ConnectionsStore,
  secretsKey: SecretsKey | null,
): () => Promise<PaymentProvider | null> {
  const built = new WeakMap<Connections, Partial<Record<StoreMode, PaymentProvider | null>>>();
  // One token for the whole store: every instance, and every provider built again for the same
  // bank and client, reads it; another bank or client id never gets this one's token.
  const tokensOf = (values: Connections['values']) => {
    if (!secretsKey) return processTokens();
    const client = createHash('sha256')
      .update(`${values.pix_api_token_url ?? ''} ${values.pix_api_client_id ?? ''}`)
      .digest('hex')
      .slice(0, 16);
    const name = `pix-api:${client}`;
    const vault = secretsVault(secretsKey);
    return databaseTokens(db, name, {
      seal: (value) => vault.seal(`provider_token:${name}`, value),
      open: (sealed) => vault.open(`provider_token:${name}`, sealed),
    });
  };
  return async () => {
    const [current, mode] = await Promise.all([connections.get(), settings.mode()]);
    let byMode = built.get(current);
    if (!byMode) built.set(current, (byMode = {}));
    if (!(mode in byMode)) {
      const { values } = current;
      const tls = values.payment_provider === 'pix-api' ? await pixApiTls(env, current) : null;
      byMode[mode] = createPaymentProvider({
        env: {
          ...env,
          PAYMENT_PROVIDER: values.payment_provider as Env['PAYMENT_PROVIDER'],
          PAYMENT_GATEWAY_URL: values.gateway_url,
          PAYMENT_GATEWAY_SECRET_KEY: values.gateway_secret_key,
          MERCADOPAGO_ACCESS_TOKEN: values.mercadopago_access_token,
          MERCADOPAGO_WEBHOOK_SECRET: values.mercadopago_webhook_secret,
          PIX_API_URL: values.pix_api_url,
          PIX_API_TOKEN_URL: values.pix_api_token_url,
          PIX_API_CLIENT_ID: values.pix_api_client_id,
          PIX_API_CLIENT_SECRET: values.pix_api_client_secret,
        },
        pixApi: tls ? { tls, tokens: tokensOf(values) } : undefined,
        db,
        settings: () => settings.get(),
        mode,
      });
    }
    return byMode[mode]!;
  };
}

/**
 * The API Pix's client certificate: files the environment names, or the one uploaded at
 * /admin/payments. Null (no provider) when there is none or it cannot be read: said in the log,
 * never its content.
 */
async function pixApiTls(env: Env, connections: Connections): Promise<PixApiTls | null> {
  const { values, sources } = connections;
  const certificate = values.pix_api_certificate;
  if (!certificate) return null;
  try {
    if (sources.pix_api_certificate === 'env') {
      return await pixApiTlsFromFiles({
        cert: certificate,
        key: env.PIX_API_KEY,
        password: values.pix_api_certificate_password,
        ca: env.PIX_API_CA,
      });
    }
    return pixApiTlsFromUpload(certificate, values.pix_api_certificate_password);
  } catch (error) {
    logger.error(
      { code: (error as NodeJS.ErrnoException).code },
      'API Pix: the client certificate could not be read (PIX_API_CERT, PIX_API_KEY, PIX_API_CA)',
    );
    return null;
  }
}

/**
 * The ERP (Bling) as the connections say now: its application's client id and secret, typed at
 * /admin/integrations or set in the environment, and the secrets key its tokens are sealed
 * under; null while any is missing. Built again only when the connections change.
 */
function erpAccess(
  env: Env,
  connections: ConnectionsStore,
  key: SecretsKey | null,
): () => Promise<ErpAccess | null> {
  const built = new WeakMap<Connections, ErpAccess | null>();
  return async () => {
    const now = await connections.get();
    if (!built.has(now)) {
      const clientId = now.values.bling_client_id;
      const clientSecret = now.values.bling_client_secret;
      built.set(
        now,
        key && clientId && clientSecret
          ? {
              erp: createBling({ apiUrl: env.BLING_API_URL, clientId, clientSecret }),
              vault: secretsVault(key),
            }
          : null,
      );
    }
    return built.get(now)!;
  };
}

interface CarrierShipping {
  shipping(): Promise<ShippingQuoter | null>;
  shippingLabels(): Promise<MelhorEnvioLabels | null>;
  melhorEnvioWebhookSecret(): Promise<string | null>;
}

/**
 * Melhor Envio as the connections say now, built again only when they change: a token typed at
 * /admin/payments switches carrier shipping on for every instance's next request. A token from
 * the environment counts only with SHIPPING_PROVIDER=melhorenvio, as it did before the admin
 * could set one. The API's address and the User-Agent stay the environment's.
 */
function carrierShipping(
  env: Env,
  settings: SettingsStore,
  connections: ConnectionsStore,
): CarrierShipping {
  type Built = { quoter: ShippingQuoter; labels: MelhorEnvioLabels } | null;
  const built = new WeakMap<Connections, Built>();
  const build = (token: string): Built => {
    const access = {
      apiUrl: env.MELHOR_ENVIO_API_URL,
      token,
      userAgent: env.MELHOR_ENVIO_USER_AGENT,
    };
    const identity = () => settings.get();
    return {
      quoter: createCarrierQuoter(access, identity),
      labels: createCarrierLabels(access, identity),
    };
  };
  const current = async (): Promise<Built> => {
    const now = await connections.get();
    if (!built.has(now)) {
      const token = now.values.melhor_envio_token;
      const on =
        token !== undefined &&
        (now.sources.melhor_envio_token !== 'env' || env.SHIPPING_PROVIDER === 'melhorenvio');
      built.set(now, on ? build(token) : null);
    }
    return built.get(now)!;
  };
  return {
    shipping: async () => (await current())?.quoter ?? null,
    shippingLabels: async () => (await current())?.labels ?? null,
    melhorEnvioWebhookSecret: async () =>
      (await connections.get()).values.melhor_envio_webhook_secret ?? null,
  };
}

/**
 * Whether checkout can take a payment, and what else a live store lacks for a real sale (ids
 * only: the list holds no secret). A store that cannot take one is a warning: it sells nothing.
 */
async function logReadiness(
  db: Db,
  scope: {
    mode: StoreMode;
    settings: SettingsStore;
    connections: ConnectionsStore;
    payments: () => Promise<PaymentProvider | null>;
    carrier: CarrierShipping;
    env: Env;
  },
): Promise<void> {
  const provider = await scope.payments();
  const readiness = await storeReadiness(db, {
    mode: scope.mode,
    settings: await scope.settings.get(),
    connections: await scope.connections.get(),
    provider,
    publicUrl: scope.env.PUBLIC_URL ?? null,
    carriers: (await scope.carrier.shipping()) !== null,
  });
  const fields = {
    mode: scope.mode,
    provider: provider?.name ?? null,
    missing: readiness.missing.map((item) => item.id),
  };
  if (readiness.canTakePayments) {
    logger.info(fields, 'Pagamentos prontos');
  } else {
    logger.warn(
      fields,
      'Nenhum pagamento pode ser recebido: o checkout está fechado, a loja avisa que ainda não ' +
        'está vendendo e pede aos buscadores que esperem; o painel lista o que falta',
    );
  }
}

function buildHandler(options: {
  env: Env;
  database: Database;
  readDb: Db;
  settings: SettingsStore;
  changes: ChangeFeed;
  connections: ConnectionsStore;
  payments: () => Promise<PaymentProvider | null>;
  carrier: CarrierShipping;
  erp: () => Promise<ErpAccess | null>;
  checkoutOrigins: readonly string[];
  orderEvents: OrderEventOptions;
  assets: StaticFiles;
  isShuttingDown: () => boolean;
}): express.Express {
  const { env, database, settings, changes, payments, orderEvents, assets, isShuttingDown } =
    options;
  const secretsSet: SecretsSet = {
    production: env.NODE_ENV === 'production',
    salesTrackingToken: env.UTMIFY_API_TOKEN !== undefined,
  };
  const production = env.NODE_ENV === 'production';
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', env.TRUST_PROXY);
  const guard = createRequestGuard(env, settings);
  const build = () => import('virtual:react-router/server-build');
  const pageCache = createPageCache({
    maxBytes: env.PAGE_CACHE_MAX_BYTES,
    ttlMs: env.PAGE_CACHE_TTL_SECONDS * 1000,
    changes,
    publicOrigin: (res) => requestOrigins(res).public,
  });
  // Uploads, the build's files and public/'s: a file or a plain-text 404, never a page.
  const servesFile = (req: express.Request) =>
    (req.method === 'GET' || req.method === 'HEAD') &&
    (assets.serves(req.path) || MEDIA_FILE.test(req.path));
  const metrics =
    env.METRICS_TOKEN === undefined
      ? undefined
      : createMetrics({ token: env.METRICS_TOKEN, database, pageCache, build, servesFile });
  if (metrics) app.use(metrics.observe);

  app.use(
    pinoHttp({
      logger,
      genReqId: (req) => {
        const given = req.headers['x-request-id'];
        return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
        }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      // Why the guard refused a request, on the request's one line.
      customProps: (_req, res) => {
        const refused = (res as express.Response).locals?.refused as string | undefined;
        return refused ? { refused } : {};
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || !!req.url?.startsWith('/assets/') },
      customLogLevel: (_req, res, error) => requestLogLevel(res.statusCode, error),
    }),
  );
  // Pages rendered per request (cart, checkout, account): level 4 compresses the checkout's 45 KB
  // in 0.9 ms against 1.6 ms at the default 6, for 3% more bytes. Cached pages keep level 6.
  app.use(compression({ level: 4 }));
  app.use((_req, res, next) => {
    res.locals.nonce = randomBytes(16).toString('base64');
    next();
  });
  const nonce = (_req: unknown, res: unknown) =>
    `'nonce-${(res as express.Response).locals.nonce}'`;
  // Vite's dev server injects inline scripts of its own; the policies guard production.
  const ownDirectives = {
    defaultSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    fontSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
  };
  const storefrontPolicy = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      ...ownDirectives,
      formAction: ["'self'", ...options.checkoutOrigins],
      scriptSrc: ["'self'", nonce, "'strict-dynamic'"],
      imgSrc: ["'self'", 'data:', 'https:', 'http:'],
      // Analytics and ad pixels (loaded only after consent) report to their own hosts.
      connectSrc: ["'self'", 'https:'],
      frameSrc: ["'self'", 'https:'],
    },
  });
  // The admin loads nothing from another origin (ADR 019): no 'strict-dynamic', so only our own
  // files and the nonce's scripts run; images are our own files, /media and the data: previews
  // of chosen files; nothing is framed, and nothing is sent anywhere but here.
  const adminPolicy = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      ...ownDirectives,
      scriptSrc: ["'self'", nonce],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameSrc: ["'none'"],
    },
  });
  if (production) {
    app.use((req, res, next) => {
      if (servesFile(req)) {
        if (SVG_FILE.test(req.path)) res.setHeader('Content-Security-Policy', SVG_POLICY);
        next();
        return;
      }
      (isAdminPath(routePath(req)) ? adminPolicy : storefrontPolicy)(req, res, next);
    });
  }
  const documentHeaders = helmet({
    contentSecurityPolicy: false,
    // Analytics and payment providers need to see where a visit came from: the origin only, so
    // no path or query (an order link's key, a reset token) ever leaves for another site.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Stores are often first served over plain http on a LAN; do not force https from here.
    strictTransportSecurity: production,
  });
  // A file is no document: a page's policy and its framing, opener, agent-cluster, DNS-prefetch
  // and XSS-filter headers govern the document (or worker) a response becomes, so on a script, a
  // stylesheet or an image they only cost ~600 bytes each (some 25 files on a first visit). Only
  // a stylesheet reads a referrer policy, and the pages' is the browsers' default. A file keeps
  // what guards it as a file: nosniff, Cross-Origin-Resource-Policy and HSTS.
  const fileHeaders = helmet({
    contentSecurityPolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: production,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  app.use((req, res, next) => (servesFile(req) ? fileHeaders : documentHeaders)(req, res, next));

  app.use(guard.wellFormed);
  app.use((_req, res, next) => {
    // Clients should not reuse a connection to an instance on its way out.
    if (isShuttingDown()) res.set('Connection', 'close');
    next();
  });

  app.get('/healthz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    if (isShuttingDown()) {
      res.status(503).json({ status: 'shutting-down' });
      return;
    }
    try {
      await withTimeout(database.ping(), HEALTH_TIMEOUT_MS);
      res.json({ status: 'ok', database: database.kind });
    } catch (error) {
      logger.warn({ err: error }, 'Health check: database unreachable');
      res.status(503).json({ status: 'unavailable', database: database.kind });
    }
  });

  // Prometheus's scraper, with its token; no page, no cookie, no cache.
  if (metrics) app.get('/metrics', metrics.endpoint);

  app.use(assets.handler);
  app.use(guard.sameOrigin);
  app.use((req, res, next) => {
    // Staff pages: never in a search index, never kept by a shared cache (a route may still
    // set its own Cache-Control).
    if (isAdminPath(routePath(req))) {
      res.set('X-Robots-Tag', 'noindex, nofollow');
      res.set('Cache-Control', 'private, no-store');
    }
    next();
  });
  // A demo store stays out of search indexes, whatever the page (ADR 018).
  app.use(async (_req, res, next) => {
    if ((await settings.mode()) === 'demo') res.set('X-Robots-Tag', 'noindex, nofollow');
    next();
  });

  app.all(
    '/{*path}',
    reactRouterHandler({
      pageCache,
      build,
      mode: env.NODE_ENV,
      body: async (req, res) =>
        isUploadRequest(req) && (await signedInAdmin(database, req, res))
          ? { maxBytes: env.MAX_UPLOAD_BYTES, streamed: true }
          : { maxBytes: env.MAX_BODY_BYTES, streamed: false },
      getLoadContext: (req, res, uploadFolder) => ({
        db: database.db,
        readDb: options.readDb,
        settings,
        changes,
        connections: options.connections,
        publicUrl: env.PUBLIC_URL ?? null,
        mercadoPagoApiUrl: env.MERCADOPAGO_API_URL,
        melhorEnvioApiUrl: env.MELHOR_ENVIO_API_URL,
        melhorEnvioUserAgent: env.MELHOR_ENVIO_USER_AGENT ?? null,
        nonce: res.locals.nonce as string,
        origin: requestOrigins(res).public,
        storefrontOrigin: env.ADMIN_URL ? requestOrigins(res).public : '',
        clientIp: req.ip ?? req.socket.remoteAddress ?? '',
        payments,
        orderEvents,
        ...options.carrier,
        erp: options.erp,
        checkoutRateLimit: env.CHECKOUT_RATE_LIMIT,
        secretsSet,
        admin: () => signedInAdmin(database, req, res),
        uploadFolder,
      }),
    }),
  );
  app.use(errorPage);
  return app;
}

/** The admin whose session the request's cookie names, looked up once per request. */
function signedInAdmin(
  database: Database,
  req: express.Request,
  res: express.Response,
): Promise<SignedInAdmin | null> {
  return (res.locals.admin ??= findSignedInAdmin(database.db, req.get('Cookie') ?? null));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
