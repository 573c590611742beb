export { createGatewayProvider, type GatewayOptions } from './gateway.server';
export {
  createPixProvider,
  isPixConfigured,
  type PixProviderOptions,
  type PixSettings,
} from './pix.server';
export {
  createPaymentProvider,
  liveSandboxError,
  type PaymentProviderOptions,
} from './provider.server';
export { pixQrSvg } from './qr.server';
export {
  createSandboxProvider,
  deleteSandboxPayments,
  setSandboxPaymentStatus,
  type SandboxOptions,
  type SandboxOutcome,
} from './sandbox.server';
export { integrationStatus } from './integrations.server';
export type { SecretsSet } from './integrations';
