import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';

import { openDatabase, PGLITE_EXTENSIONS } from '~/db/database.server';

import {
  createDatabase,
  databasesNamed,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated, empty PGlite database: loading it skips initdb and migrations. */
    pgliteTemplate: string;
    /** A migrated, empty PostgreSQL database each test worker copies; null without TEST_DATABASE_URL. */
    postgresTemplate: string | null;
    /** How the run's PostgreSQL test databases are named, so its teardown drops every one. */
    postgresTestPrefix: string;
  }
}

// Migrate once for the whole run; each test file then starts from a copy.
export default async function setup(project: TestProject) {
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  await migrate(drizzle({ client }), { migrationsFolder: 'drizzle' });
  const dumpPath = join(tmpdir(), `vitrine-test-template-${process.pid}.tar.gz`);
  await writeFile(dumpPath, Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer()));
  await client.close();
  project.provide('pgliteTemplate', dumpPath);

  let postgresTemplate: string | null = null;
  if (TEST_DATABASE_URL) {
    postgresTemplate = uniqueDatabaseName('vitrine_tmpl');
    const url = await createDatabase(TEST_DATABASE_URL, postgresTemplate);
    const postgres = await openDatabase({ databaseUrl: url, poolMax: 1 });
    await postgres.migrate();
    await postgres.close();
  }
  project.provide('postgresTemplate', postgresTemplate);
  const testPrefix = uniqueDatabaseName('vitrine_test');
  project.provide('postgresTestPrefix', testPrefix);

  return async () => {
    if (!TEST_DATABASE_URL || !postgresTemplate) return;
    await dropDatabase(TEST_DATABASE_URL, postgresTemplate);
    for (const name of await databasesNamed(TEST_DATABASE_URL, `${testPrefix}_`)) {
      await dropDatabase(TEST_DATABASE_URL, name);
    }
  };
}
