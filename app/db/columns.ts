import { timestamp } from 'drizzle-orm/pg-core';

/** Every time is stored with its time zone, so dates read right in any Brazilian zone. */
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
