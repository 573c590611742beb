// npm run db:migrate | db:seed — the same database the server would open (DATA_DIR or DATABASE_URL).
import { databaseOptionsFromEnv, openDatabase } from '~/db/database.server';
import { seedSampleStore } from '~/flows/seed-sample-store.server';
import { parseEnv } from '~/lib/env.server';

const command = process.argv[2];
if (command !== 'migrate' && command !== 'seed') {
  console.error('Usage: tsx scripts/db.ts migrate|seed');
  process.exit(2);
}

try {
  const database = await openDatabase(databaseOptionsFromEnv(parseEnv()));
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
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
