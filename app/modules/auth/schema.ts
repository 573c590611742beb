import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

export const adminUsers = pgTable(
  'admin_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<'admin'>().notNull().default('admin'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('admin_users_email_idx').on(sql`lower(${t.email})`),
    index('admin_users_created_at_idx').on(t.createdAt.desc()),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    // SHA-256 of the token in the cookie, so a leaked table cannot be replayed as sessions.
    id: text('id').primaryKey(),
    adminUserId: uuid('admin_user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('sessions_admin_user_id_idx').on(t.adminUserId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * One-time codes that allow creating the first admin, printed in the server log of the instance
 * that made them. Kept as SHA-256 like sessions; all are deleted once an admin exists.
 */
export const adminSetupCodes = pgTable('admin_setup_codes', {
  codeHash: text('code_hash').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * 'Esqueci minha senha': one row per request, valid for an hour. The token in the e-mail's link
 * is made when the e-mail is sent (a retried e-mail gets a new one) and only its SHA-256 is
 * kept; `used_at` lets a used link say so instead of looking unknown.
 */
export const adminPasswordResets = pgTable(
  'admin_password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminUserId: uuid('admin_user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('admin_password_resets_token_idx').on(t.tokenHash),
    index('admin_password_resets_admin_user_id_idx').on(t.adminUserId),
    index('admin_password_resets_expires_at_idx').on(t.expiresAt),
  ],
);
