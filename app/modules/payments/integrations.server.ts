import type { StoreSettings } from '~/modules/settings';

import type { IntegrationStatus, SecretsSet } from './integrations';
import { isPixConfigured } from './pix.server';
import type { PaymentProvider } from './types';

export function integrationStatus(
  secrets: SecretsSet,
  payments: Pick<PaymentProvider, 'name' | 'accepts'> | null,
  settings: StoreSettings,
): IntegrationStatus {
  return {
    provider: payments?.name ?? null,
    accepts: payments?.accepts ?? [],
    production: secrets.production,
    pixReady: isPixConfigured(settings),
    gatewaySecretKey: secrets.gatewaySecretKey,
    mercadoPagoAccessToken: secrets.mercadoPagoAccessToken,
    mercadoPagoWebhookSecret: secrets.mercadoPagoWebhookSecret,
    salesTrackingToken: secrets.salesTrackingToken,
    smtp: secrets.smtp,
  };
}
