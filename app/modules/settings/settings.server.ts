import { eq, sql } from 'drizzle-orm';

import { cachedRead, type ChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';

import type { StoreMode } from './mode';
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

/**
 * Creates the settings record if there is none, in the given mode (only a store created with the
 * sample data is a demo); true when this call created it.
 */
export async function ensureSettingsRecord(db: Db, mode: StoreMode = 'live'): Promise<boolean> {
  const inserted = await db
    .insert(storeSettings)
    .values({ id: ROW_ID, mode })
    .onConflictDoNothing()
    .returning({ id: storeSettings.id });
  return inserted.length > 0;
}

/** The store's mode; a database without a settings record yet is not a demo. */
export async function readStoreMode(db: Db): Promise<StoreMode> {
  const [row] = await db
    .select({ mode: storeSettings.mode })
    .from(storeSettings)
    .where(eq(storeSettings.id, ROW_ID));
  return row?.mode ?? 'live';
}

/**
 * Makes a demo store live, for good: nothing sets it back. Locks the record first, so of two
 * admins confirming at once only one does the work; false when the store was already live.
 */
export async function makeStoreLive(tx: Db): Promise<boolean> {
  const [row] = await tx
    .select({ mode: storeSettings.mode })
    .from(storeSettings)
    .where(eq(storeSettings.id, ROW_ID))
    .for('update');
  if (row?.mode !== 'demo') return false;
  await tx
    .update(storeSettings)
    .set({ mode: 'live', updatedAt: sql`now()` })
    .where(eq(storeSettings.id, ROW_ID));
  return true;
}

/**
 * Sets these settings back to their defaults where they still hold the value given (the sample
 * store's identity, say), leaving any the store has since changed; under the caller's lock.
 */
export async function clearSettingsStill(tx: Db, values: Partial<StoreSettings>): Promise<void> {
  const [row] = await tx
    .select({ values: storeSettings.values })
    .from(storeSettings)
    .where(eq(storeSettings.id, ROW_ID))
    .for('update');
  if (!row) return;
  const stored = validStoredValues(row.values) as Record<string, unknown>;
  const given = validStoredValues(values) as Record<string, unknown>;
  const kept = Object.fromEntries(
    Object.entries(stored).filter(([key, value]) => given[key] !== value),
  );
  await tx.update(storeSettings).set({ values: kept }).where(eq(storeSettings.id, ROW_ID));
}

export interface SettingsStore {
  get(): Promise<StoreSettings>;
  /** The store's mode, read and dropped with the settings (so every instance sees a change). */
  mode(): Promise<StoreMode>;
  save(input: unknown): Promise<SaveSettingsResult>;
  /** Drops this instance's copy after a change made elsewhere in this process (the others hear it). */
  forget(): void;
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
  const settings = cachedRead(changes, () => readSettings(db), {
    // The store keeps its look while the database is down; the pages that need data say so.
    fallback: defaultSettings,
    failure: 'Could not read the store settings; using the defaults',
  });
  const mode = cachedRead(changes, () => readStoreMode(db), {
    // Unreadable, the store counts as live: it then never takes pretend payments.
    fallback: () => 'live' as const,
    failure: 'Could not read the store mode; taking it as live',
  });
  const unsubscribe = changes.subscribe((table) => {
    if (table === null || table === 'store_settings') {
      settings.forget();
      mode.forget();
    }
  });

  return {
    get: settings.read,
    mode: mode.read,
    async save(input) {
      const result = await saveSettings(db, input);
      // Also drop it here: this instance's next request may come before the notification does.
      if (result.success) settings.forget();
      return result;
    },
    forget() {
      settings.forget();
      mode.forget();
    },
    close: async () => unsubscribe(),
  };
}
