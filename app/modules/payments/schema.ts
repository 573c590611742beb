import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';

import { PAYMENT_METHODS, PAYMENT_STATUSES, type PaymentMethod, type PaymentStatus } from './types';

const listed = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

/** The sandbox provider's own book of payments: what a real gateway would keep on its side. */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status').$type<PaymentStatus>().notNull().default('pending'),
    method: text('method').$type<PaymentMethod>().notNull().default('pix'),
    // A PIX's code; a card or a boleto has none.
    pixCode: text('pix_code'),
    // The instalments the tester chose when approving a card payment.
    installments: integer('installments'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('sandbox_payments_status_check', sql.raw(`status in (${listed(PAYMENT_STATUSES)})`)),
    check('sandbox_payments_method_check', sql.raw(`method in (${listed(PAYMENT_METHODS)})`)),
    check(
      'sandbox_payments_pix_code_check',
      sql`(${t.method} = 'pix') = (${t.pixCode} is not null)`,
    ),
    check(
      'sandbox_payments_installments_check',
      sql`${t.installments} is null or (${t.method} = 'credit_card' and ${t.installments} between 1 and 24)`,
    ),
  ],
);

/**
 * A provider's OAuth2 access token, shared by every instance (the API Pix's, from the bank's
 * token endpoint): sealed under the secrets key, with its expiry, and the lease of the one
 * instance renewing it, so fifty charges on two instances ask the bank for one token.
 */
export const providerTokens = pgTable('provider_tokens', {
  name: text('name').primaryKey(),
  sealed: text('sealed'),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  renewingUntil: timestamp('renewing_until', { withTimezone: true }),
  updatedAt: updatedAt(),
});
