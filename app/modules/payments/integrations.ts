import type { AcceptedMethod, PaymentProviderName } from './types';

/**
 * What the settings page may say about the server's own configuration: which payment provider
 * runs and whether each secret is set. Only yes/no answers: a secret's value never leaves the
 * server (PRODUCT.md §2).
 */
export interface IntegrationStatus {
  /** The provider checkout uses; null when none is configured (checkout is closed). */
  provider: PaymentProviderName | null;
  /** What checkout takes through it: the payment switches can narrow this, never widen it. */
  accepts: readonly AcceptedMethod[];
  production: boolean;
  /** With the own-key PIX provider: whether the PIX settings make a payable code. */
  pixReady: boolean;
  gatewaySecretKey: boolean;
  mercadoPagoAccessToken: boolean;
  mercadoPagoWebhookSecret: boolean;
  salesTrackingToken: boolean;
  smtp: boolean;
}

/** Which secrets the environment sets: yes or no only, for the settings screen. */
export interface SecretsSet {
  production: boolean;
  gatewaySecretKey: boolean;
  mercadoPagoAccessToken: boolean;
  mercadoPagoWebhookSecret: boolean;
  salesTrackingToken: boolean;
  smtp: boolean;
}
