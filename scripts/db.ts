// npm run db:migrate | db:seed | db:backup | db:restore -- FILE — the same database the server
// would open (DATA_DIR or DATABASE_URL).
import { stat } from 'node:fs/promises';

import { backupDatabase, restoreDatabase } from '~/db/backup.server';
import { databaseOptionsFromEnv, openDatabase } from '~/db/database.server';
import { seedSampleStore } from '~/flows/seed-sample-store.server';
import { parseEnv } from '~/lib/env.server';

const USAGE =
  'Usage: npm run db:migrate | npm run db:seed | npm run db:backup | npm run db:restore -- FILE';

const [command, ...args] = process.argv.slice(2);
const expected = { migrate: 0, seed: 0, backup: 0, restore: 1 } as const;
if (
  !command ||
  !(command in expected) ||
  args.length !== expected[command as keyof typeof expected]
) {
  console.error(command === 'restore' ? `Name one backup file to restore.\n${USAGE}` : USAGE);
  process.exit(2);
}

try {
  const env = parseEnv();
  if (command === 'backup') {
    const started = performance.now();
    const file = await backupDatabase(env);
    const { size } = await stat(file);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Backup written: ${file} (${(size / 1_048_576).toFixed(1)} MiB, ${seconds} s).`);
  } else if (command === 'restore') {
    console.log(await restoreDatabase(env, args[0]!));
  } else {
    const database = await openDatabase(databaseOptionsFromEnv(env));
    try {
      await database.migrate();
      console.log(`Migrations applied (${database.kind}).`);
      if (command === 'seed') {
        await seedSampleStore(database.db);
        console.log('Sample catalogue created: 3 categories, 8 products, 6 reviews.');
      }
    } finally {
      await database.close();
    }
  }
} catch (error) {
  // The message alone: an operator's mistake (a busy folder, a full database) is no stack trace.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
