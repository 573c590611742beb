import { logger } from '~/lib/logger.server';

import type { Database } from './database.server';

/** The channel database triggers notify when what the storefront shows changes (drizzle/0009). */
const STOREFRONT_CHANNEL = 'storefront_changed';

/** The tables whose changes are announced: a notification's payload names one of them. */
export type ChangedTable =
  | 'products'
  | 'product_variants'
  | 'categories'
  | 'reviews'
  | 'store_settings'
  | 'coupons'
  | 'store_connections';

export interface ChangeFeed {
  /**
   * Moves on with every change notification and whenever notifications stop or resume, so a
   * value computed under one version is known good only while the version stays the same.
   */
  version(): number;
  /** Whether notifications are flowing. While false a change may go unheard: serve no cache. */
  live(): boolean;
  /**
   * The feed as seen by a cache of one table's rows: it moves on only with that table's changes
   * and whenever notifications stop or resume (the same object for the same table).
   */
  only(table: ChangedTable): Pick<ChangeFeed, 'version' | 'live'>;
  /** Calls `listener` on every change (null table: notifications stopped or resumed). */
  subscribe(listener: (table: ChangedTable | null) => void): () => void;
  close(): Promise<void>;
}

/**
 * This instance's ear on the database's change notifications: the caches in front of the
 * storefront (pages, catalogue counts) key their entries by its version and bypass themselves
 * while it is not live.
 */
export async function createChangeFeed(database: Database): Promise<ChangeFeed> {
  let version = 0;
  let live = false;
  const tableVersions = new Map<ChangedTable, number>();
  const views = new Map<ChangedTable, Pick<ChangeFeed, 'version' | 'live'>>();
  const listeners = new Set<(table: ChangedTable | null) => void>();
  const announce = (table: ChangedTable | null) => {
    version += 1;
    // A stop or resume moves every table's version on: one of them may have gone unheard.
    for (const name of table ? [table] : tableVersions.keys()) {
      tableVersions.set(name, (tableVersions.get(name) ?? 0) + 1);
    }
    for (const listener of listeners) {
      try {
        listener(table);
      } catch (error) {
        logger.error({ err: error }, 'A change listener failed');
      }
    }
  };
  const stop = await database.listen(STOREFRONT_CHANNEL, {
    onNotify: (payload) => announce(payload as ChangedTable),
    onLiveChange(isLive) {
      live = isLive;
      announce(null);
    },
  });
  return {
    version: () => version,
    live: () => live,
    only(table) {
      let view = views.get(table);
      if (!view) {
        tableVersions.set(table, tableVersions.get(table) ?? 0);
        view = { version: () => tableVersions.get(table)!, live: () => live };
        views.set(table, view);
      }
      return view;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: stop,
  };
}

/**
 * One read kept while the change feed is live (every read goes to the database while it is not);
 * a failed read is logged, answered with the fallback and never kept.
 */
export function cachedRead<T>(
  changes: ChangeFeed,
  read: () => Promise<T>,
  options: { fallback: () => T; failure: string },
): { read(): Promise<T>; forget(): void } {
  let cached: Promise<T> | undefined;
  return {
    read() {
      const live = changes.live();
      if (live && cached) return cached;
      const reading: Promise<T> = read().catch((error: unknown) => {
        if (cached === reading) cached = undefined;
        logger.error({ err: error }, options.failure);
        return options.fallback();
      });
      if (live) cached = reading;
      return reading;
    },
    forget() {
      cached = undefined;
    },
  };
}
