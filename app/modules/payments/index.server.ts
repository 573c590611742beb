export { isPixConfigured } from './pix.server';
export { createPaymentProvider, liveSandboxError } from './provider.server';
export { pixQrSvg } from './qr.server';
export {
  createSandboxProvider,
  deleteSandboxPayments,
  setSandboxPaymentStatus,
} from './sandbox.server';
export { integrationStatus } from './integrations.server';
export type { SecretsSet } from './integrations';
