import type { ChangeFeed } from './changes.server';

/** What a version cache needs of the database's change feed (context.changes). */
export type FeedVersion = Pick<ChangeFeed, 'version' | 'live'>;

interface Entry<T> {
  version: number;
  expires: number;
  /** The value itself while it loads, so the requests that ask meanwhile wait for it too. */
  value: Promise<T>;
}

/**
 * A cache of values read from the database, each good while the change feed's version stays
 * what it was when the value was read. While the feed is not live (a change may go unheard)
 * every call loads and nothing is kept. Least recently used entries go first; the age limit only
 * bounds the harm of a change that went unannounced all the same (a trigger dropped by hand).
 * A failed load is not kept, nor a value `keep` refuses: the next request tries again.
 */
export function createVersionCache<T>(options: {
  maxEntries: number;
  maxAgeMs: number;
  keep?: (value: T) => boolean;
}) {
  // Per feed: each server (and each test) has its own, and its entries go with it.
  const caches = new WeakMap<FeedVersion, Map<string, Entry<T>>>();
  return function cached(
    changes: FeedVersion | undefined,
    key: string,
    load: () => PromiseLike<T>,
  ): Promise<T> {
    if (!changes?.live()) return Promise.resolve(load());
    let entries = caches.get(changes);
    if (!entries) {
      entries = new Map();
      caches.set(changes, entries);
    }
    // Read before loading: a change that lands during the load moves the version past it.
    const version = changes.version();
    const now = Date.now();
    const kept = entries.get(key);
    entries.delete(key);
    if (kept && kept.version === version && kept.expires > now) {
      entries.set(key, kept);
      return kept.value;
    }
    // A query builder is only a thenable that runs again each time it is awaited: settled once.
    const value = Promise.resolve(load());
    const entry: Entry<T> = { version, expires: now + options.maxAgeMs, value };
    entries.set(key, entry);
    if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
    const forget = () => {
      if (entries.get(key) === entry) entries.delete(key);
    };
    entry.value.then((value) => {
      if (options.keep && !options.keep(value)) forget();
    }, forget);
    return entry.value;
  };
}
