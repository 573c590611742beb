import { timestamp } from 'drizzle-orm/pg-core';

/** Every time is stored with its time zone, so dates read right in any Brazilian zone. */
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether text from a URL or form can be compared with a uuid column: PostgreSQL answers a
 * malformed uuid with an error, where the shopper should simply find nothing.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * The ids worth asking PostgreSQL about, each once: it rejects a malformed uuid with an error
 * instead of matching nothing.
 */
export function distinctUuids(ids: readonly string[]): string[] {
  return [...new Set(ids)].filter((id) => isUuid(id));
}
