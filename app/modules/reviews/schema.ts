import { sql } from 'drizzle-orm';
import { check, index, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';

import { createdAt } from '../../db/columns';
import { products } from '../catalog/schema';

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
    createdAt: createdAt(),
  },
  (t) => [
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
    index('reviews_product_created_at_idx').on(t.productId, t.createdAt.desc()),
    index('reviews_created_at_idx').on(t.createdAt.desc()),
  ],
);
