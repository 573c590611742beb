import type { ChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';
import type { ErpAccess } from '~/flows/erp-orders.server';
import type { SignedInAdmin } from '~/modules/auth/index.server';
import type { ConnectionsStore } from '~/modules/connections/index.server';
import type { OrderEventOptions } from '~/modules/orders/index.server';
import type { PaymentProvider } from '~/modules/payments';
import type { SecretsSet } from '~/modules/payments/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';
import type { MelhorEnvioLabels, ShippingQuoter } from '~/modules/shipping/index.server';

// What every loader and action receives from the server (server/app.ts builds it). It names
// the database, modules and a flow, so it sits at the top beside root.tsx, not in lib (ADR 021).
declare module 'react-router' {
  interface AppLoadContext {
    /** The primary: every write, and every read a shopper's or staff's own actions depend on. */
    db: Db;
    /**
     * For the anonymous storefront's reads only (catalogue, product, home, favourites, sitemap):
     * the read replica while it has replayed every announced change, else the primary; the
     * primary itself without DATABASE_REPLICA_URL (ADR 033).
     */
    readDb: Db;
    settings: SettingsStore;
    /** What staff connected at /admin/payments, with the environment's variables over it. */
    connections: ConnectionsStore;
    /** PUBLIC_URL, or null: the providers that notify the store need it. */
    publicUrl: string | null;
    /** MERCADOPAGO_API_URL: where a Mercado Pago token typed in the admin is checked. */
    mercadoPagoApiUrl: string;
    /** MELHOR_ENVIO_API_URL: where a Melhor Envio token typed in the admin is checked. */
    melhorEnvioApiUrl: string;
    /** MELHOR_ENVIO_USER_AGENT, or null: calls to Melhor Envio name the store and its e-mail. */
    melhorEnvioUserAgent: string | null;
    /** The database's change notifications: caches key by its version, and bypass while not live. */
    changes: ChangeFeed;
    /** Per-request nonce that the Content-Security-Policy allows inline scripts with. */
    nonce: string;
    /**
     * The store's public origin ("https://loja.com.br") for absolute URLs: PUBLIC_URL, else the
     * canonical_url setting, else the request's own host when ALLOWED_HOSTS allows it.
     */
    origin: string;
    /**
     * What the admin's links to the store start with: nothing (the same origin), or the store's
     * public origin when the admin has an origin of its own (ADMIN_URL).
     */
    storefrontOrigin: string;
    /** The client's address (through trusted proxies only), for per-client limits. */
    clientIp: string;
    /**
     * The provider for the store's mode now; null in production when none is configured (or the
     * store is live and only the sandbox is): checkout then sells nothing.
     */
    payments(): Promise<PaymentProvider | null>;
    orderEvents: OrderEventOptions;
    /**
     * The carrier integration of the connections in force (a Melhor Envio token typed at
     * /admin/payments, or SHIPPING_PROVIDER), or null: the store's own rule prices shipping.
     */
    shipping(): Promise<ShippingQuoter | null>;
    /** The carrier's label calls ('Gerar etiqueta'), or null without a carrier integration. */
    shippingLabels(): Promise<MelhorEnvioLabels | null>;
    /** The secret in force that signs the carrier's notifications; null: they are refused. */
    melhorEnvioWebhookSecret(): Promise<string | null>;
    /**
     * The merchant's ERP (Bling) with the secrets key its tokens are sealed under, or null while
     * its application's client id and secret (or the key) are missing.
     */
    erp(): Promise<ErpAccess | null>;
    /** CHECKOUT_RATE_LIMIT: checkout submissions per client address per minute. */
    checkoutRateLimit: number;
    /** What only the environment says (production, the tracking token): yes or no only. */
    secretsSet: SecretsSet;
    /**
     * The signed-in admin the request's session cookie names, or null: looked up once per
     * request (the upload limit, the layout and the page's loader all ask), see requireAdmin.
     */
    admin(): Promise<SignedInAdmin | null>;
    /**
     * A folder for this request's uploaded files, made when first asked for; the server removes
     * it, with everything in it, once the route has answered (also when it failed).
     */
    uploadFolder(): Promise<string>;
  }
}
