import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description'),
    // 'Selecionada' in the admin: the home page offers only these as filters (all when none is).
    featured: boolean('featured').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('categories_name_idx').on(t.name),
    index('categories_created_at_idx').on(t.createdAt.desc()),
  ],
);

// Migration 0002_catalog_search also gives products a generated `search_text` column (name and
// description folded by vitrine_fold()), left out here so product reads do not carry it.
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('products_price_cents_check', sql`${t.priceCents} >= 0`),
    check('products_stock_quantity_check', sql`${t.stockQuantity} >= 0`),
    // In the catalogue's order (id breaks ties; NULLS FIRST is what a plain ORDER BY … DESC
    // means), so a page is read straight off the index instead of sorting every product.
    index('products_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('products_category_created_at_idx').on(
      t.categoryId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('products_name_idx').on(t.name),
    index('products_price_cents_idx').on(t.priceCents, t.id),
  ],
);
