// Every table of every module, for drizzle-kit and the typed query builder.
export * from '../modules/auth/schema';
export * from '../modules/catalog/schema';
export * from '../modules/connections/schema';
export * from '../modules/coupons/schema';
export * from '../modules/erp/schema';
export * from '../modules/jobs/schema';
export * from '../modules/media/schema';
export * from '../modules/orders/schema';
export * from '../modules/payments/schema';
export * from '../modules/rate-limits/schema';
export * from '../modules/recovery/schema';
export * from '../modules/reviews/schema';
export * from '../modules/settings/schema';
export * from '../modules/shipping/schema';
export * from '../modules/shoppers/schema';
