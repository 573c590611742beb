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
  REVENUE_STATUSES,
  salesByDay,
  salesMetrics,
  type Compared,
  type DailySales,
  type MetricsPeriods,
  type SalesMetrics,
} from './sales-metrics.server';
export {
  adminOrderBatches,
  deleteAllOrders,
  deleteOrderRow,
  getAdminOrder,
  listAdminOrders,
} from './admin-orders.server';
export {
  EVENT_ACTORS,
  listOrderEvents,
  recordOrderEvent,
  type NewOrderEvent,
} from './order-events.server';
export { ordersCsvStream } from './admin-export.server';
export { orderActionSchema, orderListActionSchema, type OrderAction } from './admin-actions.server';
