export { isPixConfigured } from './pix.server';
export {
  checkMercadoPagoAccount,
  MERCADOPAGO_ACCOUNT_MESSAGES,
} from './mercadopago-account.server';
export { mercadoPagoCheckoutOrigins } from './mercadopago.server';
export { canTakePayments, createPaymentProvider, liveSandboxError } from './provider.server';
export { pixQrSvg } from './qr.server';
export {
  createSandboxProvider,
  deleteSandboxPayments,
  setSandboxPaymentStatus,
} from './sandbox.server';
export { integrationStatus } from './integrations.server';
export type { SecretsSet } from './integrations';
export {
  createPixApiProvider,
  isPixApiProvider,
  pixApiOrderId,
  readPixApiNotice,
  type PixApiProvider,
  type PixApiTls,
} from './pix-api.server';
export { pixApiTlsFromFiles, pixApiTlsFromUpload } from './pix-api-tls.server';
export { databaseTokens, processTokens, type SharedTokens } from './pix-api-token.server';
