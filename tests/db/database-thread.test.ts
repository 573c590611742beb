import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { isUniqueViolation } from '~/db/errors.server';
import { PREPARED_PER_CONNECTION } from '~/db/prepared-statements.server';
import { coupons } from '~/db/schema';

import { describeDb, openPgliteFromTemplate } from '../support/db';
import { until } from '../support/until';

// What the app asks of its database, on both backends. On PGlite each of these crosses to the
// database's own thread and back (ADR 049): transactions held open across messages, queries
// outside one waiting for it, errors keeping their SQLSTATE, notifications (dumps: backup.test.ts).
describeDb('the database, as the app uses it', ({ backend, db, database }) => {
  const codes = async () =>
    (await db().select({ code: coupons.code }).from(coupons)).map((row) => row.code).sort();

  it('commits a transaction whole, and leaves nothing of one that failed', async () => {
    await db().transaction(async (tx) => {
      await tx.insert(coupons).values({ code: 'UMUM', kind: 'percent', value: 10 });
      await tx.insert(coupons).values({ code: 'DOIS', kind: 'percent', value: 10 });
    });
    await expect(
      db().transaction(async (tx) => {
        await tx.insert(coupons).values({ code: 'TRES', kind: 'percent', value: 10 });
        throw new Error('desistiu');
      }),
    ).rejects.toThrow('desistiu');
    expect(await codes()).toEqual(['DOIS', 'UMUM']);
  });

  it('rolls back a nested transaction alone', async () => {
    await db().transaction(async (tx) => {
      await tx.insert(coupons).values({ code: 'FORA', kind: 'percent', value: 10 });
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(coupons).values({ code: 'DENTRO', kind: 'percent', value: 10 });
          throw new Error('só o de dentro');
        }),
      ).rejects.toThrow('só o de dentro');
    });
    expect(await codes()).toEqual(['FORA']);
  });

  it('keeps a failed statement’s SQLSTATE and constraint, inside a transaction too', async () => {
    await db().insert(coupons).values({ code: 'IGUAL', kind: 'percent', value: 10 });
    const outside = await db()
      .insert(coupons)
      .values({ code: 'IGUAL', kind: 'percent', value: 20 })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isUniqueViolation(outside, 'coupons_code_idx')).toBe(true);
    const inside = await db()
      .transaction(async (tx) => {
        await tx.insert(coupons).values({ code: 'IGUAL', kind: 'percent', value: 30 });
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isUniqueViolation(inside, 'coupons_code_idx')).toBe(true);
    expect(isUniqueViolation(inside, 'another_idx')).toBe(false);
    // The failed transaction left the database usable.
    const [row] = await db().select().from(coupons).where(eq(coupons.code, 'IGUAL'));
    expect(row!.value).toBe(10);
  });

  it('answers many statements at once, each with its own rows', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        db().execute(sql`select ${i}::int as n, repeat('x', ${i}::int) as text`),
      ),
    );
    answers.forEach((answer, i) => {
      const [row] = (answer as unknown as { rows: { n: number; text: string }[] }).rows;
      expect(row).toEqual({ n: i, text: 'x'.repeat(i) });
    });
  });

  // PostgreSQL reads outside a transaction from another connection, without waiting.
  it.runIf(backend === 'pglite')(
    'makes a statement sent during a transaction wait for it, then see what it committed',
    async () => {
      const order: string[] = [];
      let reading: Promise<unknown> | undefined;
      await db().transaction(async (tx) => {
        await tx.insert(coupons).values({ code: 'ANTES', kind: 'percent', value: 10 });
        reading = db()
          .select()
          .from(coupons)
          .then((rows) => order.push(`read ${rows.length}`));
        // Give the read every chance to overtake the transaction.
        await new Promise((resolve) => setTimeout(resolve, 50));
        await tx.insert(coupons).values({ code: 'DEPOIS', kind: 'percent', value: 10 });
        order.push('commit');
      });
      await reading;
      expect(order).toEqual(['commit', 'read 2']);
    },
  );

  // PostgreSQL keeps them per connection, PGlite in its one session: the PGlite case opens a
  // database of its own, since the worker's shared one has prepared every earlier file's.
  it('prepares a statement sent again once, up to a bound, and sends others as they are', async () => {
    const own = backend === 'pglite' ? await openPgliteFromTemplate() : null;
    try {
      await (own?.db ?? db()).transaction(async (tx) => {
        for (const code of ['PRIMEIRO', 'SEGUNDO', 'TERCEIRO']) {
          await tx.select().from(coupons).where(eq(coupons.code, code));
        }
        // Several statements in one text, as a migration's file: never prepared, still run
        // (PGlite's `query` runs one statement; its migrations go through `exec`).
        if (backend === 'postgres') await tx.execute(sql.raw('select 1; select 2'));
        // The ones prepared by their text; Drizzle's prepared queries (preparedPer) carry names
        // of their own, and earlier tests may have left them on this connection.
        const prepared = async () =>
          (
            (await tx.execute(
              sql`select statement from pg_prepared_statements where name ~ '^vitrine_[0-9]+$'`,
            )) as unknown as {
              rows: { statement: string }[];
            }
          ).rows.map((row) => row.statement);
        // Its exact text: an earlier file's statement on coupons may be prepared on this pooled
        // connection too.
        const sent = tx.select().from(coupons).where(eq(coupons.code, 'PRIMEIRO')).toSQL().sql;
        expect(sent).toContain('"coupons"."code" = $1');
        expect((await prepared()).filter((text) => text === sent)).toHaveLength(1);
        expect(await prepared()).not.toContain('select 1; select 2');
        // More shapes than the bound: all answered, the prepared ones bounded.
        for (let i = 0; i <= PREPARED_PER_CONNECTION; i++) {
          const answer = (await tx.execute(
            sql`select ${i}::int + ${sql.raw(String(i))} as n`,
          )) as unknown as { rows: { n: number }[] };
          expect(answer.rows[0]!.n).toBe(2 * i);
        }
        expect((await prepared()).length).toBe(PREPARED_PER_CONNECTION);
      });
    } finally {
      await own?.close();
    }
  });

  it('tells each listener of a channel, until it stops listening', async () => {
    const heard = { feed: [] as string[], cache: [] as string[] };
    const listen = (who: keyof typeof heard) =>
      database().listen('database_thread_test', {
        onNotify: (payload) => heard[who].push(payload),
        onLiveChange: () => {},
      });
    const notify = (payload: string) =>
      db().execute(sql`select pg_notify('database_thread_test', ${payload})`);
    const stopFeed = await listen('feed');
    const stopCache = await listen('cache');
    try {
      await notify('olá');
      await until(async () => (heard.cache.length > 0 ? true : undefined), 'the notification');
      await stopFeed();
      await notify('de novo');
      await until(async () => (heard.cache.length > 1 ? true : undefined), 'the second one');
    } finally {
      await stopCache();
    }
    await notify('depois');
    // A statement after it is answered once the notification would have been delivered.
    await db().execute(sql`select 1`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual({ feed: ['olá'], cache: ['olá', 'de novo'] });
  });
});
