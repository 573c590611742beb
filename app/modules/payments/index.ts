export { buildPixCode, pixTxid, type PixCodeInput } from './brcode';
export { narrowPaymentSwitches } from './offered';
export { PAYMENT_NOT_CONFIGURED, paymentRequestError } from './request';
export type { IntegrationStatus } from './integrations';
export {
  ACCEPTED_METHOD_LABELS,
  MIN_PAYMENT_CENTS,
  PAYMENT_METHOD_SWITCHES,
  PAYMENT_METHODS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  type AcceptedMethod,
  type CreatedPayment,
  type PaymentMethod,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentProviderName,
  type PaymentRequest,
  type PaymentStatus,
} from './types';
