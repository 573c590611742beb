import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../support/ports';
import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { startReplicaCluster, type ReplicaCluster } from '../support/replica';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor } from '../support/visitor';

const TOKEN = 'metricas-da-replica-0123456789';

describe.runIf(TEST_DATABASE_URL)('a streaming read replica (DATABASE_REPLICA_URL)', () => {
  const name = uniqueDatabaseName('replica');
  const product = sampleProduct('Teclado');
  const path = sampleProductPath('Teclado');
  let cluster: ReplicaCluster | undefined;
  let server: TestServer;
  let primary: pg.Client;
  let replica: pg.Client;

  beforeAll(async () => {
    // Made before the copy, so the replica has the database from its start.
    const url = await createDatabase(TEST_DATABASE_URL!, name);
    cluster = await startReplicaCluster(TEST_DATABASE_URL!, await freePort());
    server = await startServer({
      env: {
        DATABASE_URL: url,
        DATABASE_REPLICA_URL: cluster.url(name),
        METRICS_TOKEN: TOKEN,
        PAYMENT_PROVIDER: 'sandbox',
      },
    });
    primary = new pg.Client({ connectionString: url });
    await primary.connect();
    replica = new pg.Client({ connectionString: cluster.url(name) });
    await replica.connect();
  });
  afterAll(async () => {
    // Every step, whatever became of the others: the replica cluster never outlives the file.
    try {
      await primary?.end().catch(() => {});
      await replica?.end().catch(() => {});
      await server?.stop();
    } finally {
      try {
        await cluster?.remove();
      } finally {
        await dropDatabase(TEST_DATABASE_URL!, name);
      }
    }
  });

  const setPrice = (cents: number) =>
    primary.query('update products set price_cents = $1 where id = $2', [cents, product.id]);
  const replicaPrice = async () =>
    (await replica.query('select price_cents from products where id = $1', [product.id])).rows[0]
      ?.price_cents as number | undefined;

  /** Stops the replica replaying the primary's changes for the length of `during`. */
  async function withReplayPaused(during: () => Promise<void>) {
    await replica.query('select pg_wal_replay_pause()');
    await expect
      .poll(
        async () =>
          (await replica.query('select pg_get_wal_replay_pause_state() as state')).rows[0].state,
      )
      .toBe('paused');
    try {
      await during();
    } finally {
      await replica.query('select pg_wal_replay_resume()');
    }
  }

  /** The server's count of storefront queries answered by each database (/metrics). */
  async function reads() {
    const response = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const text = await response.text();
    const count = (database: string) =>
      Number(
        new RegExp(`^vitrine_read_queries_total\\{database="${database}"\\} (\\d+)$`, 'm').exec(
          text,
        )?.[1] ?? 0,
      );
    return { replica: count('replica'), primary: count('primary') };
  }

  let searches = 0;
  /** A catalogue search no cache has kept: its loader reads the database. */
  const freshSearch = () => fetch(`${server.url}/products?q=teclado+${(searches += 1)}`);

  /** Waits until a fresh page's queries are answered by the replica. */
  async function readingFromReplica() {
    const before = (await reads()).replica;
    await expect
      .poll(
        async () => {
          expect((await freshSearch()).status).toBe(200);
          return (await reads()).replica;
        },
        { interval: 100 },
      )
      .toBeGreaterThan(before);
  }

  it('reads the storefront from the replica once it has replayed the primary', async () => {
    await readingFromReplica();
    // The primary's pool is the one /metrics counts.
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).text();
    const total = /^vitrine_db_pool_connections\{state="total"\} (\d+)$/m.exec(metrics)?.[1];
    expect(Number(total)).toBeGreaterThan(0);
    const page = await new Visitor(server.url).get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(product.name);
  });

  it('never serves a price the replica has not replayed, and reads it again once it has', async () => {
    await setPrice(43_21);
    await expect.poll(replicaPrice).toBe(43_21);
    const visitor = new Visitor(server.url);
    await expect
      .poll(async () => {
        const page = await visitor.get(path);
        return `${page.headers.get('x-page-cache')} ${page.text.includes('R$ 43,21')}`;
      })
      .toBe('hit true');

    await withReplayPaused(async () => {
      const before = await reads();
      await setPrice(98_76);
      // The change is heard at once (NOTIFY), and the page is rendered again from the primary.
      // What is held here is that it is never stale, not how fast a busy machine renders it.
      await expect
        .poll(async () => (await visitor.get(path)).text, { timeout: 10_000, interval: 25 })
        .toContain('R$ 98,76');
      // The replica still has the old price: the new one came from the primary.
      expect(await replicaPrice()).toBe(43_21);
      // Not once the old price again: the cache is not filled from the replica behind.
      for (let request = 0; request < 30; request += 1) {
        const page = await visitor.get(path);
        expect(page.text).toContain('R$ 98,76');
        expect(page.text).not.toContain('R$ 43,21');
      }
      const kept = await visitor.get(path);
      expect(kept.headers.get('x-page-cache')).toBe('hit');
      expect(kept.text).toContain('R$ 98,76');
      const search = await (await freshSearch()).text();
      expect(search).toContain(product.name);
      const during = await reads();
      expect(during.primary).toBeGreaterThan(before.primary);
      expect(during.replica).toBe(before.replica);
    });

    await expect.poll(replicaPrice).toBe(98_76);
    await readingFromReplica();
    const page = await visitor.get(path);
    expect(page.text).toContain('R$ 98,76');
    expect(page.text).not.toContain('R$ 43,21');
  });

  it('places orders on the primary while the replica is behind', async () => {
    const shopper = new Visitor(server.url);
    let orderId = '';
    await withReplayPaused(async () => {
      await shopper.addToCart(product.id);
      ({ orderId } = await shopper.checkout());
      const count = 'select count(*)::int as count from orders where id = $1';
      expect((await primary.query(count, [orderId])).rows[0].count).toBe(1);
      expect((await replica.query(count, [orderId])).rows[0].count).toBe(0);
      // The order's own page reads the primary: the replica does not have the order yet.
      expect(await shopper.orderNumber(orderId)).toMatch(/^\d+$/);
    });
    await expect
      .poll(
        async () => (await replica.query('select 1 from orders where id = $1', [orderId])).rowCount,
      )
      .toBe(1);
  });
});
