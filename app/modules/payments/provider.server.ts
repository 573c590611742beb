import type { Db } from '~/db/database.server';
import type { Env } from '~/lib/env.server';
import type { StoreMode, StoreSettings } from '~/modules/settings';

import { createGatewayProvider } from './gateway.server';
import { createMercadoPagoProvider } from './mercadopago.server';
import { createPixApiProvider, type PixApiTls } from './pix-api.server';
import type { SharedTokens } from './pix-api-token.server';
import { createPixProvider, isPixConfigured, type PixSettings } from './pix.server';
import { createSandboxProvider } from './sandbox.server';
import type { PaymentProvider } from './types';

export interface PaymentProviderOptions {
  env: Pick<
    Env,
    | 'NODE_ENV'
    | 'PAYMENT_PROVIDER'
    | 'PAYMENT_GATEWAY_URL'
    | 'PAYMENT_GATEWAY_SECRET_KEY'
    | 'MERCADOPAGO_API_URL'
    | 'MERCADOPAGO_ACCESS_TOKEN'
    | 'MERCADOPAGO_WEBHOOK_SECRET'
    | 'PIX_API_URL'
    | 'PIX_API_TOKEN_URL'
    | 'PIX_API_CLIENT_ID'
    | 'PIX_API_CLIENT_SECRET'
    | 'PUBLIC_URL'
  >;
  /** The API Pix's client certificate and shared token, when the connections give one. */
  pixApi?: { tls: PixApiTls; tokens: SharedTokens };
  db: Db;
  settings: () => Promise<StoreSettings>;
  /** The store's mode: a demo store takes pretend payments, a live one in production never. */
  mode: StoreMode;
}

/**
 * The provider PAYMENT_PROVIDER names; unset, the sandbox. In production only a demo store gets
 * the sandbox: a live store gets none (null: checkout says payments are not configured), even
 * with PAYMENT_PROVIDER=sandbox (which its next start refuses, see liveSandboxError), so a real
 * store never takes pretend payments.
 */
export function createPaymentProvider(options: PaymentProviderOptions): PaymentProvider | null {
  const { env } = options;
  const sandboxAllowed = options.mode === 'demo' || env.NODE_ENV !== 'production';
  const named = env.PAYMENT_PROVIDER ?? 'sandbox';
  const chosen = named === 'sandbox' && !sandboxAllowed ? null : named;
  switch (chosen) {
    case 'sandbox':
      return createSandboxProvider({ db: options.db, settings: options.settings });
    case 'pix':
      return createPixProvider({ settings: options.settings });
    case 'gateway':
      // The environment check already demands all three; this keeps a hand-built Env honest too.
      if (!env.PAYMENT_GATEWAY_URL || !env.PAYMENT_GATEWAY_SECRET_KEY || !env.PUBLIC_URL) {
        return null;
      }
      return createGatewayProvider({
        baseUrl: env.PAYMENT_GATEWAY_URL,
        secretKey: env.PAYMENT_GATEWAY_SECRET_KEY,
        publicUrl: env.PUBLIC_URL,
      });
    case 'mercadopago':
      if (!env.MERCADOPAGO_ACCESS_TOKEN || !env.MERCADOPAGO_WEBHOOK_SECRET || !env.PUBLIC_URL) {
        return null;
      }
      return createMercadoPagoProvider({
        apiUrl: env.MERCADOPAGO_API_URL,
        accessToken: env.MERCADOPAGO_ACCESS_TOKEN,
        webhookSecret: env.MERCADOPAGO_WEBHOOK_SECRET,
        publicUrl: env.PUBLIC_URL,
        settings: options.settings,
      });
    case 'pix-api':
      if (
        !env.PIX_API_URL ||
        !env.PIX_API_TOKEN_URL ||
        !env.PIX_API_CLIENT_ID ||
        !env.PIX_API_CLIENT_SECRET ||
        !env.PUBLIC_URL ||
        !options.pixApi
      ) {
        return null;
      }
      return createPixApiProvider({
        apiUrl: env.PIX_API_URL,
        tokenUrl: env.PIX_API_TOKEN_URL,
        clientId: env.PIX_API_CLIENT_ID,
        clientSecret: env.PIX_API_CLIENT_SECRET,
        publicUrl: env.PUBLIC_URL,
        tls: options.pixApi.tls,
        tokens: options.pixApi.tokens,
        settings: options.settings,
      });
    case null:
      return null;
  }
}

/**
 * Whether checkout can take a payment now: a provider, and for PIX with the store's own key a key,
 * name and city that make a payable BR Code. Without them the PIX provider stays in force, since
 * it still answers for the orders it took (staff confirm them, the order page shows their code),
 * and a key typed in the settings applies to the next order without building it again.
 */
export function canTakePayments(
  provider: Pick<PaymentProvider, 'name'> | null,
  settings: Pick<PixSettings, 'pix_key' | 'pix_merchant_name' | 'pix_merchant_city'>,
): boolean {
  if (!provider) return false;
  // The bank's charge needs the store's key too; its name and city are the bank's to give.
  if (provider.name === 'pix-api') return settings.pix_key.trim() !== '';
  return provider.name !== 'pix' || isPixConfigured(settings);
}

/**
 * Why a store must not start: a live store in production with PAYMENT_PROVIDER=sandbox would
 * take pretend payments for real orders. Null when it may.
 */
export function liveSandboxError(
  env: Pick<Env, 'NODE_ENV' | 'PAYMENT_PROVIDER'>,
  mode: StoreMode,
): string | null {
  if (env.NODE_ENV !== 'production' || mode !== 'live' || env.PAYMENT_PROVIDER !== 'sandbox') {
    return null;
  }
  return (
    'PAYMENT_PROVIDER=sandbox recebe pagamentos de mentira e esta loja é real (criada com ' +
    "SEED=false, ou tornada real com 'Começar loja real'): defina PAYMENT_PROVIDER como pix, " +
    'pix-api, gateway ou mercadopago.'
  );
}
