import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    // The category's name in URLs (/products?categoria=audio). The default '' asks the
    // vitrine_set_slug trigger (see drizzle/0008) to make one from the name, unique, on insert.
    slug: text('slug').notNull().default(''),
    description: text('description'),
    // 'Selecionada' in the admin: the home page offers only these as filters (all when none is).
    featured: boolean('featured').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('categories_slug_idx').on(t.slug),
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
    // The product's address (/product/fone-de-ouvido-bluetooth-pro), made by the same trigger
    // from the name on insert and kept when the name changes, so shared links keep working.
    slug: text('slug').notNull().default(''),
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
    // /sitemap.xml lists the most recently changed first, without sorting the whole table.
    index('products_updated_at_idx').on(t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    uniqueIndex('products_slug_idx').on(t.slug),
    index('products_name_idx').on(t.name),
    index('products_price_cents_idx').on(t.priceCents, t.id),
  ],
);

/**
 * 'Avise-me quando chegar': a shopper's e-mail waiting for a sold-out product. The address is
 * first asked to confirm (double opt-in: anyone can type anyone's address); once the product is
 * back in stock a confirmed request's e-mail goes out through the outbox and `notifiedAt` closes
 * it. Unconfirmed requests are deleted 7 days after their last confirmation e-mail.
 */
export const restockRequests = pgTable(
  'restock_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: createdAt(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    /** SHA-256 (hex) of the token in the latest confirmation e-mail; the token is never stored. */
    confirmTokenHash: text('confirm_token_hash'),
    /** When the latest confirmation e-mail was queued (a new one is sent only after a while). */
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true })
      .notNull()
      .defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    // One open request per e-mail and product: asking twice does one thing.
    uniqueIndex('restock_requests_open_idx')
      .on(t.productId, t.email)
      .where(sql`${t.notifiedAt} is null`),
    index('restock_requests_created_at_idx').on(t.createdAt.desc()),
    uniqueIndex('restock_requests_confirm_token_idx').on(t.confirmTokenHash),
    // The background jobs' sweep of unconfirmed requests past their 7 days.
    index('restock_requests_unconfirmed_idx')
      .on(t.confirmationSentAt)
      .where(sql`${t.confirmedAt} is null`),
  ],
);
