export {
  addressLine,
  DELIVERY_LINES,
  orderNumber,
  pixDiscountLabel,
  STATUS_LABELS,
  type AddressParts,
} from './display';
export { estimatedDelivery, formatDeliveryDate, type DeliveryEstimate } from './delivery';
export {
  ORDER_STATUSES,
  type CancelReason,
  type OrderStatus,
  type TrackingParameters,
} from './schema';
export type { NewOrder, OrderLine, OrderView } from './types';
export { canTransition, ORDER_TRANSITIONS, transitionRefusal, wasPaid } from './transitions';
export type { OrderEventKind } from './schema';
export type { OrderEvent } from './order-events';
// Shared with the shopper's e-mails, so not behind the admin's door.
export { formatOrderDate, formatOrderDateTime, storeDateFormat } from './admin-display';
