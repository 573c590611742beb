import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';

import {
  backupDatabase,
  BackupError,
  pruneScheduledBackups,
  restoreDatabase,
  startServerBackups,
} from '~/db/backup.server';
import { openDatabase, type Database, type Db } from '~/db/database.server';
import { products } from '~/db/schema';
import { placeOrder } from '~/flows/place-order.server';
import { defaultSettings } from '~/modules/settings';

import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { shopperAddress } from '../support/shoppers';
import { until } from '../support/until';
import { shopperCheckout } from '../support/visitor';

const ROOT = join(import.meta.dirname, '..', '..');
// Through this Node: a command's PATH may hold no `node` (the test of a missing pg_dump).
const TSX = [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs')];
const PRODUCT = '5a3b1e00-0000-4000-8000-00000000b001';
// The store of 10,000 orders on PostgreSQL; the embedded database's copy, compared the
// same way, is smaller, since a PGlite test keeps a core busy beside the other files' tests.
const ORDERS = 10_000;
const EMBEDDED_ORDERS = 1_000;

/**
 * A store with orders: a few placed through the checkout's flow (lines, adjustments, events,
 * outbox jobs, the number sequence), then `count` more written in one statement, of every status.
 */
async function fillStore(db: Db, count: number): Promise<void> {
  await db
    .insert(products)
    .values({ id: PRODUCT, name: 'Cabo USB-C', priceCents: 3990, stockQuantity: 1_000_000 });
  for (let i = 0; i < 3; i++) {
    const result = await placeOrder(
      db,
      {
        form: shopperCheckout(),
        cart: [
          {
            productId: PRODUCT,
            variantId: null,
            quantity: 1 + i,
            seenPriceCents: 3990,
            seenName: 'Cabo USB-C',
          },
        ],
        orderToken: randomUUID(),
        clientAddress: shopperAddress(),
        trackingParameters: { utm_source: 'instagram' },
        settings: defaultSettings(),
      },
      { tracking: false },
    );
    if (!result.ok) throw new Error(`Order refused: ${JSON.stringify(result)}`);
  }
  await db.execute(sql`
    with made as (
      insert into orders (customer_name, customer_email, customer_phone, customer_cpf,
        shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
        shipping_state, subtotal_cents, total_amount_cents, status, order_token,
        tracking_parameters, created_at)
      select 'Cliente ' || i, 'cliente' || i || '@example.com', '11987654321', '52998224725',
        '01310100', 'Avenida Paulista', (i % 2000)::text, 'Bela Vista', 'São Paulo', 'SP',
        3990 * (1 + i % 3), 3990 * (1 + i % 3),
        (array['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'])[1 + i % 5],
        'token-' || (i % 500), jsonb_build_object('utm_source', 'campanha-' || (i % 7)),
        timestamptz '2026-01-01 12:00:00+00' + make_interval(mins => i)
      from generate_series(1, ${count}) as i
      returning id, subtotal_cents
    )
    insert into order_items (order_id, product_id, product_name, product_price_cents, quantity,
      total_price_cents)
    select id, ${PRODUCT}::uuid, 'Cabo USB-C', 3990, subtotal_cents / 3990, subtotal_cents
    from made`);
}

/** Every table's row count and a hash of its rows in a set order, and every sequence's value. */
async function contents(db: Db): Promise<Record<string, string>> {
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await rows<{ name: string }>(sql`
    select format('%I.%I', schemaname, tablename) as name from pg_tables
    where schemaname not in ('pg_catalog', 'information_schema') order by 1`);
  const found: Record<string, string> = {};
  for (const { name } of tables) {
    const [summary] = await rows<{ count: number; digest: string }>(
      sql.raw(`select count(*)::int as count,
        coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as digest
        from ${name} t`),
    );
    found[name] = `${summary!.count} ${summary!.digest}`;
  }
  const sequences = await rows<{ name: string; value: string | null }>(sql`
    select format('%I.%I', schemaname, sequencename) as name, last_value::text as value
    from pg_sequences order by 1`);
  for (const { name, value } of sequences) found[`sequence ${name}`] = String(value);
  return found;
}

async function orderCount(db: Db): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from orders`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

function run(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [...TSX, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('backups of the embedded database', () => {
  let folder: string;
  const opened: Database[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** A migrated embedded database with orders in a fresh DATA_DIR, closed again. */
  async function storeWithOrders(count: number) {
    folder = await mkdtemp(join(tmpdir(), 'vitrine-backup-'));
    const dataDir = join(folder, 'data');
    // From the suite's migrated template: migrating here would cost more than the backup.
    const template = new Blob([await readFile(inject('pgliteTemplate'))]);
    const database = await openDatabase({ dataDir, loadDataDir: template });
    try {
      await fillStore(database.db, count);
    } finally {
      await database.close();
    }
    return dataDir;
  }

  async function open(dataDir: string) {
    const database = await openDatabase({ dataDir });
    opened.push(database);
    return database.db;
  }

  it(`restores a store of ${EMBEDDED_ORDERS} orders into an empty folder with every table alike`, async () => {
    const dataDir = await storeWithOrders(EMBEDDED_ORDERS);
    const env = { DATA_DIR: dataDir, BACKUP_DIR: join(folder, 'backups') };

    let started = performance.now();
    const file = await backupDatabase(env);
    const backupMs = performance.now() - started;
    expect(file).toMatch(/\/backups\/vitrine-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.tar\.gz$/);

    const restored = join(folder, 'restored');
    started = performance.now();
    await expect(restoreDatabase({ DATA_DIR: restored }, file)).resolves.toMatch(
      /^Backup .* restaurado em /,
    );
    const restoreMs = performance.now() - started;
    // In CI's log: how long a backup and a restore take goes in the closing note.
    console.warn(
      `PGlite, ${EMBEDDED_ORDERS} orders: backup ${(backupMs / 1000).toFixed(1)} s, ` +
        `restore ${(restoreMs / 1000).toFixed(1)} s`,
    );

    const before = await contents(await open(dataDir));
    expect(before['public.orders']).toMatch(new RegExp(`^${EMBEDDED_ORDERS + 3} `));
    expect(await contents(await open(restored))).toEqual(before);

    // A folder that is no longer empty is never restored over.
    await expect(restoreDatabase({ DATA_DIR: restored }, file)).rejects.toThrow(
      /não está vazia: um backup só é restaurado numa pasta vazia/,
    );
  }, 180_000);

  it('is taken by the process that holds the folder, and only by a server', async () => {
    const dataDir = await storeWithOrders(20);
    const backupDir = join(folder, 'backups');

    // This process holds it now, and takes no requests: refused, and not signalled.
    const mine = await openDatabase({ dataDir });
    await expect(backupDatabase({ DATA_DIR: dataDir, BACKUP_DIR: backupDir })).rejects.toThrow(
      new BackupError(
        `O banco de dados embutido em ${join(dataDir, 'db')} está aberto em outro processo ` +
          `(pid ${process.pid}), que não faz backups (só um servidor do Vitrine em ` +
          'funcionamento faz). Rode de novo quando ele terminar.',
      ),
    );
    await mine.close();

    const restored = join(folder, 'restored');
    const holder = spawn(
      process.execPath,
      [...TSX, 'tests/support/embedded-holder.ts', dataDir, backupDir],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await new Promise<void>((ready, fail) => {
        holder.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) ready();
        });
        holder.on('exit', (code) => fail(new Error(`The holder ended (${code})`)));
      });
      const command = await run(['scripts/db.ts', 'backup'], {
        DATA_DIR: dataDir,
        BACKUP_DIR: backupDir,
        DATABASE_URL: '',
      });
      expect(command.stderr).toBe('');
      expect(command.code).toBe(0);
      const file = /^Backup gravado: (\S+) \(/m.exec(command.stdout)?.[1];
      expect(file).toBeDefined();
      // The holder is still serving.
      expect(holder.exitCode).toBeNull();

      await restoreDatabase({ DATA_DIR: restored }, file!);
      const db = await open(restored);
      expect(await orderCount(db)).toBe(23);
      // The change the holder made after opening the folder is in the backup.
      const traced = await db.execute(
        sql`select count(*)::int as n from orders where tracking_code = 'BR000000001BR'`,
      );
      expect((traced as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    } finally {
      if (holder.exitCode === null && holder.signalCode === null) {
        const ended = new Promise((resolve) => holder.on('exit', resolve));
        holder.kill('SIGTERM');
        await ended;
      }
    }
    expect(await readdir(join(dataDir, 'backup-requests'))).toEqual([]);
    // Once the holder has stopped, the folder it held and the restored copy are alike.
    const copy = await contents(opened[0]!.db);
    expect(copy).toEqual(await contents(await open(dataDir)));
  }, 120_000);

  it('takes them on a schedule and keeps the newest BACKUP_KEEP', async () => {
    const dataDir = await storeWithOrders(5);
    const backupDir = join(folder, 'backups');
    // A backup taken with db:backup is the operator's: never pruned.
    const manual = (await backupDatabase({ DATA_DIR: dataDir, BACKUP_DIR: backupDir }))
      .split('/')
      .pop();
    const database = await openDatabase({ dataDir });
    opened.push(database);

    const backups = startServerBackups(database, {
      DATA_DIR: dataDir,
      BACKUP_DIR: backupDir,
      // Every 0.36 s.
      BACKUP_INTERVAL_HOURS: 0.0001,
      BACKUP_KEEP: 2,
    });
    const seen = new Set<string>();
    const scheduled = async () =>
      (await readdir(backupDir).catch(() => [])).filter((name) =>
        /^vitrine-scheduled-.*\.tar\.gz$/.test(name),
      );
    try {
      await until(
        async () => {
          for (const name of await scheduled()) seen.add(name);
          return seen.size >= 3 || undefined;
        },
        'three scheduled backups',
        60_000,
      );
    } finally {
      await backups.stop();
    }
    // The last one may have been written while stop() waited for it.
    for (const name of await scheduled()) seen.add(name);
    const kept = (await scheduled()).sort();
    expect(kept).toHaveLength(2);
    expect(kept).toEqual([...seen].sort().slice(-2));
    expect(await readdir(backupDir)).toContain(manual);
    // Pruning by hand keeps what it is told to.
    expect(await pruneScheduledBackups(backupDir, 1)).toEqual([kept[0]]);
  }, 120_000);
});

const postgresTemplate = inject('postgresTemplate');
const hasPgDump = (() => {
  try {
    execFileSync('pg_dump', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(TEST_DATABASE_URL && postgresTemplate && hasPgDump)('backups of PostgreSQL', () => {
  const made: string[] = [];
  const opened: Database[] = [];
  let folder: string | undefined;
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
    for (const name of made.splice(0)) await dropDatabase(TEST_DATABASE_URL!, name);
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  async function newDatabase(template?: string) {
    const name = uniqueDatabaseName('vitrine_backup');
    made.push(name);
    const url = await createDatabase(TEST_DATABASE_URL!, name, template);
    const database = await openDatabase({ databaseUrl: url, poolMax: 2 });
    opened.push(database);
    return { url, db: database.db };
  }

  it(`restores a store of ${ORDERS} orders into an empty database with every table alike`, async () => {
    folder = await mkdtemp(join(tmpdir(), 'vitrine-backup-'));
    const source = await newDatabase(postgresTemplate!);
    await fillStore(source.db, ORDERS);

    let started = performance.now();
    const file = await backupDatabase({
      DATA_DIR: folder,
      DATABASE_URL: source.url,
      BACKUP_DIR: join(folder, 'backups'),
    });
    const backupMs = performance.now() - started;
    expect(file).toMatch(/\/backups\/vitrine-[\dT-]+Z\.dump$/);

    const target = await newDatabase();
    started = performance.now();
    await restoreDatabase({ DATA_DIR: folder, DATABASE_URL: target.url }, file);
    const restoreMs = performance.now() - started;
    console.warn(
      `PostgreSQL, ${ORDERS} orders: backup ${(backupMs / 1000).toFixed(1)} s, ` +
        `restore ${(restoreMs / 1000).toFixed(1)} s`,
    );

    const before = await contents(source.db);
    expect(before['public.orders']).toMatch(new RegExp(`^${ORDERS + 3} `));
    expect(await contents(target.db)).toEqual(before);

    // A database with tables is never restored into.
    await expect(
      restoreDatabase({ DATA_DIR: folder, DATABASE_URL: source.url }, file),
    ).rejects.toThrow(/não está vazio \(\d+ tabelas, views ou sequências\)/);
    // Nor does an embedded backup go into PostgreSQL.
    const embedded = join(folder, 'embedded.tar.gz');
    await writeFile(embedded, Buffer.from([0x1f, 0x8b, 8, 0, 0]));
    await expect(
      restoreDatabase({ DATA_DIR: folder, DATABASE_URL: target.url }, embedded),
    ).rejects.toThrow(/é um backup do banco de dados embutido/);
  }, 120_000);

  it('writes the dump readable by its owner only from the first byte, in a closed BACKUP_DIR', async () => {
    folder = await mkdtemp(join(tmpdir(), 'vitrine-backup-'));
    const source = await newDatabase(postgresTemplate!);
    // pg_dump as a system runs it (umask 022), telling the mode of what it wrote into before
    // the command could change it afterwards.
    const tools = join(folder, 'tools');
    const backups = join(folder, 'backups');
    const seen = join(folder, 'seen-mode');
    await mkdir(tools);
    await mkdir(backups, { mode: 0o755 });
    await chmod(backups, 0o755);
    const realPgDump = execFileSync('sh', ['-c', 'command -v pg_dump'], {
      encoding: 'utf8',
    }).trim();
    await writeFile(
      join(tools, 'pg_dump'),
      `#!/bin/sh
umask 022
out=/proc/$$/fd/1
for arg in "$@"; do case "$arg" in --file=*) out="\${arg#--file=}";; esac; done
${realPgDump} "$@"
code=$?
mode=$(stat -L -c %a "$out")
echo "$mode" > ${seen}
exit $code
`,
      { mode: 0o700 },
    );
    const command = await run(['scripts/db.ts', 'backup'], {
      DATABASE_URL: source.url,
      BACKUP_DIR: backups,
      PATH: `${tools}:${process.env.PATH}`,
    });
    expect(command.stderr).toBe('');
    expect(command.code).toBe(0);
    expect((await readFile(seen, 'utf8')).trim()).toBe('600');
    expect((await stat(backups)).mode & 0o777).toBe(0o700);
    const [file] = await readdir(backups);
    expect(file).toMatch(/^vitrine-[\dT-]+Z\.dump$/);
    expect((await stat(join(backups, file!))).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('says what to install when pg_dump is missing', async () => {
    folder = await mkdtemp(join(tmpdir(), 'vitrine-backup-'));
    const source = await newDatabase(postgresTemplate!);
    const command = await run(['scripts/db.ts', 'backup'], {
      DATABASE_URL: source.url,
      BACKUP_DIR: folder,
      // Node is still found by its full path; pg_dump is not.
      PATH: '/nonexistent',
    });
    expect(command.code).toBe(1);
    expect(command.stderr).toMatch(
      /^pg_dump não foi encontrado no PATH\. .*versão principal do servidor \(\d+\) ou mais nova: no Debian ou Ubuntu, `sudo apt install postgresql-client-\d+`/,
    );
    expect(command.stderr).not.toMatch(/\n\s+at /);
    expect(await readdir(folder)).toEqual([]);
  }, 60_000);
});
