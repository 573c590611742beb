import { readFile } from 'node:fs/promises';

import { getTableName, is, sql, type SQL } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { beforeAll, beforeEach, describe, inject } from 'vitest';

import { createChangeFeed } from '~/db/changes.server';
import { openDatabase, type Database, type Db } from '~/db/database.server';
import * as schema from '~/db/schema';
import { createSettingsStore, type SettingsStore } from '~/modules/settings/index.server';

import { createDatabase, TEST_DATABASE_URL, uniqueDatabaseName } from './postgres';

export type Backend = 'pglite' | 'postgres';

/** The backends database tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testBackends(): Backend[] {
  return inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];
}

// One database per backend per test worker, emptied before each test. The db project runs its
// files without isolation (vitest.config.ts), so this module, and the databases it opened, last as
// long as the worker: a file no longer pays for loading a PGlite (about a second and 700 MB) or
// copying a PostgreSQL template. The worker's exit closes them; the run's global setup drops the
// PostgreSQL ones (their names start with the run's prefix).
const opened = new Map<Backend, Promise<{ database: Database }>>();

/** A PGlite database of its own, in memory, from the run's migrated template. */
export async function openPgliteFromTemplate(): Promise<Database> {
  const dump = await readFile(inject('pgliteTemplate'));
  return openDatabase({ memory: true, loadDataDir: new Blob([dump]) });
}

async function open(backend: Backend) {
  if (backend === 'pglite') return { database: await openPgliteFromTemplate() };
  const template = inject('postgresTemplate');
  if (!TEST_DATABASE_URL || !template) throw new Error('PostgreSQL tests need TEST_DATABASE_URL');
  const url = await createDatabase(
    TEST_DATABASE_URL,
    uniqueDatabaseName(inject('postgresTestPrefix')),
    template,
  );
  const database = await openDatabase({ databaseUrl: url, poolMax: 4 });
  return { database };
}

const TABLES = Object.values(schema)
  .filter((value) => is(value, PgTable))
  .map((table) => `"${getTableName(table)}"`);

export async function emptyTables(db: Db): Promise<void> {
  await db.execute(sql.raw(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY CASCADE`));
}

export interface DbContext {
  backend: Backend;
  /** The database of this backend, empty at the start of each test. */
  database(): Database;
  db(): Db;
}

/** Declares a block of database tests once per backend. */
export function describeDb(name: string, body: (ctx: DbContext) => void): void {
  for (const backend of testBackends()) {
    describe(`${name} [${backend}]`, () => {
      let database: Database | undefined;
      beforeAll(async () => {
        if (!opened.has(backend)) opened.set(backend, open(backend));
        database = (await opened.get(backend)!).database;
      });
      beforeEach(async () => {
        await emptyTables(database!.db);
      });
      body({
        backend,
        database: () => database!,
        db: () => database!.db,
      });
    });
  }
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The settings store the server builds: over the database's own change announcements. */
export async function openSettingsStore(database: Database): Promise<SettingsStore> {
  const changes = await createChangeFeed(database);
  const store = createSettingsStore(database.db, changes);
  return {
    ...store,
    async close() {
      await store.close();
      await changes.close();
    },
  };
}
