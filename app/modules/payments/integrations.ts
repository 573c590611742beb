import type { AcceptedMethod, PaymentProviderName } from './types';

/**
 * What the settings page may say about the store's connections: which payment provider runs and
 * whether each secret is set (in the environment or at /admin/payments). Only yes/no answers: a
 * secret's value never leaves the server (PRODUCT.md §2).
 */
export interface IntegrationStatus {
  /** The provider checkout uses; null when none is configured (checkout is closed). */
  provider: PaymentProviderName | null;
  /** What checkout takes through it: the payment switches can narrow this, never widen it. */
  accepts: readonly AcceptedMethod[];
  production: boolean;
  /** Whether PAYMENT_PROVIDER chooses the provider (then /admin/payments cannot). */
  providerFromEnv: boolean;
  /** With the own-key PIX provider: whether the PIX settings make a payable code. */
  pixReady: boolean;
  gatewaySecretKey: boolean;
  mercadoPagoAccessToken: boolean;
  mercadoPagoWebhookSecret: boolean;
  salesTrackingToken: boolean;
  smtp: boolean;
}

/** What only the server's environment says: yes or no only, for the settings screen. */
export interface SecretsSet {
  production: boolean;
  salesTrackingToken: boolean;
}
