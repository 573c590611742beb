import { and, asc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import type { StatementPart } from '~/db/prepared-statements.server';
import { logger } from '~/lib/logger.server';
import { outboxFailures } from '~/lib/metrics.server';

import { outbox } from './schema';

/**
 * Does the work of one topic. The payload is what was enqueued, after a trip through JSON (dates
 * arrive as strings): validate it. Delivery is at least once, so doing the same work twice must
 * be harmless. The signal aborts when the handler runs out of time; one that ignores it is no
 * longer waited for (the row is retried) but keeps running.
 */
export type OutboxHandler = (payload: unknown, signal: AbortSignal) => Promise<void>;

export interface OutboxWorkerOptions {
  db: Db;
  handlers: Record<string, OutboxHandler>;
  pollIntervalMs?: number;
  batchSize?: number;
  /** How long a claimed row stays hidden from other workers; a crashed worker's rows return after it. */
  leaseMs?: number;
  /** A row still failing this long after it was enqueued is marked failed and left alone. */
  giveUpAfterMs?: number;
  /** How long a handler may run before it counts as failed (its signal aborts); default half the lease. */
  handlerTimeoutMs?: number;
  /** The clock, for tests; by default the database's, which every instance shares. */
  now?: () => Date;
}

export interface OutboxWorker {
  /**
   * Stops polling; the rest of the batch in flight is handed back for another worker, and this
   * resolves once the row being handled is finished (at most `handlerTimeoutMs`) and recorded.
   */
  stop(): Promise<void>;
  /** Claims and runs one batch now; resolves to the number of rows claimed. */
  runOnce(): Promise<number>;
}

const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 60 * 60_000;
const MAX_ERROR_LENGTH = 500;

/**
 * Drops the outbox rows about these orders (e-mails, sales reports), in the transaction that
 * deletes them, so nothing goes out for an order that no longer exists. Answers how many.
 */
export async function dropOrderJobs(db: Db, orderIds: readonly string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  // One parameter for the whole list, however long.
  const dropped = await db
    .delete(outbox)
    .where(
      sql`${outbox.payload}->>'orderId' in (select jsonb_array_elements_text(${JSON.stringify(orderIds)}::jsonb))`,
    )
    .returning({ id: outbox.id });
  return dropped.length;
}

/** Work for the outbox: what to do (`topic`), with what, and not before when. */
export interface OutboxJob {
  topic: string;
  payload: unknown;
  runAt?: Date;
}

/**
 * Queues work for after the transaction `db` belongs to commits; the returned id is the row's.
 * Nothing is queued when that transaction rolls back.
 */
export async function enqueue(
  db: Db,
  topic: string,
  payload: unknown,
  options: { runAt?: Date } = {},
): Promise<number> {
  const [row] = await db
    .insert(outbox)
    .values({ topic, payload, runAt: options.runAt })
    .returning({ id: outbox.id });
  return row!.id;
}

/**
 * enqueue's insert as a part (`with`) of another module's statement, so the work is queued in that
 * statement's round trip, with the same guarantees; built once per shape: the jobs' topics (and
 * which have a time) are its shape, their payloads and times its values, named from `prefix`.
 */
export function enqueueingPart(jobs: readonly OutboxJob[], prefix: string): StatementPart<Db> {
  const values: Record<string, unknown> = {};
  jobs.forEach((job, at) => {
    values[`${prefix}${at}payload`] = job.payload;
    if (job.runAt) values[`${prefix}${at}runAt`] = job.runAt;
  });
  return {
    key: jobs.map((job) => `${job.topic}${job.runAt ? '@' : ''}`).join(','),
    build: (db) =>
      db.insert(outbox).values(
        jobs.map((job, at) => ({
          topic: job.topic,
          payload: sql.placeholder(`${prefix}${at}payload`),
          ...(job.runAt ? { runAt: sql.placeholder(`${prefix}${at}runAt`) } : {}),
        })),
      ),
    values,
  };
}

export function startOutboxWorker({
  db,
  handlers,
  pollIntervalMs = 1_000,
  batchSize = 10,
  leaseMs = 60_000,
  giveUpAfterMs = 24 * 60 * 60_000,
  handlerTimeoutMs = Math.floor(leaseMs / 2),
  now,
}: OutboxWorkerOptions): OutboxWorker {
  if (handlerTimeoutMs >= leaseMs) {
    // Past its lease, another worker would start the same row while this one still runs it.
    throw new Error('The outbox handler timeout must be shorter than the lease');
  }
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // One batch at a time per worker, whether the poll or a caller asked for it.
  let queue: Promise<unknown> = Promise.resolve();

  const clock = (): SQL => (now ? sql`${now().toISOString()}::timestamptz` : sql`now()`);
  const plus = (ms: number): SQL => sql`${clock()} + make_interval(secs => ${ms / 1000})`;
  const minus = (ms: number): SQL => sql`${clock()} - make_interval(secs => ${ms / 1000})`;

  type Claimed = { id: number; topic: string; payload: unknown; attempts: number };

  const claim = (): Promise<Claimed[]> => {
    const due = db
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(eq(outbox.status, 'pending'), lte(outbox.runAt, clock())))
      .orderBy(asc(outbox.runAt))
      .limit(batchSize)
      .for('update', { skipLocked: true });
    return db
      .update(outbox)
      .set({ runAt: plus(leaseMs), attempts: sql`${outbox.attempts} + 1` })
      .where(inArray(outbox.id, due))
      .returning({
        id: outbox.id,
        topic: outbox.topic,
        payload: outbox.payload,
        attempts: outbox.attempts,
      });
  };

  // The worker writes the outcome only while the row is still its claim: a newer claim (after
  // this one's lease ran out) bumped `attempts`, and that worker records its own outcome.
  const stillOurs = (row: Claimed) =>
    and(eq(outbox.id, row.id), eq(outbox.status, 'pending'), eq(outbox.attempts, row.attempts));

  const succeed = async (row: Claimed) => {
    // A delivery is done whoever made it, so no check of `attempts` here.
    await db
      .update(outbox)
      .set({ status: 'done', processedAt: clock(), lastError: null })
      .where(and(eq(outbox.id, row.id), eq(outbox.status, 'pending')));
  };

  const giveUp = async (row: Claimed, error: string) => {
    outboxFailures.inc({ topic: row.topic });
    const [updated] = await db
      .update(outbox)
      .set({ status: 'failed', processedAt: clock(), lastError: error })
      .where(stillOurs(row))
      .returning({ id: outbox.id });
    if (updated)
      logger.error(
        { topic: row.topic, id: row.id, attempts: row.attempts, error },
        'Outbox job failed for good',
      );
  };

  const retryLater = async (row: Claimed, error: string) => {
    outboxFailures.inc({ topic: row.topic });
    const backoff = Math.min(FIRST_RETRY_MS * 2 ** (row.attempts - 1), MAX_RETRY_MS);
    const delay = Math.round(backoff * (1 + Math.random() * 0.1));
    const tooOld = sql`${outbox.createdAt} <= ${minus(giveUpAfterMs)}`;
    const [updated] = await db
      .update(outbox)
      .set({
        runAt: plus(delay),
        lastError: error,
        status: sql`case when ${tooOld} then 'failed' else 'pending' end`,
        processedAt: sql`case when ${tooOld} then ${clock()} end`,
      })
      .where(stillOurs(row))
      .returning({ status: outbox.status });
    if (updated?.status === 'failed') {
      logger.error(
        { topic: row.topic, id: row.id, attempts: row.attempts, error },
        'Outbox job gave up: still failing long after it was queued',
      );
    } else if (updated) {
      logger.warn(
        { topic: row.topic, id: row.id, attempts: row.attempts, error, retryInMs: delay },
        'Outbox job failed; will retry',
      );
    }
  };

  // Rows claimed but not run because the worker is stopping: due again at once, the claim not
  // counted as an attempt, so another instance (or the next start) takes them without waiting.
  const release = async (rows: Claimed[]) => {
    for (const row of rows) {
      await db
        .update(outbox)
        .set({ runAt: clock(), attempts: sql`${outbox.attempts} - 1` })
        .where(stillOurs(row));
    }
  };

  const run = async (handler: OutboxHandler, row: Claimed): Promise<void> => {
    const controller = new AbortController();
    let deadline: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      deadline = setTimeout(() => {
        const error = new Error(`Timed out after ${handlerTimeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, handlerTimeoutMs);
    });
    const work = Promise.resolve().then(() => handler(row.payload, controller.signal));
    // Once abandoned, a late rejection must not become an unhandled one.
    work.catch(() => {});
    try {
      await Promise.race([work, timedOut]);
    } finally {
      clearTimeout(deadline);
    }
  };

  const batch = async (): Promise<number> => {
    if (stopped) return 0;
    const rows = await claim();
    rows.sort((a, b) => a.id - b.id);
    for (const [index, row] of rows.entries()) {
      if (stopped) {
        await release(rows.slice(index));
        break;
      }
      const handler = Object.hasOwn(handlers, row.topic) ? handlers[row.topic] : undefined;
      if (!handler) {
        await giveUp(row, `No handler for topic "${row.topic}"`);
        continue;
      }
      try {
        await run(handler, row);
      } catch (error) {
        await retryLater(row, shortError(error));
        continue;
      }
      await succeed(row);
    }
    return rows.length;
  };

  const runOnce = (): Promise<number> => {
    const result = queue.then(batch);
    queue = result.catch(() => {});
    return result;
  };

  const poll = async () => {
    timer = undefined;
    let claimed = 0;
    try {
      claimed = await runOnce();
    } catch (error) {
      logger.error({ err: error }, 'Outbox poll failed; will try again');
    }
    // A full batch suggests more are waiting.
    if (!stopped) schedule(claimed >= batchSize ? 0 : pollIntervalMs);
  };

  const schedule = (delay: number) => {
    timer = setTimeout(() => void poll(), delay);
    // Pending work must not keep a process alive that is otherwise done.
    timer.unref();
  };

  schedule(pollIntervalMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await queue;
    },
  };
}

/** A handler's error as stored in last_error: short, credentials in URLs masked. */
function shortError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\/\/[^/\s:@]+:[^/\s@]+@/g, '//***@').slice(0, MAX_ERROR_LENGTH);
}

/** The jobs waiting per topic and how long the oldest has waited, for /metrics. */
export async function outboxBacklog(
  db: Db,
): Promise<{ topic: string; pending: number; oldestSeconds: number }[]> {
  return db
    .select({
      topic: outbox.topic,
      pending: sql<number>`count(*)::int`,
      oldestSeconds: sql<number>`extract(epoch from now() - min(${outbox.createdAt}))::float8`,
    })
    .from(outbox)
    .where(eq(outbox.status, 'pending'))
    .groupBy(outbox.topic);
}
