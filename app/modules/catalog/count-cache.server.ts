import type { ChangeFeed } from '~/db/changes.server';

/** What the count cache needs of the database's change feed (context.changes). */
export type CatalogueChanges = Pick<ChangeFeed, 'version' | 'live'>;

// Filters are mostly searches: a few thousand keep the popular ones in well under a megabyte.
export const MAX_COUNTS = 2_000;
// The feed's version is what keeps a count right; the age limit only bounds the harm of a
// change that went unannounced all the same (a trigger dropped by hand, say).
const MAX_AGE_MS = 5 * 60_000;

interface Entry {
  version: number;
  expires: number;
  /** The count itself while it runs, so the requests that ask meanwhile wait for it too. */
  total: Promise<number>;
}

// Per feed: each server (and each test) has its own, and its counts go with it.
const caches = new WeakMap<CatalogueChanges, Map<string, Entry>>();

/**
 * The catalogue's `count(*)` for one set of filters (`key`), made by `count` at most once per
 * version of `changes`: it is the only catalogue query whose cost grows with the catalogue, and
 * a listing runs it on every page. While the feed is not live (a change may go unheard) the
 * count is made every time and nothing is kept. Least recently used entries go first.
 */
export function countProductsCached(
  changes: CatalogueChanges | undefined,
  key: string,
  count: () => Promise<number>,
): Promise<number> {
  if (!changes?.live()) return count();
  let entries = caches.get(changes);
  if (!entries) {
    entries = new Map();
    caches.set(changes, entries);
  }
  // Read before counting: a change that lands during the count moves the version past it.
  const version = changes.version();
  const now = Date.now();
  const kept = entries.get(key);
  entries.delete(key);
  if (kept && kept.version === version && kept.expires > now) {
    entries.set(key, kept);
    return kept.total;
  }
  const entry: Entry = { version, expires: now + MAX_AGE_MS, total: count() };
  entries.set(key, entry);
  if (entries.size > MAX_COUNTS) entries.delete(entries.keys().next().value!);
  // A failed count is not kept: the next request tries again (and this one gets the error).
  entry.total.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return entry.total;
}
