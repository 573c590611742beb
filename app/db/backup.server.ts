// Backups of either database (ADR 030). The embedded one: PGlite's tarball of its data folder,
// taken by whichever process holds the folder (a running server takes it when asked). PostgreSQL:
// pg_dump's custom format, restored with pg_restore. Restores go only into an empty folder or
// database, so a restore never mixes with live data.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

import { sql } from 'drizzle-orm';
import pg from 'pg';

import { logger } from '~/lib/logger.server';

import {
  DatabaseLockedError,
  embeddedDatabaseFolder,
  openDatabase,
  type Database,
} from './database.server';

/** A failure the operator can act on: its message is all the command prints. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupEnv {
  DATA_DIR: string;
  DATABASE_URL?: string;
  BACKUP_DIR?: string;
}

/** The folder backups are written to: BACKUP_DIR, else DATA_DIR/backups. */
export function backupFolder(env: BackupEnv): string {
  return resolve(env.BACKUP_DIR ?? join(env.DATA_DIR, 'backups'));
}

const SCHEDULED_PREFIX = 'vitrine-scheduled-';
const SUFFIX = { pglite: '.tar.gz', postgres: '.dump' } as const;

/** vitrine-2026-11-27T10-15-00-123Z.tar.gz: sorts as time does, and has no ':' for any disk. */
export function backupFileName(
  kind: 'pglite' | 'postgres',
  options: { scheduled?: boolean; now?: Date } = {},
): string {
  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  return `${options.scheduled ? SCHEDULED_PREFIX : 'vitrine-'}${stamp}${SUFFIX[kind]}`;
}

/**
 * Writes `target` through a hidden name in the same folder, then renames it: whoever reads the
 * folder sees a whole backup or none. Readable by the owner only: it holds customers' data.
 */
async function writeAtomically(target: string, write: (path: string) => Promise<void>) {
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  try {
    await write(partial);
    await chmod(partial, 0o600);
    const handle = await open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * The folder a backup goes to, made or closed to other users: a BACKUP_DIR made by hand (or by
 * an earlier version) may be open to everyone. Its files are the operator's; ours are 0600.
 */
async function privateBackupFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
}

/** Writes the embedded database's tarball to `target`, from the process that holds it. */
export async function writeEmbeddedBackup(database: Database, target: string): Promise<void> {
  if (!database.dumpDataDir) throw new Error('Only the embedded database has a data folder dump');
  const dump = await database.dumpDataDir();
  await privateBackupFolder(dirname(target));
  await writeAtomically(target, async (path) => {
    await writeFile(path, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
  });
}

/** Deletes all but the newest `keep` scheduled backups in `folder`; the names deleted. */
export async function pruneScheduledBackups(folder: string, keep: number): Promise<string[]> {
  const scheduled = (await readdir(folder))
    .filter((name) => name.startsWith(SCHEDULED_PREFIX) && name.endsWith(SUFFIX.pglite))
    .sort();
  const old = scheduled.slice(0, Math.max(0, scheduled.length - keep));
  await Promise.all(old.map((name) => rm(join(folder, name), { force: true })));
  return old;
}

// How a command reaches the server that holds the embedded database: it leaves a request file
// naming the backup to write, then sends this signal to the pid of the server's marker file.
export const BACKUP_REQUEST_SIGNAL = 'SIGUSR2';
const requestsFolder = (dataDir: string) => resolve(dataDir, 'backup-requests');
// Beside db.owner: which process holding the folder takes requests. Any other holder (a db:seed,
// say) would be ended by the signal, so the command sends it only to this pid.
const serverMarker = (dataDir: string) => `${embeddedDatabaseFolder(dataDir)}.backups`;

interface ProcessMark {
  pid?: unknown;
  host?: unknown;
}

function readMark(path: string): ProcessMark | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ProcessMark;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface EmbeddedBackupOptions {
  database: Database;
  dataDir: string;
  /** Where scheduled backups go (requested ones name their own file). */
  folder: string;
  /** 0: no schedule; requests are answered anyway. */
  intervalMs: number;
  /** Scheduled backups kept. */
  keep: number;
}

/**
 * The server's part, with the embedded database: takes the backups `db:backup` asks for, and
 * one every `intervalMs`, keeping the newest `keep`. One backup at a time.
 */
export function startEmbeddedBackups(options: EmbeddedBackupOptions): { stop(): Promise<void> } {
  const { database, dataDir, folder, intervalMs, keep } = options;
  const requests = requestsFolder(dataDir);
  // Requests left from before this start found no one: their commands have given up.
  rmSync(requests, { recursive: true, force: true });
  mkdirSync(requests, { recursive: true, mode: 0o700 });
  writeFileSync(serverMarker(dataDir), JSON.stringify({ pid: process.pid, host: hostname() }), {
    mode: 0o600,
  });

  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => {
    queue = queue.then(work).catch((error: unknown) => {
      logger.error({ err: error }, 'Backup failed');
    });
  };

  const answerRequests = async () => {
    for (const name of await readdir(requests)) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      const id = name.slice(0, -'.json'.length);
      const working = join(requests, `${id}.working`);
      // Renamed first, so the command knows its request was taken; one it withdrew is gone.
      try {
        await rename(join(requests, name), working);
      } catch {
        continue;
      }
      let error: string | undefined;
      try {
        const { target } = JSON.parse(await readFile(working, 'utf8')) as { target?: unknown };
        if (typeof target !== 'string' || !target.endsWith(SUFFIX.pglite)) {
          throw new Error('A backup request without a .tar.gz file to write');
        }
        const started = Date.now();
        await writeEmbeddedBackup(database, target);
        logger.info({ file: target, ms: Date.now() - started }, 'Backup written on request');
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
        logger.error({ err: failure }, 'Requested backup failed');
      }
      await writeAtomically(join(requests, `${id}.done`), (path) =>
        writeFile(path, JSON.stringify({ error })),
      );
      await rm(working, { force: true });
    }
  };
  const onSignal = () => enqueue(answerRequests);
  process.on(BACKUP_REQUEST_SIGNAL, onSignal);

  const scheduled = async () => {
    const started = Date.now();
    const target = join(folder, backupFileName('pglite', { scheduled: true }));
    await writeEmbeddedBackup(database, target);
    const deleted = await pruneScheduledBackups(folder, keep);
    logger.info(
      { file: target, ms: Date.now() - started, deleted: deleted.length },
      'Scheduled backup written',
    );
  };
  // A backup slower than the interval (a large store, a busy disk) is not queued up behind.
  let due = false;
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          if (due) return;
          due = true;
          enqueue(() => scheduled().finally(() => (due = false)));
        }, intervalMs)
      : undefined;
  timer?.unref();

  return {
    async stop() {
      clearInterval(timer);
      // The marker first: no command signals a process that no longer listens (and would end).
      rmSync(serverMarker(dataDir), { force: true });
      process.off(BACKUP_REQUEST_SIGNAL, onSignal);
      await queue;
    },
  };
}

/**
 * What the server starts beside its background jobs: with the embedded database, the answering
 * of `db:backup` and the schedule; PostgreSQL's backups are the operator's (pg_dump by cron).
 */
export function startServerBackups(
  database: Database,
  env: BackupEnv & { BACKUP_INTERVAL_HOURS: number; BACKUP_KEEP: number },
): { stop(): Promise<void> } {
  if (database.kind !== 'pglite') {
    if (env.BACKUP_INTERVAL_HOURS > 0) {
      logger.warn(
        'BACKUP_INTERVAL_HOURS schedules backups of the embedded database only; with PostgreSQL, ' +
          'run npm run db:backup from cron or a systemd timer.',
      );
    }
    return { stop: async () => {} };
  }
  return startEmbeddedBackups({
    database,
    dataDir: env.DATA_DIR,
    folder: backupFolder(env),
    intervalMs: env.BACKUP_INTERVAL_HOURS * 3_600_000,
    keep: env.BACKUP_KEEP,
  });
}

/** How long a command waits for the server to take up its request before giving up. */
const PICKUP_TIMEOUT_MS = 30_000;

/** Asks the server that holds the embedded database to write `target`; resolves once written. */
async function askServerForBackup(dataDir: string, target: string): Promise<void> {
  const folder = embeddedDatabaseFolder(dataDir);
  const owner = readMark(`${folder}.owner`);
  const server = readMark(serverMarker(dataDir));
  if (owner && owner.host !== hostname()) {
    throw new BackupError(
      `O banco de dados embutido em ${folder} está aberto em outra máquina ` +
        `(${String(owner.host)}); rode npm run db:backup lá.`,
    );
  }
  const pid = server?.pid;
  if (
    typeof pid !== 'number' ||
    pid !== owner?.pid ||
    server?.host !== hostname() ||
    !isAlive(pid)
  ) {
    throw new BackupError(
      `O banco de dados embutido em ${folder} está aberto em outro processo` +
        `${typeof owner?.pid === 'number' ? ` (pid ${owner.pid})` : ''}, que não faz backups ` +
        '(só um servidor do Vitrine em funcionamento faz). Rode de novo quando ele terminar.',
    );
  }

  const requests = requestsFolder(dataDir);
  const id = randomUUID();
  const request = join(requests, `${id}.json`);
  const done = join(requests, `${id}.done`);
  await writeAtomically(request, (path) => writeFile(path, JSON.stringify({ target })));
  process.kill(pid, BACKUP_REQUEST_SIGNAL);
  const asked = Date.now();
  for (;;) {
    await new Promise((wake) => setTimeout(wake, 100));
    if (existsSync(done)) {
      const { error } = JSON.parse(await readFile(done, 'utf8')) as { error?: string };
      await rm(done, { force: true });
      if (error)
        throw new BackupError(`O servidor (pid ${pid}) não conseguiu gravar o backup: ${error}`);
      return;
    }
    if (!isAlive(pid)) {
      await rm(request, { force: true });
      throw new BackupError(`O servidor (pid ${pid}) parou antes de gravar o backup.`);
    }
    if (existsSync(request) && Date.now() - asked > PICKUP_TIMEOUT_MS) {
      await rm(request, { force: true });
      throw new BackupError(
        `O servidor (pid ${pid}) não atendeu o pedido de backup em ` +
          `${PICKUP_TIMEOUT_MS / 1000} s; o registro dele pode dizer por quê.`,
      );
    }
  }
}

async function backupEmbedded(env: BackupEnv): Promise<string> {
  const folder = embeddedDatabaseFolder(env.DATA_DIR);
  if (!existsSync(join(folder, 'PG_VERSION'))) {
    throw new BackupError(
      `Não há banco de dados embutido em ${folder} para o backup (veja DATA_DIR).`,
    );
  }
  const target = join(backupFolder(env), backupFileName('pglite'));
  let database: Database;
  try {
    database = await openDatabase({ dataDir: env.DATA_DIR });
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    await privateBackupFolder(dirname(target));
    await askServerForBackup(env.DATA_DIR, target);
    return target;
  }
  try {
    await writeEmbeddedBackup(database, target);
  } finally {
    await database.close();
  }
  return target;
}

/** A URL libpq's tools take on their command line: its password goes in PGPASSWORD instead. */
function toolConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** The database's name, for messages (the URL may hold a password). */
function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || '(default)';
}

async function missingToolMessage(tool: string, databaseUrl: string): Promise<string> {
  let major: number | undefined;
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ v: string }>(
      "select current_setting('server_version_num') as v",
    );
    major = Math.floor(Number(rows[0]!.v) / 10_000);
  } catch {
    // The message helps without the version too.
  } finally {
    await client.end().catch(() => {});
  }
  const version = major ? `, da versão principal do servidor (${major}) ou mais nova` : '';
  const debian = `postgresql-client${major ? `-${major}` : ''}`;
  return (
    `${tool} não foi encontrado no PATH. Os backups do PostgreSQL usam as ferramentas de ` +
    `cliente do PostgreSQL (pg_dump e pg_restore)${version}: no Debian ou Ubuntu, ` +
    `\`sudo apt install ${debian}\` (o repositório apt do próprio PostgreSQL, ` +
    'apt.postgresql.org, tem todas as versões); em outros sistemas, o pacote de cliente do ' +
    'PostgreSQL. Depois, rode de novo.'
  );
}

/**
 * Runs pg_dump or pg_restore; its own error output becomes the message when it fails. `stdout`:
 * a file descriptor the tool writes its output to.
 */
async function runTool(
  tool: string,
  args: string[],
  databaseUrl: string,
  stdout: number | 'inherit' = 'inherit',
): Promise<void> {
  const { env } = toolConnection(databaseUrl);
  const outcome = await new Promise<{ missing: true } | { code: number | null; stderr: string }>(
    (done, fail) => {
      const child = spawn(tool, args, {
        env: { ...process.env, ...env },
        stdio: ['ignore', stdout, 'pipe'],
      });
      let stderr = '';
      // Always a pipe (stdio[2]); the types cannot tell once stdout is a descriptor.
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        stderr += chunk;
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') done({ missing: true });
        else fail(error);
      });
      child.on('close', (code) => done({ code, stderr }));
    },
  );
  if ('missing' in outcome) throw new BackupError(await missingToolMessage(tool, databaseUrl));
  if (outcome.code !== 0) {
    throw new BackupError(`${tool} falhou (código ${outcome.code}):\n${outcome.stderr.trim()}`);
  }
}

async function backupPostgres(env: BackupEnv & { DATABASE_URL: string }): Promise<string> {
  const target = join(backupFolder(env), backupFileName('postgres'));
  await privateBackupFolder(dirname(target));
  const { url } = toolConnection(env.DATABASE_URL);
  // pg_dump would make its --file with its umask (0644 on most systems): the file is opened
  // 0600 here and handed to it, private from the first byte. One snapshot for the whole dump:
  // consistent while the store keeps taking orders.
  await writeAtomically(target, async (path) => {
    const file = await open(path, 'wx', 0o600);
    try {
      await runTool('pg_dump', ['--format=custom', `--dbname=${url}`], env.DATABASE_URL, file.fd);
    } finally {
      await file.close();
    }
  });
  return target;
}

/** `npm run db:backup`: the path of the backup written. */
export async function backupDatabase(env: BackupEnv): Promise<string> {
  return env.DATABASE_URL
    ? backupPostgres({ ...env, DATABASE_URL: env.DATABASE_URL })
    : backupEmbedded(env);
}

/** What a file holds, by its first bytes: gzip (PGlite's tarball) or pg_dump's custom format. */
async function backupKind(file: string): Promise<'pglite' | 'postgres'> {
  let head: Buffer;
  try {
    const handle = await open(file, 'r');
    try {
      head = Buffer.alloc(5);
      await handle.read(head, 0, 5, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BackupError(`O arquivo ${file} não existe.`);
    if (code === 'EISDIR') throw new BackupError(`${file} é uma pasta, não um arquivo de backup.`);
    throw error;
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
  if (head.toString('latin1') === 'PGDMP') return 'postgres';
  throw new BackupError(
    `${file} não é um backup do Vitrine: nem do banco de dados embutido (.tar.gz) nem do ` +
      'formato próprio do pg_dump (.dump).',
  );
}

async function restoreEmbedded(file: string, dataDir: string): Promise<string> {
  const folder = embeddedDatabaseFolder(dataDir);
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new BackupError(
      `${folder} não está vazia: um backup só é restaurado numa pasta vazia. Pare a loja, ` +
        'tire essa pasta do lugar (ou aponte DATA_DIR para uma pasta nova) e rode de novo.',
    );
  }
  const dump = new Blob([await readFile(file)]);
  let database: Database;
  try {
    database = await openDatabase({ dataDir, loadDataDir: dump });
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      throw new BackupError(`${folder} está em uso por outro processo do Vitrine; pare-o antes.`);
    }
    // The folder was empty: what the failed load left there is nobody's.
    rmSync(folder, { recursive: true, force: true });
    throw new BackupError(
      `Não foi possível restaurar ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    const tables = await countTables(database);
    return `Backup ${file} restaurado em ${folder} (${tables} tabelas).`;
  } finally {
    await database.close();
  }
}

async function countTables(database: Database): Promise<number> {
  const result = await database.db.execute(
    sql`select count(*)::int as n from pg_tables
        where schemaname not in ('pg_catalog', 'information_schema')`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

async function restorePostgres(file: string, databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  let tables: number;
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'S')
         and n.nspname not in ('pg_catalog', 'information_schema')
         and n.nspname not like 'pg\\_toast%'`,
    );
    tables = rows[0]!.n;
  } catch (error) {
    throw new BackupError(
      `Não foi possível conectar ao banco de dados ${databaseName(databaseUrl)}: ` +
        `${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  if (tables > 0) {
    throw new BackupError(
      `O banco de dados ${databaseName(databaseUrl)} não está vazio (${tables} tabelas, views ` +
        'ou sequências): um backup só é restaurado num banco vazio. Crie um ' +
        '(createdb vitrine_restored), aponte DATABASE_URL para ele e rode de novo.',
    );
  }
  const { url } = toolConnection(databaseUrl);
  // One transaction: a restore that fails leaves the database empty, not half filled.
  await runTool(
    'pg_restore',
    [
      '--exit-on-error',
      '--single-transaction',
      '--no-owner',
      '--no-privileges',
      `--dbname=${url}`,
      file,
    ],
    databaseUrl,
  );
  return `Backup ${file} restaurado no banco de dados ${databaseName(databaseUrl)}.`;
}

/** `npm run db:restore -- FILE`: what was restored, in a sentence. */
export async function restoreDatabase(env: BackupEnv, file: string): Promise<string> {
  const path = resolve(file);
  const kind = await backupKind(path);
  if (kind === 'pglite') {
    if (env.DATABASE_URL) {
      throw new BackupError(
        `${file} é um backup do banco de dados embutido: ele é restaurado em DATA_DIR, sem ` +
          'DATABASE_URL.',
      );
    }
    return restoreEmbedded(path, env.DATA_DIR);
  }
  if (!env.DATABASE_URL) {
    throw new BackupError(
      `${file} é um backup do PostgreSQL: aponte DATABASE_URL para um banco vazio para ` +
        'restaurá-lo.',
    );
  }
  return restorePostgres(path, env.DATABASE_URL);
}
