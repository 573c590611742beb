import { readFile } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sampleProduct } from '../support/sample';
import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { startServer, START_BUDGET_MS, type TestServer } from '../support/server';
import { until } from '../support/until';
import { Visitor } from '../support/visitor';

// WEB_CONCURRENCY (ADR 051): one process starts copies of the server on one port and one
// PostgreSQL database, and looks after them. Over HTTP: both copies answer, /metrics adds up
// theirs, a copy killed is replaced while the other answers, and SIGTERM stops them all.
const METRICS_TOKEN = 'server-copies-metrics-token-0123';
const HEADPHONES = sampleProduct('Fone de Ouvido');

/** The copies' process ids: the supervising process's children. */
async function copiesOf(server: TestServer): Promise<number[]> {
  const children = await readFile(
    `/proc/${server.child.pid}/task/${server.child.pid}/children`,
    'utf8',
  );
  return children.trim().split(/\s+/).filter(Boolean).map(Number);
}

/** CPU ticks a process has used (user and system, /proc/PID/stat). */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function metric(server: TestServer, name: string): Promise<number> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  const value = new RegExp(`^${name} (\\S+)$`, 'm').exec(await response.text())?.[1];
  return Number(value);
}

describe.runIf(TEST_DATABASE_URL)('copies of the server (WEB_CONCURRENCY)', () => {
  const name = uniqueDatabaseName('vitrine_copies');
  let server: TestServer;

  beforeAll(async () => {
    const url = await createDatabase(TEST_DATABASE_URL!, name);
    server = await startServer({
      env: {
        DATABASE_URL: url,
        WEB_CONCURRENCY: '2',
        METRICS_TOKEN,
        PAYMENT_PROVIDER: 'sandbox',
      },
    });
    await until(
      async () => (/2 cópias do servidor no ar/.test(server.output()) ? true : undefined),
      'the second copy',
      START_BUDGET_MS,
    );
  }, START_BUDGET_MS * 2);

  afterAll(async () => {
    if (server?.child.exitCode === null) await server.stop('SIGKILL');
    await dropDatabase(TEST_DATABASE_URL!, name);
  });

  it('answers from both copies, and counts the orders of both in /metrics', async () => {
    const copies = await copiesOf(server);
    expect(copies).toHaveLength(2);
    const before = await Promise.all(copies.map(cpuTicks));
    const orders = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const shopper = new Visitor(server.url);
        await shopper.addToCart(HEADPHONES.id);
        return shopper.checkout();
      }),
    );
    expect(new Set(orders.map((order) => order.orderId)).size).toBe(6);
    // Pages enough for the port's round robin to give each copy its share of the work.
    await Promise.all(Array.from({ length: 40 }, () => new Visitor(server.url).get('/products')));
    const after = await Promise.all(copies.map(cpuTicks));
    for (const [i, ticks] of after.entries()) expect(ticks).toBeGreaterThan(before[i]!);
    expect(await metric(server, 'vitrine_orders_placed_total')).toBe(6);
  });

  it(
    'starts a copy again when one dies, the other answering meanwhile',
    async () => {
      const [victim, survivor] = await copiesOf(server);
      process.kill(victim!, 'SIGKILL');
      // Gone, its connections closed: a client's kept-alive connection to it would be reset.
      await until(async () => {
        try {
          process.kill(victim!, 0);
          return undefined;
        } catch {
          return true;
        }
      }, 'the copy gone');
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let i = 0; i < 10; i++) {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      }
      const replaced = await until(async () => {
        const copies = await copiesOf(server);
        return copies.length === 2 && !copies.includes(victim!) ? copies : undefined;
      }, 'a new copy');
      expect(replaced).toContain(survivor);
      await until(
        async () =>
          (server.output().match(/Vitrine no ar em/g) ?? []).length === 3 ? true : undefined,
        'the new copy serving',
        START_BUDGET_MS,
      );
      expect(server.output()).toMatch(/Uma cópia do servidor parou; iniciando outra/);
    },
    START_BUDGET_MS,
  );

  it('stops every copy on SIGTERM, each finishing as a lone server does', async () => {
    const copies = await copiesOf(server);
    expect(await server.stop('SIGTERM')).toBe(0);
    for (const pid of copies) expect(() => process.kill(pid, 0)).toThrow();
    expect(server.output().match(/Servidor parado/g)).toHaveLength(2);
    expect(server.output()).toMatch(/Todas as cópias do servidor pararam/);
  });
});
