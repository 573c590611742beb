export { narrowPaymentSwitches } from './offered';
export { PAYMENT_NOT_CONFIGURED, STORE_NOT_SELLING } from './request';
export type { IntegrationStatus } from './integrations';
export {
  ACCEPTED_METHOD_LABELS,
  MIN_PAYMENT_CENTS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  checkoutPlaceholder,
  isCheckoutPlaceholder,
  offeredMethods,
  statusReport,
  type AcceptedMethod,
  type PaymentDetails,
  type PaymentMethod,
  type PaymentProvider,
  type PaymentProviderName,
  type PaymentReport,
  type PaymentRequest,
  type PaymentStatus,
} from './types';
