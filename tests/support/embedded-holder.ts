// A process holding an embedded database as a running server does, answering db:backup's
// requests with the server's own code: tsx tests/support/embedded-holder.ts DATA_DIR BACKUP_DIR.
// Before it says 'ready' it writes one change of its own, for the backup to carry.
import { sql } from 'drizzle-orm';

import { startServerBackups } from '~/db/backup.server';
import { openDatabase } from '~/db/database.server';

const [dataDir, backupDir] = process.argv.slice(2) as [string, string];
const database = await openDatabase({ dataDir });
await database.db.execute(
  sql`update orders set tracking_code = 'BR000000001BR' where number = (select min(number) from orders)`,
);
const backups = startServerBackups(database, {
  DATA_DIR: dataDir,
  BACKUP_DIR: backupDir,
  BACKUP_INTERVAL_HOURS: 0,
  BACKUP_KEEP: 7,
});
// Serving, as a server's listener would keep it, until told to stop.
const serving = setInterval(() => {}, 60_000);
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  clearInterval(serving);
  void backups
    .stop()
    .then(() => database.close())
    .then(() => process.exit(0));
});
