import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';
import { products } from '../catalog/schema';

/**
 * A shopper who proved an e-mail with a code (ADR 046). The e-mail, lower case, is who they are:
 * orders, reviews and alerts are found by it, so a guest purchase made with it before the
 * account existed is theirs too. Deleting the row deletes everything below it.
 */
export const shoppers = pgTable(
  'shoppers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('shoppers_email_idx').on(t.email),
    check('shoppers_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

/** What a code proves: a sign-in, or the wish to delete the account (asked again, fresh). */
export const SHOPPER_CODE_PURPOSES = ['sign-in', 'delete'] as const;
export type ShopperCodePurpose = (typeof SHOPPER_CODE_PURPOSES)[number];

/**
 * Six-digit codes e-mailed to prove an e-mail. The row is made when asked for; the code itself
 * is made as its e-mail is sent (a retried e-mail gets a new one) and only its SHA-256, salted
 * with the row's id, is kept. `tries` counts checks against it, spent by one atomic UPDATE each.
 */
export const shopperCodes = pgTable(
  'shopper_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    purpose: text('purpose').$type<ShopperCodePurpose>().notNull(),
    codeHash: text('code_hash'),
    tries: integer('tries').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('shopper_codes_email_idx').on(t.email, t.purpose, t.createdAt.desc()),
    index('shopper_codes_expires_at_idx').on(t.expiresAt),
    check('shopper_codes_purpose_check', sql`${t.purpose} in ('sign-in', 'delete')`),
    check('shopper_codes_tries_check', sql`${t.tries} >= 0`),
  ],
);

/** A browser signed in as a shopper: apart from staff sessions (modules/auth), 90 days. */
export const shopperSessions = pgTable(
  'shopper_sessions',
  {
    // SHA-256 of the token in the cookie, so a leaked table cannot be replayed as sessions.
    id: text('id').primaryKey(),
    shopperId: uuid('shopper_id')
      .notNull()
      .references(() => shoppers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('shopper_sessions_shopper_idx').on(t.shopperId),
    index('shopper_sessions_expires_at_idx').on(t.expiresAt),
  ],
);

/** Addresses a shopper keeps for the checkout; at most one is the default. */
export const shopperAddresses = pgTable(
  'shopper_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    shopperId: uuid('shopper_id')
      .notNull()
      .references(() => shoppers.id, { onDelete: 'cascade' }),
    zipCode: text('zip_code').notNull(),
    street: text('street').notNull(),
    number: text('number').notNull(),
    complement: text('complement').notNull().default(''),
    neighborhood: text('neighborhood').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('shopper_addresses_shopper_idx').on(t.shopperId, t.createdAt),
    uniqueIndex('shopper_addresses_default_idx')
      .on(t.shopperId)
      .where(sql`${t.isDefault}`),
  ],
);

/** Favourites kept with the account (the browser keeps its own copy in localStorage). */
export const shopperFavorites = pgTable(
  'shopper_favorites',
  {
    shopperId: uuid('shopper_id')
      .notNull()
      .references(() => shoppers.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.shopperId, t.productId] })],
);
