import { createVersionCache, type FeedVersion } from '~/db/version-cache.server';

/** What the count cache needs of the database's change feed (context.changes). */
export type CatalogueChanges = FeedVersion;

// Filters are mostly searches: a few thousand keep the popular ones in well under a megabyte.
const MAX_COUNTS = 2_000;

/**
 * The catalogue's `count(*)` for one set of filters (`key`), made by `count` at most once per
 * version of `changes`: it is the only catalogue query whose cost grows with the catalogue, and
 * a listing runs it on every page.
 */
export const countProductsCached = createVersionCache<number>({
  maxEntries: MAX_COUNTS,
  maxAgeMs: 5 * 60_000,
});
