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
  lockOrder,
  recordPayment,
  updateOrder,
  type PaymentFields,
} from './orders.server';
export { newOrderToken, orderTokenCookieHeader, readOrderToken } from './token.server';
export {
  attributionCookieHeader,
  attributionQuery,
  landingParameters,
  readAttribution,
} from './attribution.server';
