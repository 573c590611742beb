import { sql } from 'drizzle-orm';
import { check, index, pgTable, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

import { createdAt } from '../../db/columns';
import { products } from '../catalog/schema';
import { orders } from '../orders/schema';

/** Who wrote a review: a buyer from their delivered order, staff, or the sample store. */
export const REVIEW_SOURCES = ['buyer', 'staff', 'sample'] as const;
export type ReviewSource = (typeof REVIEW_SOURCES)[number];

/** Only visible reviews reach the store and its ratings; buyers' wait as pending. */
export const REVIEW_STATUSES = ['pending', 'visible', 'hidden'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    // Blank is shown as "Cliente".
    customerName: text('customer_name').notNull().default(''),
    rating: smallint('rating').notNull(),
    comment: text('comment'),
    source: text('source').$type<ReviewSource>().notNull().default('staff'),
    status: text('status').$type<ReviewStatus>().notNull().default('visible'),
    // The delivered order a buyer's review comes from; kept if the order goes.
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
    check('reviews_source_check', sql`${t.source} in ('buyer', 'staff', 'sample')`),
    check('reviews_status_check', sql`${t.status} in ('pending', 'visible', 'hidden')`),
    index('reviews_product_created_at_idx').on(t.productId, t.createdAt.desc()),
    index('reviews_created_at_idx').on(t.createdAt.desc()),
    // One review per product of an order.
    uniqueIndex('reviews_order_product_idx').on(t.orderId, t.productId),
    // Staff see the reviews waiting for them first.
    index('reviews_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);
