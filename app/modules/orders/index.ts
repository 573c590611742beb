export { addressLine, orderNumber, pixDiscountLabel, type AddressParts } from './display';
export { estimatedDelivery, formatDeliveryDate } from './delivery';
export {
  ORDER_STATUSES,
  type CancelReason,
  type OrderStatus,
  type TrackingParameters,
} from './schema';
export type { NewOrder, OrderLine, OrderView } from './types';
export {
  ADMIN_STATUS_LABELS,
  DELIVERY_LINES,
  SHOPPER_STATUS_LABELS,
  TRANSITION_LABELS,
} from './status-labels';
export { canTransition, ORDER_TRANSITIONS, transitionRefusal, wasPaid } from './transitions';
export {
  hasOrderFilters,
  MAX_COUNTED_ORDERS,
  MAX_SEARCH_LENGTH,
  orderFiltersQuery,
  ORDERS_PER_PAGE,
  orderSearchWords,
  parseOrderFilters,
  type OrderFilters,
} from './admin-filters';
export {
  NOTE_MAX_LENGTH,
  ORDER_FORM_MESSAGES,
  orderNoteFormSchema,
  orderStatusFormSchema,
  orderTrackingFormSchema,
} from './admin-forms';
export type { OrderEventKind } from './schema';
export type {
  AdminOrderDetail,
  AdminOrderExportRow,
  AdminOrderPage,
  AdminOrderRow,
} from './admin-types';
export type { OrderEvent } from './order-events';
export {
  CANCEL_REASON_LABELS,
  displayCpf,
  displayPhone,
  EVENT_KIND_LABELS,
  PAYMENT_PROVIDER_LABELS,
  PAYMENT_STATUS_LABELS,
} from './admin-display';
