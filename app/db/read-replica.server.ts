import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

import { logger } from '~/lib/logger.server';
import { readQueries } from '~/lib/metrics.server';

import type { ChangeFeed } from './changes.server';
import type { Db } from './database.server';
import { prepareRepeatedStatements } from './prepared-statements.server';
import * as schema from './schema';

/** How often, at most, a replica that is behind is asked how far it has replayed. */
const CHECK_EVERY_MS = 50;
/** How often a replica that failed is asked again: one that is down is not asked 20 times a second. */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** A replica slower than this to connect or to answer counts as failing: the primary answers. */
const REPLICA_TIMEOUT_MS = 3_000;

/**
 * Errors that are the query's own (SQLSTATE class 22 bad data, 23 integrity, 25 such as a write
 * sent to a read-only database, 42 syntax or privileges): the primary would refuse the query too,
 * so they are thrown as they are. Anything else (a connection lost or refused, a timeout, a
 * recovery conflict, a standby starting or stopping) is the replica's, and the primary answers.
 */
const QUERY_FAULT = /^(?:22|23|25|42)/;

export interface ReadReplica {
  /**
   * A database for reads that may come from the replica: each query goes to the replica only
   * while it has replayed every change the feed has announced, and to the primary otherwise.
   */
  readonly db: Db;
  close(): Promise<void>;
}

/**
 * The storefront's reads on a streaming replica (ADR 033), never behind what this instance has
 * heard. Every change notification (and every stop or resume of the feed) marks the replica
 * behind at once; the primary's WAL position, read after the notification arrived and so at or
 * past the change's commit, is then the position the replica must replay before it is read again.
 * Meanwhile, and while the replica fails, reads go to the primary.
 *
 * The choice is made as each query is sent, not once per request: a loader that started while
 * the replica was caught up, and whose later query fills a version cache under a version announced
 * since, reads that query from the primary.
 */
export function openReadReplica(options: {
  url: string;
  primary: pg.Pool;
  changes: Pick<ChangeFeed, 'live' | 'subscribe'>;
  poolMax: number;
}): ReadReplica {
  const { primary, changes } = options;
  const replica = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax,
    connectionTimeoutMillis: REPLICA_TIMEOUT_MS,
    query_timeout: REPLICA_TIMEOUT_MS,
  });
  replica.on('error', (error) => logger.warn({ err: error }, 'Read replica idle client error'));
  prepareRepeatedStatements(replica);

  // Moves on with every announcement: a position read from the primary is the one to reach only
  // while no announcement came after it was asked for.
  let heard = 0;
  let target: { heard: number; lsn: bigint } | undefined;
  let caughtUp = false;
  let failing = false;
  let notStandby = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;
  let lastCheck = 0;

  const failed = (error: unknown, message: string) => {
    caughtUp = false;
    // Once per outage, not once per query.
    if (!failing) logger.warn({ err: error }, message);
    failing = true;
  };

  const check = async () => {
    const asOf = heard;
    try {
      if (target?.heard !== asOf) {
        // The insert position, not the write position (pg_current_wal_lsn): with
        // synchronous_commit off a commit's record may not be written yet when its NOTIFY is.
        const lsn = await walPosition(primary, 'select pg_current_wal_insert_lsn()::text as lsn');
        if (lsn === null) throw new Error('The primary has no WAL position');
        target = { heard: asOf, lsn };
      }
      const replayed = await walPosition(replica, 'select pg_last_wal_replay_lsn()::text as lsn');
      if (replayed === null) {
        notStandby = true;
        logger.error(
          'DATABASE_REPLICA_URL is not a standby (it replays no WAL): every read goes to the primary',
        );
        return;
      }
      if (failing) logger.info('The read replica answers again');
      failing = false;
      if (heard === asOf && replayed >= target.lsn) caughtUp = true;
    } catch (error) {
      failed(
        error,
        "Could not compare the replica's position with the primary's; reading from the primary",
      );
    }
  };

  // At most one check in flight or waiting, one start every CHECK_EVERY_MS at most.
  const schedule = () => {
    if (closed || notStandby || timer || checking) return;
    const every = failing ? RETRY_AFTER_FAILURE_MS : CHECK_EVERY_MS;
    timer = setTimeout(
      () => {
        timer = undefined;
        // While the feed is down nothing says what changed; its resume is announced.
        if (closed || caughtUp || !changes.live()) return;
        lastCheck = Date.now();
        checking = check().finally(() => {
          checking = undefined;
          if (!caughtUp) schedule();
        });
      },
      Math.max(0, lastCheck + every - Date.now()),
    );
    timer.unref();
  };

  const unsubscribe = changes.subscribe(() => {
    heard += 1;
    caughtUp = false;
    schedule();
  });
  schedule();

  // Named …Pool: drizzle runs a transaction on a client from connect() only when its client is a
  // pool, which it tells by the class's name.
  class RoutingPool {
    async query(config: pg.QueryConfig, values?: unknown[]) {
      if (caughtUp && changes.live()) {
        try {
          const result = await replica.query(config, values);
          readQueries.inc({ database: 'replica' });
          return result;
        } catch (error) {
          if (isQueryFault(error)) throw error;
          failed(error, 'The read replica failed; reading from the primary until it answers');
          schedule();
        }
      }
      readQueries.inc({ database: 'primary' });
      return primary.query(config, values);
    }

    // A transaction, which no storefront read needs, runs on the primary.
    connect() {
      return primary.connect();
    }
  }

  return {
    db: drizzle({ client: new RoutingPool() as unknown as pg.Pool, schema }) as unknown as Db,
    async close() {
      closed = true;
      clearTimeout(timer);
      unsubscribe();
      await checking;
      await replica.end();
    },
  };
}

function isQueryFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && QUERY_FAULT.test(code);
}

/** A WAL position ('16/B374D848') read with `sql`, as a number that orders as positions do. */
async function walPosition(pool: pg.Pool, sql: string): Promise<bigint | null> {
  const { rows } = await pool.query<{ lsn: string | null }>(sql);
  const lsn = rows[0]?.lsn;
  if (!lsn) return null;
  const [high = '', low = ''] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}
