import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openDatabase, type Db } from '~/db/database.server';
import { storeSettings } from '~/db/schema';
import { initializeStore } from '~/flows/seed-sample-store.server';
import type { StoreMode } from '~/modules/settings';
import { saveSettings } from '~/modules/settings/index.server';

/**
 * A fresh embedded-database folder with the sample store, these settings and whatever `prepare`
 * writes, ready for
 * `startServer({ dataDir })`. It is closed before returning: the server must be its only user.
 * The sample store is a demo, as on a first start; `live` makes it a live store that kept the
 * samples (a store upgraded from before the modes), for tests of what a live store shows.
 */
export async function prepareStoreFolder(
  settings: Record<string, unknown>,
  prepare?: (db: Db) => Promise<void>,
  mode: StoreMode = 'demo',
): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-e2e-'));
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    await initializeStore(database.db, { seed: true });
    const saved = await saveSettings(database.db, settings);
    if (!saved.success) throw new Error(`Invalid test settings: ${JSON.stringify(saved.errors)}`);
    if (mode === 'live') await database.db.update(storeSettings).set({ mode });
    await prepare?.(database.db);
  } finally {
    await database.close();
  }
  return dataDir;
}
