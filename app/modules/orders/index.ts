export { addressLine, carrierShippingLine, orderNumber, parseOrderNumber } from './display';
export {
  ORDER_LOOKUP_ANCHOR,
  ORDER_LOOKUP_CONTACT_MAX,
  ORDER_LOOKUP_MESSAGES,
  ORDER_LOOKUP_NOTICE_PARAM,
  ORDER_LOOKUP_NUMBER_MAX,
  ORDER_LOOKUP_SENT,
} from './lookup';
export {
  estimatedDelivery,
  formatDeliveryDate,
  type DeliveryEstimate,
  type ShippingEstimate,
} from './delivery';
export {
  ORDER_STATUSES,
  type CancelReason,
  type OrderStatus,
  type TrackingParameters,
} from './schema';
export type { OrderAdjustment, OrderLine, OrderView } from './types';
export { DELIVERY_LINES, SHOPPER_STATUS_LABELS } from './status-labels';
export {
  canCancelOrder,
  canDeleteOrder,
  canTransition,
  ORDER_TRANSITIONS,
  transitionRefusal,
  wasPaid,
  type OrderMoneyState,
} from './transitions';
export type { OrderEvent } from './order-events';
export { trackingLink, type TrackingLink } from './tracking-link';
