export {
  findOrderByIdempotencyKey,
  findOrderIdByPaymentId,
  getOrder,
  findOrderFor,
  insertOrder,
  listExpiredOrders,
  listOrdersForToken,
  listOrdersForEmail,
  type InsertedOrder,
  type OrderPlacement,
  type PlacementRefusal,
  lockOrder,
  lockOrderRow,
  recordPayment,
  updateOrder,
  type OrderAccess,
  claimLabelLease,
  claimLabelsToTrack,
  findOrderIdByShipment,
  lockLabelState,
  releaseLabelLease,
  saveShippingLabel,
  type LabelState,
} from './orders.server';
export {
  findOrderForContact,
  orderContactKey,
  orderLookupSchema,
  type OrderContact,
  type OrderLookup,
} from './lookup.server';
export {
  getRequestedOrder,
  moveOrderKeyToCookie,
  ORDER_KEY_PARAM,
  orderAccess,
} from './order-key.server';
export { newOrderToken, orderTokenCookieHeader, readOrderToken } from './token.server';
export {
  ATTRIBUTION_PARAMS,
  attributionCookieHeader,
  attributionQuery,
  readAttribution,
} from './attribution.server';
export { EVENT_ACTORS, listOrderEvents, recordOrderEvent } from './order-events.server';
export {
  mailOrder,
  ORDER_TOPICS,
  trackOrder,
  trackOrderStatus,
  type OrderEventOptions,
  type OrderMailTopic,
  type OrderStatusTrackingPayload,
  type OrderTrackingPayload,
} from './order-outbox.server';
