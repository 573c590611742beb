// The admin's server door: the order list, export, actions and sales figures (ADR 021).
export {
  adminOrderBatches,
  deleteAllOrders,
  deleteOrderRow,
  getAdminOrder,
  listAdminOrders,
} from './admin-orders.server';
export { ordersCsvStream } from './admin-export.server';
export {
  MAX_LABELS_AT_ONCE,
  orderActionSchema,
  orderListActionSchema,
  type OrderAction,
  type OrderListAction,
} from './admin-actions.server';
export { salesByDay, salesMetrics } from './sales-metrics.server';
export { couponOrderStats, type CouponOrderStats } from './coupon-stats.server';
