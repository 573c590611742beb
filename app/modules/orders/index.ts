export {
  addressLine,
  DELIVERY_LINES,
  orderNumber,
  STATUS_LABELS,
  type AddressParts,
} from './display';
export { estimatedDelivery, formatDeliveryDate } from './delivery';
export {
  ORDER_STATUSES,
  type CancelReason,
  type OrderStatus,
  type TrackingParameters,
} from './schema';
export type { NewOrder, OrderLine, OrderView } from './types';
