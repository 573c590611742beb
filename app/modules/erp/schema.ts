import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';
import { orders } from '../orders/schema';

import type { ErpName, InvoiceState, SendState } from './erp';

/**
 * The store's authorization at its ERP (ADR 048): the OAuth tokens sealed under the secrets key
 * (never in clear), when the access token expires, and the lease one instance takes while it
 * renews them, so that the refresh token (single use at Bling) is spent once for all instances.
 */
export const erpConnections = pgTable(
  'erp_connections',
  {
    provider: text('provider').$type<ErpName>().primaryKey(),
    sealedAccessToken: text('sealed_access_token').notNull(),
    sealedRefreshToken: text('sealed_refresh_token').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the ERP refused the refresh token: staff must connect again. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    refreshLeaseUntil: timestamp('refresh_lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('erp_connections_sealed_check', sql`${t.sealedAccessToken} like 'v1.%'`),
    check('erp_connections_sealed_refresh_check', sql`${t.sealedRefreshToken} like 'v1.%'`),
  ],
);

/** A 'Conectar ao Bling' under way: the state's hash, single use, for the callback to check. */
export const erpOauthStates = pgTable('erp_oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  provider: text('provider').$type<ErpName>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** An order's life at the ERP: its sales order there, and its NF-e. */
export const erpOrders = pgTable(
  'erp_orders',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<ErpName>().notNull(),
    sendState: text('send_state').$type<SendState>().notNull(),
    erpOrderId: text('erp_order_id'),
    /** Why the ERP refused the order (pt-BR), until it is sent again. */
    sendError: text('send_error'),
    /** Staff (or invoice_on = paid) asked for the NF-e: issued once the order is at the ERP. */
    invoiceRequested: boolean('invoice_requested').notNull().default(false),
    invoiceId: text('invoice_id'),
    invoiceState: text('invoice_state').$type<InvoiceState>(),
    invoiceNumber: text('invoice_number'),
    invoiceKey: text('invoice_key'),
    danfeUrl: text('danfe_url'),
    /** SEFAZ's reason for a rejected note, in its own words. */
    invoiceReason: text('invoice_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('erp_orders_send_state_check', sql`${t.sendState} in ('queued', 'sent', 'refused')`),
    check(
      'erp_orders_invoice_state_check',
      sql`${t.invoiceState} is null or ${t.invoiceState} in ('issuing', 'pending', 'authorized', 'rejected', 'cancelled')`,
    ),
    check(
      'erp_orders_invoice_key_check',
      sql`${t.invoiceKey} is null or ${t.invoiceKey} ~ '^[0-9]{44}$'`,
    ),
    check('erp_orders_sent_check', sql`(${t.sendState} = 'sent') = (${t.erpOrderId} is not null)`),
  ],
);
