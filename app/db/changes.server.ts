import { logger } from '~/lib/logger.server';

import type { Database } from './database.server';

/** The channel database triggers notify when what the storefront shows changes (drizzle/0009). */
const STOREFRONT_CHANNEL = 'storefront_changed';

/** The tables whose changes are announced: a notification's payload names one of them. */
export type ChangedTable = 'products' | 'categories' | 'reviews' | 'store_settings';

export interface ChangeFeed {
  /**
   * Moves on with every change notification and whenever notifications stop or resume, so a
   * value computed under one version is known good only while the version stays the same.
   */
  version(): number;
  /** Whether notifications are flowing. While false a change may go unheard: serve no cache. */
  live(): boolean;
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
  const listeners = new Set<(table: ChangedTable | null) => void>();
  const announce = (table: ChangedTable | null) => {
    version += 1;
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
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: stop,
  };
}
