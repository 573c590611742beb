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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt } from '../../db/columns';

export const ABANDONED_STATUSES = ['open', 'emailed', 'converted'] as const;
export type AbandonedStatus = (typeof ABANDONED_STATUSES)[number];

/** A cart line as the recovery keeps it: what the cart cookie holds, to be priced again. */
export interface KeptLine {
  productId: string;
  variantId: string | null;
  quantity: number;
  /** The product's name then, for the admin list and the e-mail (never its price). */
  name: string;
}

/**
 * A checkout where the shopper typed a valid e-mail: the cart as it was then (its lines, priced
 * for the admin list), who typed it, and what became of it. `open` waits for its delay;
 * `emailed` was claimed by one sweep and got its one e-mail; `converted` became an order (in the
 * order's own transaction), `recovered` when that order came through the recovery link.
 */
export const abandonedCheckouts = pgTable(
  'abandoned_checkouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    /** Digits only, with the area code; empty when not typed yet. */
    phone: text('phone').notNull().default(''),
    lines: jsonb('lines').$type<KeptLine[]>().notNull(),
    valueCents: integer('value_cents').notNull(),
    status: text('status').$type<AbandonedStatus>().notNull().default('open'),
    /** When the shopper last typed: the e-mail is due `abandoned_checkout_delay_minutes` after. */
    typedAt: timestamp('typed_at', { withTimezone: true }).notNull(),
    /** When the cart cookie it was saved from expires: the recovery link with it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When its one e-mail went (claimed, `emailed`, it may still wait in the outbox). */
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    /** When a recovery link last restored it. */
    restoredAt: timestamp('restored_at', { withTimezone: true }),
    convertedAt: timestamp('converted_at', { withTimezone: true }),
    orderId: uuid('order_id'),
    orderTotalCents: integer('order_total_cents'),
    recovered: boolean('recovered').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check('abandoned_checkouts_value_check', sql`${t.valueCents} >= 0`),
    // The sweep's search: open checkouts by when they were typed.
    index('abandoned_checkouts_open_idx')
      .on(t.typedAt)
      .where(sql`${t.status} = 'open'`),
    // One open checkout per address: the checkout's requests racing (several fields left in a
    // row, two browsers) keep one cart, and so send one e-mail.
    uniqueIndex('abandoned_checkouts_open_email_idx')
      .on(t.email)
      .where(sql`${t.status} = 'open'`),
    index('abandoned_checkouts_email_idx').on(t.email),
    index('abandoned_checkouts_created_at_idx').on(t.createdAt.desc()),
    index('abandoned_checkouts_converted_idx')
      .on(t.convertedAt)
      .where(sql`${t.recovered}`),
  ],
);

export const RECOVERY_KEY_PURPOSES = ['restore', 'unsubscribe'] as const;
export type RecoveryKeyPurpose = (typeof RECOVERY_KEY_PURPOSES)[number];

/**
 * The keys of the recovery links: only their SHA-256 is kept. A `restore` key restores its
 * checkout's cart until the cart would have expired; an `unsubscribe` key opts its e-mail out.
 */
export const recoveryKeys = pgTable(
  'recovery_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    purpose: text('purpose').$type<RecoveryKeyPurpose>().notNull(),
    checkoutId: uuid('checkout_id').references(() => abandonedCheckouts.id, {
      onDelete: 'cascade',
    }),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('recovery_keys_email_idx').on(t.email),
    index('recovery_keys_expires_idx').on(t.expiresAt),
  ],
);

/** E-mails that asked for no recovery e-mail (lower case). */
export const recoveryOptOuts = pgTable('recovery_opt_outs', {
  email: text('email').primaryKey(),
  optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull(),
});
