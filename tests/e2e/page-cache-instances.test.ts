import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor } from '../support/visitor';

describe.runIf(TEST_DATABASE_URL)('two instances on one PostgreSQL database', () => {
  const name = uniqueDatabaseName('vitrine_cache');
  const product = sampleProduct('Teclado');
  const path = sampleProductPath('Teclado');
  let first: TestServer;
  let second: TestServer;
  let client: pg.Client;

  beforeAll(async () => {
    const url = await createDatabase(TEST_DATABASE_URL!, name);
    // One after the other: the first creates the tables and the sample store.
    first = await startServer({ env: { DATABASE_URL: url } });
    second = await startServer({ env: { DATABASE_URL: url } });
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await first?.stop();
    await second?.stop();
    await dropDatabase(TEST_DATABASE_URL!, name);
  });

  const setPrice = (cents: number) =>
    client.query('update products set price_cents = $1 where id = $2', [cents, product.id]);

  /** Loads the page on `server` until it is answered from the cache. */
  async function warm(server: TestServer) {
    const visitor = new Visitor(server.url);
    await expect
      .poll(async () => (await visitor.get(path)).headers.get('x-page-cache'), { timeout: 5_000 })
      .toBe('hit');
  }

  it('serves a price changed with SQL from the other instance within a second', async () => {
    await warm(first);
    await warm(second);
    await setPrice(43_21);
    for (const server of [first, second]) {
      await expect
        .poll(async () => (await new Visitor(server.url).get(path)).text, {
          timeout: 1_000,
          interval: 25,
        })
        .toContain('R$ 43,21');
    }
  });

  it('bypasses its cache while its LISTEN connection is down, then keeps pages again', async () => {
    await warm(second);
    const listener = `vitrine listen storefront_changed ${second.child.pid}`;
    const killed = await client.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
      [listener],
    );
    expect(killed.rowCount).toBe(1);
    const visitor = new Visitor(second.url);
    await expect
      .poll(async () => (await visitor.get(path)).headers.get('x-page-cache'), { timeout: 2_000 })
      .toBe('bypass');
    // Whatever it missed meanwhile, it does not answer with what it kept before.
    await setPrice(98_76);
    expect((await visitor.get(path)).text).toContain('R$ 98,76');
    // It listens again on its own and goes back to its cache.
    await expect
      .poll(async () => (await visitor.get(path)).headers.get('x-page-cache'), {
        timeout: 10_000,
        interval: 100,
      })
      .toBe('hit');
    expect((await visitor.get(path)).text).toContain('R$ 98,76');
  });
});
