import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('categories_name_idx').on(t.name),
    index('categories_created_at_idx').on(t.createdAt.desc()),
  ],
);

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    priceCents: integer('price_cents').notNull(),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    categoryId: uuid('category_id').references(() => categories.id, { onDelete: 'set null' }),
    // Ordered: the first image is the product's main image.
    imageUrls: text('image_urls')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('products_price_cents_check', sql`${t.priceCents} >= 0`),
    check('products_stock_quantity_check', sql`${t.stockQuantity} >= 0`),
    index('products_created_at_idx').on(t.createdAt.desc()),
    index('products_category_created_at_idx').on(t.categoryId, t.createdAt.desc()),
    index('products_name_idx').on(t.name),
    index('products_price_cents_idx').on(t.priceCents),
  ],
);
