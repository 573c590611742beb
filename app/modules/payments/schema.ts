import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

import { PAYMENT_STATUSES, type PaymentStatus } from './types';

/** The sandbox provider's own book of payments: what a real gateway would keep on its side. */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status').$type<PaymentStatus>().notNull().default('pending'),
    pixCode: text('pix_code').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [
    check(
      'sandbox_payments_status_check',
      sql.raw(`status in (${PAYMENT_STATUSES.map((status) => `'${status}'`).join(', ')})`),
    ),
  ],
);
