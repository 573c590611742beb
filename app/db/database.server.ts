import fs, { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Logger } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import lockfile from 'proper-lockfile';

import { logger } from '~/lib/logger.server';
import { databaseStatements } from '~/lib/metrics.server';
import { makePrivate } from '~/lib/private-folder.server';

import { openPgliteThread, type PgliteThread } from './pglite-thread.server';
import { prepareRepeatedStatements } from './prepared-statements.server';
import * as schema from './schema';

export type Schema = typeof schema;
/** A database or a transaction: services take either, so a flow can run several in one transaction. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface ListenHandlers {
  /** The notification's payload ('' when it has none). */
  onNotify: (payload: string) => void;
  /** false while notifications may be missed (connection lost), true once they flow again. */
  onLiveChange: (live: boolean) => void;
}

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Subscribes to NOTIFY on a channel; resolves once listening, to a function that stops it. */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  migrate(): Promise<void>;
  /**
   * The embedded database only: its data folder as a gzipped tarball, which `dataDir` with
   * `loadDataDir` opens again. Taken between two queries, it holds every committed transaction.
   */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: its pool, which /metrics counts and a read replica's reads fall back to
   * (read-replica.server.ts); the embedded database has none.
   */
  readonly pool?: pg.Pool;
}

export type DatabaseOptions =
  | { databaseUrl: string; poolMax?: number }
  // `loadDataDir` (a dumpDataDir tarball) fills an empty folder: restoring a backup.
  | { dataDir: string; loadDataDir?: Blob }
  // In memory: for tests; `loadDataDir` starts from a dump of an already migrated database.
  | { memory: true; loadDataDir?: Blob };

/** Thrown when another process already has the embedded database folder open. */
export class DatabaseLockedError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `A pasta do banco de dados ${dataDir} já está em uso por outro processo do Vitrine. ` +
        'Pare esse processo antes, ou aponte DATA_DIR para outra pasta. ' +
        '(A trava deixada por um processo que caiu expira em até 10 segundos.)',
    );
    this.name = 'DatabaseLockedError';
  }
}

const MIGRATIONS_ADVISORY_LOCK = 727_001;

// Every PGlite open loads the same extensions: a data folder or dump made with one cannot be
// read without it. pg_trgm lets the catalogue search use a trigram index (migration 0004).
export const PGLITE_EXTENSIONS = { pg_trgm };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('databaseUrl' in options) return openPostgres(options.databaseUrl, options.poolMax ?? 10);
  if ('dataDir' in options) return openPgliteFolder(options.dataDir, options.loadDataDir);
  return wrapPglite(await openEmbedded({ loadDataDir: options.loadDataDir }), async () => {});
}

/** PGlite in its own thread (ADR 049), in a folder or in memory. */
function openEmbedded(options: { dataDir?: string; loadDataDir?: Blob }): Promise<PgliteThread> {
  return openPgliteThread({
    ...options,
    extensions: Object.keys(PGLITE_EXTENSIONS),
    textTypes: TEXT_TYPES,
  });
}

/** The embedded database's own folder in DATA_DIR; its lock and owner files sit beside it. */
export function embeddedDatabaseFolder(dataDir: string): string {
  return resolve(dataDir, 'db');
}

async function openPgliteFolder(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  const dir = embeddedDatabaseFolder(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // PGlite does not guard its folder; two processes writing to it would corrupt it.
  const release = await lockFolder(dir, dataDir);
  try {
    const client = await openEmbedded({ dataDir: dir, loadDataDir });
    // A new folder's files are written 0666 whatever the umask (PGlite's template of an
    // initialised database), its WAL then holding shoppers' e-mails and password hashes; the
    // files PostgreSQL makes later are 0600 of its own accord.
    await makePrivate(dir).catch(async (error: unknown) => {
      await client.close();
      throw error;
    });
    return wrapPglite(client, release);
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * The lock's age is read against this process's clock, so its first time is written by that clock
 * too, not left to the file system's (which a network mount or a moved clock can put a year off,
 * making a held lock look stale to the next process).
 */
const lockFs = {
  ...fs,
  mkdir(path: string, callback: (error: NodeJS.ErrnoException | null) => void) {
    fs.mkdir(path, 0o700, (error) => {
      if (error) return callback(error);
      const now = new Date();
      fs.utimes(path, now, now, callback);
    });
  },
};

async function lockFolder(dir: string, dataDir: string): Promise<() => Promise<void>> {
  const lockPath = `${dir}.lock`;
  const ownerPath = `${dir}.owner`;
  const lock = () =>
    lockfile.lock(dir, {
      lockfilePath: lockPath,
      fs: lockFs,
      // Refreshed every 5 s, stale only after 60 s: on a machine at load 28 the event loop ran a
      // refresh later than a 10 s limit (PGlite still ran on it then) and the store stopped itself.
      // A crashed owner on this machine is taken over at once anyway (deadOwner).
      stale: 60_000,
      update: 5_000,
      onCompromised: (error) => {
        logger.fatal({ err: error }, 'Lost the lock on the database folder; stopping');
        process.exit(1);
      },
    });
  let release: () => Promise<void>;
  try {
    release = await lock();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    // A process killed on this machine (kill -9, a crash) leaves a lock that only goes stale
    // after 60 s; when its owner is known to be gone, a restart need not wait for that.
    const owner = deadOwner(ownerPath, lockPath);
    if (owner === null) throw new DatabaseLockedError(dataDir);
    logger.warn({ pid: owner }, 'Taking over the database lock of a process that is gone');
    rmSync(lockPath, { recursive: true, force: true });
    try {
      release = await lock();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'ELOCKED')
        throw new DatabaseLockedError(dataDir);
      throw again;
    }
  }
  writeFileSync(ownerPath, JSON.stringify({ pid: process.pid, host: hostname() }), {
    mode: 0o600,
  });
  return release;
}

/** The pid of the lock's owner when it ran on this machine and has ended; null otherwise. */
function deadOwner(ownerPath: string, lockPath: string): number | null {
  let owner: { pid?: unknown; host?: unknown };
  try {
    // An owner file older than the lock belongs to an earlier holder: the lock's holder may be
    // alive and about to write its own.
    const lockBorn = statSync(lockPath).birthtimeMs;
    if (lockBorn > 0 && statSync(ownerPath).mtimeMs < lockBorn) return null;
    owner = JSON.parse(readFileSync(ownerPath, 'utf8')) as typeof owner;
  } catch {
    return null;
  }
  const { pid, host } = owner;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || host !== hostname()) {
    return null;
  }
  if (pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? pid : null;
  }
}

/** Drizzle's hook on every statement it sends: counted for /metrics, never logged. */
const STATEMENT_COUNTER: Logger = {
  logQuery() {
    databaseStatements.inc();
  },
};

/**
 * The types Drizzle reads as PostgreSQL's own text (timestamps, dates, intervals, and the arrays
 * of those and of numeric). Drizzle sends a parser for each with every query, and PGlite then
 * copies its whole table of parsers (every type and array type) into a new object for each
 * result: 6% of a checkout's CPU. The database's thread sets them once on its client instead,
 * and queries reach it without their own (pglite-thread.server.ts passes only the row mode).
 */
const TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];

function wrapPglite(client: PgliteThread, release: () => Promise<void>): Database {
  const db = drizzlePglite({
    client: client as unknown as PGlite,
    schema,
    logger: STATEMENT_COUNTER,
  }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    async ping() {
      await client.query('select 1');
    },
    async listen(channel, handlers) {
      const unlisten = await client.listen(channel, (payload) => handlers.onNotify(payload));
      handlers.onLiveChange(true);
      return async () => {
        handlers.onLiveChange(false);
        await unlisten();
      };
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client: client as unknown as PGlite }), {
        migrationsFolder: migrationsFolder(),
      });
    },
    dumpDataDir: () => client.dumpDataDir(),
    async close() {
      if (!client.closed) await client.close();
      await release();
    },
  };
}

function openPostgres(connectionString: string, poolMax: number): Database {
  const pool = new pg.Pool({ connectionString, max: poolMax });
  // An idle client losing its connection must not take the process down; the pool replaces it.
  pool.on('error', (error) => logger.warn({ err: error }, 'PostgreSQL idle client error'));
  prepareRepeatedStatements(pool);
  const db = drizzlePg({ client: pool, schema, logger: STATEMENT_COUNTER }) as unknown as Db;
  const listeners = new Set<() => Promise<void>>();

  return {
    kind: 'postgres',
    db,
    async ping() {
      await pool.query('select 1');
    },
    async listen(channel, handlers) {
      const stop = await listenWithReconnect(connectionString, channel, handlers);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    async migrate() {
      // Several instances may start at once; the advisory lock lets one migrate while the others wait.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATIONS_ADVISORY_LOCK]);
        await migratePg(drizzlePg({ client }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATIONS_ADVISORY_LOCK]);
        client.release();
      }
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
    pool,
  };
}

/** LISTEN on its own connection (a pooled one would be handed to queries), reconnecting when lost. */
async function listenWithReconnect(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = 500;

  const connect = async () => {
    // Named, so an operator (or a test) can find each instance's listener in pg_stat_activity.
    const next = new pg.Client({
      connectionString,
      application_name: `vitrine listen ${channel} ${process.pid}`,
    });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? '');
    });
    next.on('error', (error) => {
      logger.warn({ err: error, channel }, 'Lost the PostgreSQL LISTEN connection');
      lost(next);
    });
    next.on('end', () => lost(next));
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
    retryDelay = 500;
    handlers.onLiveChange(true);
  };

  const lost = (which: pg.Client) => {
    if (client !== which || stopped) return;
    client = undefined;
    handlers.onLiveChange(false);
    which.end().catch(() => {});
    scheduleRetry();
  };

  const scheduleRetry = () => {
    retryTimer = setTimeout(() => {
      connect().catch((error: unknown) => {
        logger.warn({ err: error, channel }, 'Could not re-establish LISTEN; retrying');
        retryDelay = Math.min(retryDelay * 2, 30_000);
        scheduleRetry();
      });
    }, retryDelay);
    retryTimer.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    handlers.onLiveChange(false);
    await client?.end();
    client = undefined;
  };
}

/** The drizzle/ folder, found from this module both in the sources and in the server build. */
function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'drizzle');
    if (existsSync(join(candidate, 'meta', '_journal.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find the drizzle/ migrations folder');
    dir = parent;
  }
}

/** Where the app's data lives, per the environment: PostgreSQL when DATABASE_URL is set. */
export function databaseOptionsFromEnv(env: {
  DATABASE_URL?: string;
  DATABASE_POOL_MAX: number;
  DATA_DIR: string;
}): DatabaseOptions {
  return env.DATABASE_URL
    ? { databaseUrl: env.DATABASE_URL, poolMax: env.DATABASE_POOL_MAX }
    : { dataDir: env.DATA_DIR };
}
