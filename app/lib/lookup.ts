/**
 * The table's own entry for a key that came from outside (a form's intent, a provider's status),
 * never one its prototype lends: `table['toString']` is a function, not a missing entry.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
