// Lives in lib, not beside the uuid columns in db/: routes check ids from URLs too, and they
// reach the database only through modules (ADR 021).
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
