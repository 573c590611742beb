export { buildPixCode, pixTxid, type PixCodeInput } from './brcode';
export { PAYMENT_NOT_CONFIGURED, paymentRequestError } from './request';
export {
  MIN_PAYMENT_CENTS,
  PAYMENT_METHODS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  type CreatedPayment,
  type PaymentMethod,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentProviderName,
  type PaymentRequest,
  type PaymentStatus,
} from './types';
