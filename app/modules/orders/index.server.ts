export {
  findOrderByIdempotencyKey,
  findOrderIdByPaymentId,
  getOrder,
  findOrderFor,
  getRequestedOrder,
  requestedKey,
  type OrderAccess,
  HISTORY_LIMIT,
  insertOrder,
  listExpiredOrders,
  listOrdersForToken,
  lockOpenOrders,
  type OpenOrders,
  type OrderPlacer,
  lockOrder,
  lockOrderRow,
  recordPayment,
  updateOrder,
  type PaymentFields,
} from './orders.server';
export { newOrderToken, orderTokenCookieHeader, readOrderToken } from './token.server';
export {
  ATTRIBUTION_PARAMS,
  attributionCookieHeader,
  attributionQuery,
  landingParameters,
  readAttribution,
} from './attribution.server';
export {
  EVENT_ACTORS,
  listOrderEvents,
  recordOrderEvent,
  type NewOrderEvent,
} from './order-events.server';
