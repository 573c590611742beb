import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

export const COUPON_KINDS = ['percent', 'fixed', 'free_shipping'] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];

/**
 * The store's discount codes. `code` is kept in capitals (shoppers type it in any case);
 * `used_count` is taken by a conditional update in the order's transaction, as stock is, and
 * given back when the order is cancelled, so it never passes `usage_limit`.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    kind: text('kind').$type<CouponKind>().notNull(),
    // Whole percent for 'percent', cents for 'fixed', 0 for 'free_shipping'.
    value: integer('value').notNull().default(0),
    minSubtotalCents: integer('min_subtotal_cents').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    usageLimitPerCustomer: integer('usage_limit_per_customer'),
    firstPurchaseOnly: boolean('first_purchase_only').notNull().default(false),
    // Empty: every product. Otherwise the coupon applies only to these products and to the
    // products of these categories. Deleting one takes it out of here; a coupon left naming
    // nothing is deactivated, not widened (app/flows/delete-catalog.server.ts, migration 0030).
    productIds: uuid('product_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    categoryIds: uuid('category_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    active: boolean('active').notNull().default(true),
    usedCount: integer('used_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('coupons_code_idx').on(t.code),
    check('coupons_code_check', sql`${t.code} ~ '^[A-Z0-9]{3,30}$'`),
    check('coupons_kind_check', sql`${t.kind} in ('percent', 'fixed', 'free_shipping')`),
    check(
      'coupons_value_check',
      sql`(${t.kind} = 'percent' and ${t.value} between 1 and 100) or (${t.kind} = 'fixed' and ${t.value} > 0) or (${t.kind} = 'free_shipping' and ${t.value} = 0)`,
    ),
    check(
      'coupons_limits_check',
      sql`${t.minSubtotalCents} >= 0 and (${t.usageLimit} is null or ${t.usageLimit} > 0) and (${t.usageLimitPerCustomer} is null or ${t.usageLimitPerCustomer} > 0)`,
    ),
    check(
      'coupons_used_count_check',
      sql`${t.usedCount} >= 0 and (${t.usageLimit} is null or ${t.usedCount} <= ${t.usageLimit})`,
    ),
    check(
      'coupons_window_check',
      sql`${t.startsAt} is null or ${t.endsAt} is null or ${t.startsAt} < ${t.endsAt}`,
    ),
  ],
);
