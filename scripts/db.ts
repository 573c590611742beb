// npm run db:migrate | db:seed | db:backup | db:restore -- FILE — the same database the server
// would open (DATA_DIR or DATABASE_URL).
import { stat } from 'node:fs/promises';

import { backupDatabase, restoreDatabase } from '~/db/backup.server';
import { databaseOptionsFromEnv, openDatabase } from '~/db/database.server';
import { seedSampleStore } from '~/flows/seed-sample-store.server';
import { parseEnv } from '~/lib/env.server';

import { failureMessage } from './admin-cli';

const USAGE =
  'Uso: npm run db:migrate | npm run db:seed | npm run db:backup | npm run db:restore -- ARQUIVO';

const [command, ...args] = process.argv.slice(2);
const expected = { migrate: 0, seed: 0, backup: 0, restore: 1 } as const;
if (
  !command ||
  !(command in expected) ||
  args.length !== expected[command as keyof typeof expected]
) {
  console.error(
    command === 'restore' ? `Informe um arquivo de backup para restaurar.\n${USAGE}` : USAGE,
  );
  process.exit(2);
}

try {
  const env = parseEnv();
  if (command === 'backup') {
    const started = performance.now();
    const file = await backupDatabase(env);
    const { size } = await stat(file);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const mib = (size / 1_048_576).toLocaleString('pt-BR', { maximumFractionDigits: 1 });
    console.log(`Backup gravado: ${file} (${mib} MiB, ${seconds.replace('.', ',')} s).`);
  } else if (command === 'restore') {
    console.log(await restoreDatabase(env, args[0]!));
  } else {
    const database = await openDatabase(databaseOptionsFromEnv(env));
    try {
      await database.migrate();
      console.log(`Migrações aplicadas (${database.kind}).`);
      if (command === 'seed') {
        await seedSampleStore(database.db);
        console.log('Catálogo de exemplo criado: categorias, produtos e avaliações.');
      }
    } finally {
      await database.close();
    }
  }
} catch (error) {
  // The message alone: an operator's mistake (a busy folder, a full database) is no stack trace.
  console.error(failureMessage(error));
  process.exit(1);
}
