import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

import type { CarrierQuote } from './types';

/**
 * Carriers' answers for a parcel between two CEPs, kept a few minutes so that every instance
 * answers the next shopper with the same cart and CEP without asking the carrier again. The
 * store's own terms (services, markup, handling days) are applied on reading, never stored.
 */
export const shippingQuotes = pgTable(
  'shipping_quotes',
  {
    // '<provider>:<from>:<to>:<grams>:<length>x<width>x<height>'
    key: text('key').primaryKey(),
    quotes: jsonb('quotes').$type<CarrierQuote[]>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('shipping_quotes_expires_at_idx').on(t.expiresAt)],
);
