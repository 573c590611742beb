import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

import { PRODUCT_CONDITIONS } from './product-identifiers';

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
    // The cheapest variant's price (the card's 'a partir de'), kept by the database (migration
    // 0023) whoever writes a price, so the catalogue sorts and filters by it off an index.
    fromPriceCents: integer('from_price_cents').notNull().default(0),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    categoryId: uuid('category_id').references(() => categories.id, { onDelete: 'set null' }),
    // Ordered: the first image is the product's main image.
    imageUrls: text('image_urls')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // Up to three options ('Tamanho', 'Cor') with their values in the order shown; a variant
    // names one value of each. Empty: the product is sold as one default variant.
    options: jsonb('options').$type<ProductOption[]>().notNull().default([]),
    // What Google Merchant Center and Meta's catalogue ask of a product (issue 39): the maker's
    // brand ('' : the store's name), Google's product category (its id or path) and the
    // condition.
    brand: text('brand').notNull().default(''),
    googleProductCategory: text('google_product_category').notNull().default(''),
    condition: text('condition', { enum: PRODUCT_CONDITIONS }).notNull().default('new'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('products_price_cents_check', sql`${t.priceCents} >= 0`),
    check('products_condition_check', sql`${t.condition} in ('new', 'used', 'refurbished')`),
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
    index('products_from_price_cents_idx').on(t.fromPriceCents, t.id),
  ],
);

/** One of a product's options and its values, in the order the shopper sees them. */
export interface ProductOption {
  name: string;
  /** `color`: a swatch for the value (#rrggbb), when the option is a colour. */
  values: { name: string; color?: string }[];
}

/** A variant's value of one option, as an order line copies it: 'Tamanho' 'G'. */
export interface VariantOptionValue {
  name: string;
  value: string;
}

/**
 * What the shopper buys: one combination of the product's option values, with its own SKU,
 * stock and, when set, price, 'de' price, pictures, weight and size. Every product has at least
 * one (drizzle/0021 makes the default one for a product inserted without). `products.stock_quantity`
 * is kept equal to the sum of its variants' stock by the database.
 */
export const productVariants = pgTable(
  'product_variants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    // The variant's place among its product's (the first is the one a product page opens on).
    position: integer('position').notNull().default(1),
    // Unique in the store, the `?variante=` of the product page. '' asks the vitrine_set_sku
    // trigger (drizzle/0021) to make one from the product's slug and the option values.
    sku: text('sku').notNull().default(''),
    // The value of each of the product's options (null past the product's option count).
    option1: text('option1'),
    option2: text('option2'),
    option3: text('option3'),
    // Null: the product's price.
    priceCents: integer('price_cents'),
    // The 'de' price of 'De R$ 199 por R$ 149'; shown only when above the price.
    compareAtPriceCents: integer('compare_at_price_cents'),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    // For carriers: grams and millimetres (null: not given).
    weightGrams: integer('weight_grams'),
    lengthMm: integer('length_mm'),
    widthMm: integer('width_mm'),
    heightMm: integer('height_mm'),
    // The variant's own pictures (a colour's photos); empty: the product's.
    imageUrls: text('image_urls')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // The barcode (GTIN-8, -12, -13 or -14; its check digit is checked by the forms) and the
    // maker's part number; '' when the variant has none.
    gtin: text('gtin').notNull().default(''),
    mpn: text('mpn').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('product_variants_price_cents_check', sql`${t.priceCents} >= 0`),
    check(
      'product_variants_gtin_check',
      sql`${t.gtin} = '' or ${t.gtin} ~ '^([0-9]{8}|[0-9]{12,14})$'`,
    ),
    check('product_variants_compare_at_price_cents_check', sql`${t.compareAtPriceCents} >= 0`),
    check('product_variants_stock_quantity_check', sql`${t.stockQuantity} >= 0`),
    check(
      'product_variants_measures_check',
      sql`${t.weightGrams} >= 0 and ${t.lengthMm} >= 0 and ${t.widthMm} >= 0 and ${t.heightMm} >= 0`,
    ),
    uniqueIndex('product_variants_sku_idx').on(t.sku),
    // One variant per combination of values.
    unique('product_variants_options_key')
      .on(t.productId, t.option1, t.option2, t.option3)
      .nullsNotDistinct(),
    index('product_variants_product_idx').on(t.productId, t.position),
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
    // The variant awaited (a size, a colour): each comes back in stock on its own.
    variantId: uuid('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
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
    // One open request per e-mail and variant: asking twice does one thing.
    uniqueIndex('restock_requests_open_idx')
      .on(t.variantId, t.email)
      .where(sql`${t.notifiedAt} is null`),
    index('restock_requests_created_at_idx').on(t.createdAt.desc()),
    uniqueIndex('restock_requests_confirm_token_idx').on(t.confirmTokenHash),
    // The background jobs' sweep of unconfirmed requests past their 7 days.
    index('restock_requests_unconfirmed_idx')
      .on(t.confirmationSentAt)
      .where(sql`${t.confirmedAt} is null`),
  ],
);
