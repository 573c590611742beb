import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

import { PGLITE_EXTENSIONS } from '~/db/database.server';

/**
 * Runs a migration's own SQL over data written before it: migrates a fresh PGlite up to the
 * migration whose tag ends with `tagSuffix`, lets `before` write rows as the older schema had
 * them, runs the rest, and hands the database to `after`. Both databases run the same files.
 */
export async function acrossMigration(
  tagSuffix: string,
  before: (client: PGlite) => Promise<void>,
  after: (client: PGlite) => Promise<void>,
): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'vitrine-migrations-'));
  try {
    await cp('drizzle', folder, { recursive: true });
    const journalPath = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
      entries: { tag: string }[];
    };
    const at = journal.entries.findIndex((entry) => entry.tag.endsWith(tagSuffix));
    if (at <= 0) throw new Error(`No migration ${tagSuffix}`);
    await writeFile(
      journalPath,
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }),
    );
    const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    try {
      await migrate(drizzle({ client }), { migrationsFolder: folder });
      await before(client);
      await writeFile(journalPath, JSON.stringify(journal));
      await migrate(drizzle({ client }), { migrationsFolder: folder });
      await after(client);
    } finally {
      await client.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
