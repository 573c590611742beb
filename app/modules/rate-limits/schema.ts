import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per counted thing (sign-in guesses for an e-mail from an address, checkouts from an
 * address...), in the database so that every app instance counts the same attempts.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    // '<limit name>:<address>' or '<limit name>:<account>|<address>'.
    key: text('key').primaryKey(),
    /** Attempts let through since the count was last forgotten. */
    hits: integer('hits').notNull(),
    /** Attempts are refused until then (null: not locked). */
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    /** From then on the row counts as never seen; the sweep deletes it. */
    forgetAt: timestamp('forget_at', { withTimezone: true }).notNull(),
    /**
     * The verdict on the latest attempt: written by the same upsert that counts it, so that its
     * RETURNING can tell (it sees only the new row).
     */
    allowed: boolean('allowed').notNull(),
  },
  (t) => [index('rate_limits_forget_at_idx').on(t.forgetAt)],
);
