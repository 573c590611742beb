// The admin's door: filters, forms, types and labels of the order screens (ADR 021).
export {
  hasOrderFilters,
  MAX_COUNTED_ORDERS,
  MAX_COUPON_LENGTH,
  MAX_SEARCH_LENGTH,
  orderFiltersQuery,
  parseOrderFilters,
  type OrderFilters,
} from './admin-filters';
export {
  NOTE_MAX_LENGTH,
  orderNoteFormSchema,
  orderStatusFormSchema,
  orderTrackingFormSchema,
} from './admin-forms';
export type { AdminOrderDetail, AdminOrderRow } from './admin-types';
export {
  CANCEL_REASON_LABELS,
  displayCpf,
  displayPhone,
  EVENT_KIND_LABELS,
  PAYMENT_PROVIDER_LABELS,
  PAYMENT_STATUS_LABELS,
  paymentBrandLabel,
  paymentMethodLabel,
} from './admin-display';
export { ADMIN_STATUS_LABELS, adminStatusWord, TRANSITION_LABELS } from './status-labels';
export { ADMIN_ORDER_MESSAGES } from './admin-messages';
