import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

import { createdAt } from '../../db/columns';

export const OUTBOX_STATUSES = ['pending', 'done', 'failed'] as const;

/**
 * Work to do after a transaction commits (tracking calls, e-mails): written in the same
 * transaction as the change that causes it, so it is never lost nor done for a rolled-back change.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    topic: text('topic').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').$type<(typeof OUTBOX_STATUSES)[number]>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_pending_run_at_idx')
      .on(t.runAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Work done every few minutes by whichever instance comes first (the API Pix's reconciliation):
 * an instance runs it only when it moves `next_run_at` on itself, which one UPDATE decides.
 */
export const recurringRuns = pgTable('recurring_runs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
});
