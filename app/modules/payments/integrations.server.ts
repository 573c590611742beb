import type { ConnectionField, ConnectionSource } from '~/modules/connections';
import type { StoreSettings } from '~/modules/settings';

import type { IntegrationStatus, SecretsSet } from './integrations';
import { isPixConfigured } from './pix.server';
import type { PaymentProvider } from './types';

export function integrationStatus(
  secrets: SecretsSet,
  payments: Pick<PaymentProvider, 'name' | 'accepts'> | null,
  settings: StoreSettings,
  sources: Record<ConnectionField, ConnectionSource>,
): IntegrationStatus {
  const set = (name: ConnectionField) => sources[name] === 'env' || sources[name] === 'admin';
  return {
    provider: payments?.name ?? null,
    accepts: payments?.accepts ?? [],
    production: secrets.production,
    providerFromEnv: sources.payment_provider === 'env',
    pixReady: isPixConfigured(settings),
    gatewaySecretKey: set('gateway_secret_key'),
    mercadoPagoAccessToken: set('mercadopago_access_token'),
    mercadoPagoWebhookSecret: set('mercadopago_webhook_secret'),
    salesTrackingToken: secrets.salesTrackingToken,
    smtp: set('smtp_url'),
  };
}
