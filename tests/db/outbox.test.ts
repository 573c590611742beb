import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

import type { Db } from '~/db/database.server';
import { outbox } from '~/db/schema';
import { logger } from '~/lib/logger.server';
import {
  enqueue,
  startOutboxWorker,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from '~/modules/jobs/index.server';

import { describeDb, queryRows } from '../support/db';

const HOUR = 60 * 60_000;

const allRows = (db: Db) => db.select().from(outbox).orderBy(asc(outbox.id));

async function oneRow(db: Db, id: number) {
  const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
  return row!;
}

/**
 * A clock the test moves by hand, starting a little ahead of the database's: a row's createdAt is
 * the database's, and the worker weighs it against this clock (with faketime, this process's
 * clock is not the database's).
 */
async function testClock(db: Db) {
  const [row] = await queryRows<{ now: string | Date }>(db, sql`select now() as now`);
  let current = new Date(row!.now).getTime() + 1_000;
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
    at: (date: Date) => {
      current = date.getTime();
    },
  };
}

describeDb('outbox', ({ db }) => {
  const workers: OutboxWorker[] = [];
  // Polling is left to the tests (runOnce), except where the loop itself is under test.
  const worker = (options: Omit<OutboxWorkerOptions, 'db'>) => {
    const started = startOutboxWorker({ db: db(), pollIntervalMs: HOUR, ...options });
    workers.push(started);
    return started;
  };

  beforeEach(() => {
    // Retries are logged as warnings; the tests that care spy on them.
    vi.spyOn(logger, 'warn').mockImplementation(() => {});
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    vi.restoreAllMocks();
  });

  it('delivers a row once, with its payload, and records it as done', async () => {
    const seen: unknown[] = [];
    const id = await enqueue(db(), 'mail', { orderId: 'abc', at: new Date(0) });
    const w = worker({ handlers: { mail: async (payload) => void seen.push(payload) } });

    expect(await w.runOnce()).toBe(1);
    expect(await w.runOnce()).toBe(0);
    expect(seen).toEqual([{ orderId: 'abc', at: '1970-01-01T00:00:00.000Z' }]);
    const row = await oneRow(db(), id);
    expect(row).toMatchObject({ status: 'done', attempts: 1, lastError: null });
    expect(row.processedAt).toBeInstanceOf(Date);
  });

  it('waits for runAt', async () => {
    const clock = await testClock(db());
    await enqueue(db(), 'mail', {}, { runAt: new Date(clock.now().getTime() + 60_000) });
    const handler = vi.fn(async () => {});
    const w = worker({ handlers: { mail: handler }, now: clock.now });

    expect(await w.runOnce()).toBe(0);
    clock.advance(60_000);
    expect(await w.runOnce()).toBe(1);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('retries a failing handler later and later, keeping its error', async () => {
    const clock = await testClock(db());
    const id = await enqueue(db(), 'utmify', { n: 1 }, { runAt: clock.now() });
    let calls = 0;
    const w = worker({
      now: clock.now,
      handlers: {
        utmify: async () => {
          calls += 1;
          if (calls < 4) throw new Error(`UTMify answered 503 (call ${calls})`);
        },
      },
    });
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await w.runOnce()).toBe(1);
      const row = await oneRow(db(), id);
      expect(row).toMatchObject({
        status: 'pending',
        attempts: attempt,
        lastError: `UTMify answered 503 (call ${attempt})`,
      });
      delays.push(row.runAt.getTime() - clock.now().getTime());
      // Not due yet: nothing is claimed until runAt.
      expect(await w.runOnce()).toBe(0);
      clock.at(row.runAt);
    }
    // 10 s, 20 s, 40 s, each with up to 10 % jitter.
    for (const [i, base] of [10_000, 20_000, 40_000].entries()) {
      expect(delays[i]).toBeGreaterThanOrEqual(base);
      expect(delays[i]).toBeLessThanOrEqual(base * 1.1 + 1);
    }
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ topic: 'utmify', id, attempts: 1 }),
      expect.any(String),
    );

    expect(await w.runOnce()).toBe(1);
    expect(await oneRow(db(), id)).toMatchObject({ status: 'done', attempts: 4, lastError: null });
  });

  it('caps the wait between attempts at about an hour', async () => {
    const clock = await testClock(db());
    const id = await enqueue(db(), 'utmify', {}, { runAt: clock.now() });
    await db().update(outbox).set({ attempts: 20 }).where(eq(outbox.id, id));
    const w = worker({
      now: clock.now,
      handlers: {
        utmify: async () => {
          throw new Error('down');
        },
      },
    });

    await w.runOnce();
    const delay = (await oneRow(db(), id)).runAt.getTime() - clock.now().getTime();
    expect(delay).toBeGreaterThanOrEqual(HOUR);
    expect(delay).toBeLessThanOrEqual(HOUR * 1.1 + 1);
  });

  it('gives up on a row still failing a day after it was queued, with an error in the log', async () => {
    const id = await enqueue(db(), 'utmify', {});
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const handlers = {
      utmify: async () => {
        throw new Error('UTMify answered 500');
      },
    };
    const w = worker({ handlers });

    // Younger than a day: retried.
    await w.runOnce();
    expect(await oneRow(db(), id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(error).not.toHaveBeenCalled();

    await db()
      .update(outbox)
      .set({ createdAt: sql`now() - interval '25 hours'`, runAt: sql`now()` })
      .where(eq(outbox.id, id));
    expect(await w.runOnce()).toBe(1);
    const row = await oneRow(db(), id);
    expect(row).toMatchObject({ status: 'failed', attempts: 2, lastError: 'UTMify answered 500' });
    expect(row.processedAt).toBeInstanceOf(Date);
    expect(error).toHaveBeenCalledWith(
      { topic: 'utmify', id, attempts: 2, error: 'UTMify answered 500' },
      expect.stringContaining('gave up'),
    );

    // Failed rows stay where they are.
    await db()
      .update(outbox)
      .set({ runAt: sql`now() - interval '1 hour'` });
    expect(await w.runOnce()).toBe(0);
  });

  it('fails a row of an unknown topic at once, with an error in the log', async () => {
    const id = await enqueue(db(), 'fax', { to: '0800' });
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const w = worker({ handlers: { mail: async () => {} } });

    expect(await w.runOnce()).toBe(1);
    expect(await oneRow(db(), id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'No handler for topic "fax"',
    });
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ topic: 'fax', id, attempts: 1 }),
      expect.any(String),
    );
  });

  it('keeps no secret from a URL in last_error', async () => {
    const id = await enqueue(db(), 'mail', {});
    const w = worker({
      handlers: {
        mail: async () => {
          throw new Error('connect ECONNREFUSED smtp://loja:s3cr3t@mail.test:587');
        },
      },
    });

    await w.runOnce();
    const { lastError } = await oneRow(db(), id);
    expect(lastError).toBe('connect ECONNREFUSED smtp://***@mail.test:587');
  });

  it('never delivers a row enqueued in a transaction that rolled back', async () => {
    await expect(
      db().transaction(async (tx) => {
        await enqueue(tx, 'mail', { order: 'rolled back' });
        throw new Error('order failed');
      }),
    ).rejects.toThrow('order failed');
    await db().transaction(async (tx) => {
      await enqueue(tx, 'mail', { order: 'committed' });
    });
    const seen: unknown[] = [];
    const w = worker({ handlers: { mail: async (payload) => void seen.push(payload) } });

    expect(await w.runOnce()).toBe(1);
    expect(await w.runOnce()).toBe(0);
    expect(seen).toEqual([{ order: 'committed' }]);
    expect(await allRows(db())).toHaveLength(1);
  });

  it('never lets two workers deliver the same row', async () => {
    const total = 60;
    for (let n = 0; n < total; n++) await enqueue(db(), 'mail', { n });
    const deliveries: number[] = [];
    const handler = async (payload: unknown) => {
      deliveries.push((payload as { n: number }).n);
      // Yield, so the other worker's claim can run in between.
      await new Promise((resolve) => setTimeout(resolve, 1));
    };
    const a = worker({ handlers: { mail: handler }, batchSize: 7 });
    const b = worker({ handlers: { mail: handler }, batchSize: 7 });

    for (;;) {
      const [fromA, fromB] = await Promise.all([a.runOnce(), b.runOnce()]);
      if (fromA + fromB === 0) break;
    }
    expect(deliveries).toHaveLength(total);
    expect(new Set(deliveries).size).toBe(total);
    const rows = await allRows(db());
    expect(rows.every((row) => row.status === 'done' && row.attempts === 1)).toBe(true);
  });

  it("takes back a crashed worker's claim once its lease has run out", async () => {
    const clock = await testClock(db());
    const id = await enqueue(db(), 'mail', {}, { runAt: clock.now() });
    // What a claim leaves behind when its worker dies before recording anything.
    await db()
      .update(outbox)
      .set({ attempts: 1, runAt: new Date(clock.now().getTime() + 60_000) })
      .where(eq(outbox.id, id));
    const handler = vi.fn(async () => {});
    const w = worker({ handlers: { mail: handler }, now: clock.now, leaseMs: 60_000 });

    clock.advance(30_000);
    expect(await w.runOnce()).toBe(0);
    clock.advance(30_000);
    expect(await w.runOnce()).toBe(1);
    expect(await oneRow(db(), id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('counts a handler that outlives its time limit as failed, aborting its signal', async () => {
    const id = await enqueue(db(), 'mail', {});
    let signal: AbortSignal | undefined;
    const w = worker({
      leaseMs: 1_000,
      handlerTimeoutMs: 50,
      handlers: {
        // Ignores the signal and never ends.
        mail: (_payload, s) => {
          signal = s;
          return new Promise(() => {});
        },
      },
    });

    expect(await w.runOnce()).toBe(1);
    expect(signal?.aborted).toBe(true);
    expect(await oneRow(db(), id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'Timed out after 50 ms',
    });
  });

  it('refuses a handler time limit as long as the lease', () => {
    expect(() => worker({ handlers: {}, leaseMs: 100 })).not.toThrow();
    expect(() => worker({ handlers: {}, leaseMs: 100, handlerTimeoutMs: 100 })).toThrow(
      /shorter than the lease/,
    );
  });

  it('on stop, finishes the row in flight and hands the rest of the batch back', async () => {
    const ids = [
      await enqueue(db(), 'mail', { n: 1 }),
      await enqueue(db(), 'mail', { n: 2 }),
      await enqueue(db(), 'mail', { n: 3 }),
    ];
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const handler = vi.fn(() => {
      started();
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const w = worker({ handlers: { mail: handler } });

    const batch = w.runOnce();
    await handlerStarted;
    let stopped = false;
    const stopping = w.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(await batch).toBe(3);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(await w.runOnce()).toBe(0);

    const rows = await allRows(db());
    expect(rows.map((row) => [row.id, row.status, row.attempts])).toEqual([
      [ids[0], 'done', 1],
      [ids[1], 'pending', 0],
      [ids[2], 'pending', 0],
    ]);
    // Due at once for the next worker.
    const next = worker({ handlers: { mail: async () => {} } });
    expect(await next.runOnce()).toBe(2);
  });

  it('polls by itself until stopped', async () => {
    const delivered = vi.fn(async () => {});
    worker({ handlers: { mail: delivered }, pollIntervalMs: 10 });
    await enqueue(db(), 'mail', {});
    await vi.waitFor(() => expect(delivered).toHaveBeenCalledTimes(1));
  });

  it('keeps polling after the database fails, logging the error', async () => {
    const failing = {
      select: () => {
        throw new Error('connection lost');
      },
    } as unknown as Db;
    const error = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const w = startOutboxWorker({ db: failing, handlers: {}, pollIntervalMs: 5 });
    workers.push(w);
    await vi.waitFor(() => expect(error.mock.calls.length).toBeGreaterThanOrEqual(2));
    await expect(w.runOnce()).rejects.toThrow('connection lost');
  });
});
