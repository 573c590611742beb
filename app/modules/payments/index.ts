export { narrowPaymentSwitches } from './offered';
export { PAYMENT_NOT_CONFIGURED } from './request';
export type { IntegrationStatus } from './integrations';
export {
  ACCEPTED_METHOD_LABELS,
  MIN_PAYMENT_CENTS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  type AcceptedMethod,
  type PaymentProvider,
  type PaymentRequest,
  type PaymentStatus,
} from './types';
