import type { SecretsSet } from '~/lib/load-context';
import type { PaymentProvider } from '~/modules/payments';
import { isPixConfigured } from '~/modules/payments/index.server';

import type { IntegrationStatus } from './integrations';
import type { StoreSettings } from './settings';

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
    salesTrackingToken: secrets.salesTrackingToken,
    smtp: secrets.smtp,
  };
}
