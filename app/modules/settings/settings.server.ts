import { eq, sql } from 'drizzle-orm';

import type { ChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';

import { storeSettings } from './schema';
import {
  defaultSettings,
  parseSettingsPatch,
  resolveSettings,
  type SettingsErrors,
  type StoreSettings,
  validStoredValues,
} from './settings';

const ROW_ID = 1;

export async function readSettings(db: Db): Promise<StoreSettings> {
  const [row] = await db
    .select({ values: storeSettings.values })
    .from(storeSettings)
    .where(eq(storeSettings.id, ROW_ID));
  return resolveSettings(row?.values);
}

export type SaveSettingsResult =
  { success: true; settings: StoreSettings } | { success: false; errors: SettingsErrors };

/**
 * Validates and stores a change to some settings. Only values that were set are stored, so a
 * field left alone keeps following its default.
 */
export async function saveSettings(db: Db, input: unknown): Promise<SaveSettingsResult> {
  const patch = parseSettingsPatch(input);
  if (!patch.success) return patch;
  const values = await db.transaction(async (tx) => {
    // Row lock: two admins saving at once must not lose each other's fields.
    const [row] = await tx
      .select({ values: storeSettings.values })
      .from(storeSettings)
      .where(eq(storeSettings.id, ROW_ID))
      .for('update');
    const merged = { ...validStoredValues(row?.values), ...patch.values };
    await tx
      .insert(storeSettings)
      .values({ id: ROW_ID, values: merged })
      .onConflictDoUpdate({
        target: storeSettings.id,
        set: { values: merged, updatedAt: sql`now()` },
      });
    return merged;
  });
  return { success: true, settings: resolveSettings(values) };
}

/** Creates the settings record if there is none; true when this call created it. */
export async function ensureSettingsRecord(db: Db): Promise<boolean> {
  const inserted = await db
    .insert(storeSettings)
    .values({ id: ROW_ID })
    .onConflictDoNothing()
    .returning({ id: storeSettings.id });
  return inserted.length > 0;
}

export interface SettingsStore {
  get(): Promise<StoreSettings>;
  save(input: unknown): Promise<SaveSettingsResult>;
  close(): Promise<void>;
}

/**
 * Settings read through a cache. The cache is used only while the database's change
 * notifications are flowing; a trigger announces every change, whoever made it, so every
 * instance drops its copy at once. While notifications are down, every read goes to the
 * database. The page cache hears the same announcements after this store, so it never keeps a
 * page rendered with settings that were already replaced.
 */
export function createSettingsStore(db: Db, changes: ChangeFeed): SettingsStore {
  let cached: Promise<StoreSettings> | undefined;
  const unsubscribe = changes.subscribe((table) => {
    if (table === null || table === 'store_settings') cached = undefined;
  });

  return {
    get() {
      const live = changes.live();
      if (live && cached) return cached;
      // The store keeps its look while the database is down; the pages that need data say so.
      // A failed read is never kept in the cache.
      const reading: Promise<StoreSettings> = readSettings(db).catch((error: unknown) => {
        if (cached === reading) cached = undefined;
        logger.error({ err: error }, 'Could not read the store settings; using the defaults');
        return defaultSettings();
      });
      if (live) cached = reading;
      return reading;
    },
    async save(input) {
      const result = await saveSettings(db, input);
      // Also drop it here: this instance's next request may come before the notification does.
      if (result.success) cached = undefined;
      return result;
    },
    close: async () => unsubscribe(),
  };
}
