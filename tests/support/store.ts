import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openDatabase, type Db } from '~/db/database.server';
import { storeSettings } from '~/db/schema';
import { initializeStore } from '~/flows/seed-sample-store.server';
import type { StoreMode } from '~/modules/settings';
import { saveSettings } from '~/modules/settings/index.server';

/**
 * Where the e2e global setup leaves a folder with the sample store already migrated and seeded
 * (see createStoreTemplate); each test's folder starts as a copy of it.
 */
export const STORE_TEMPLATE_ENV = 'VITRINE_TEST_STORE_TEMPLATE';

/**
 * A folder as a first start leaves it (migrated, with the sample store), for prepareStoreFolder to
 * copy: copying takes about a second where migrating and seeding take many (17–22 s on a busy
 * 2-core machine).
 */
export async function createStoreTemplate(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-e2e-template-'));
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    await initializeStore(database.db, { seed: true });
  } finally {
    await database.close();
  }
  return dataDir;
}

/** A fresh folder holding a copy of `template`'s database. */
async function copyOf(template: string, prefix: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  // The lock is the template's own (released, but its folder may linger); the copy gets its own.
  await cp(template, dataDir, { recursive: true, filter: (from) => !from.endsWith('.lock') });
  return dataDir;
}

/**
 * A `prepare` whose rows a second template of the run already holds (made by the e2e global
 * setup, its folder in the variable `templateEnv`): a folder it prepares starts as a copy of that
 * template instead of running it, which opens the folder (a second or so of CPU each).
 */
export type TemplatedPrepare = ((db: Db) => Promise<void>) & { templateEnv: string };

/** Copies `template` into a fresh folder, opens it and runs `prepare` on it: a template of its own. */
export async function createTemplateFrom(
  template: string,
  prepare: (db: Db) => Promise<void>,
): Promise<string> {
  const dataDir = await copyOf(template, 'vitrine-e2e-template-');
  const database = await openDatabase({ dataDir });
  try {
    await prepare(database.db);
  } finally {
    await database.close();
  }
  return dataDir;
}

/**
 * A fresh embedded-database folder with the sample store, these settings and whatever `prepare`
 * writes, ready for
 * `startServer({ dataDir })`. It is closed before returning: the server must be its only user.
 * The sample store is a demo, as on a first start; `live` makes it a live store that kept the
 * samples (a store upgraded from before the modes), for tests of what a live store shows.
 * Under the test runner it starts from the run's template; elsewhere (the benches) it migrates
 * and seeds.
 */
export async function prepareStoreFolder(
  settings: Record<string, unknown>,
  prepare?: (db: Db) => Promise<void>,
  mode: StoreMode = 'demo',
): Promise<string> {
  const prepared =
    prepare && 'templateEnv' in prepare
      ? process.env[(prepare as TemplatedPrepare).templateEnv]
      : undefined;
  const template = prepared ?? process.env[STORE_TEMPLATE_ENV];
  const rest = prepared ? undefined : prepare;
  const dataDir = template
    ? await copyOf(template, 'vitrine-e2e-')
    : await mkdtemp(join(tmpdir(), 'vitrine-e2e-'));
  // Opening the copy to change nothing would cost a second or two of CPU.
  if (template && Object.keys(settings).length === 0 && !rest && mode === 'demo') return dataDir;
  const database = await openDatabase({ dataDir });
  try {
    if (!template) {
      await database.migrate();
      await initializeStore(database.db, { seed: true });
    }
    const saved = await saveSettings(database.db, settings);
    if (!saved.success) throw new Error(`Invalid test settings: ${JSON.stringify(saved.errors)}`);
    if (mode === 'live') await database.db.update(storeSettings).set({ mode });
    await rest?.(database.db);
  } finally {
    await database.close();
  }
  return dataDir;
}
