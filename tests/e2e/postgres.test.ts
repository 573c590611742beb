import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import * as schema from '~/db/schema';

import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { startServer, type TestServer } from '../support/server';

describe.runIf(TEST_DATABASE_URL)('the server on PostgreSQL', () => {
  const name = uniqueDatabaseName('vitrine_e2e');
  let server: TestServer;
  let client: pg.Client;

  beforeAll(async () => {
    const url = await createDatabase(TEST_DATABASE_URL!, name);
    server = await startServer({ env: { DATABASE_URL: url } });
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await server?.stop();
    await dropDatabase(TEST_DATABASE_URL!, name);
  });

  it('creates its tables in a fresh database and lists the sample products', async () => {
    const tables = await client.query(
      "select count(*)::int as count from information_schema.tables where table_schema = 'public'",
    );
    // Every table of the schema, and nothing else, comes from the migrations.
    expect(tables.rows[0].count).toBe(Object.values(schema).filter((v) => is(v, PgTable)).length);
    const html = await (await fetch(server.url)).text();
    expect(html.match(/data-testid="product-card"/g)).toHaveLength(8);
    expect(html).toContain('R$ 1.234,56');
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({
      status: 'ok',
      database: 'postgres',
    });
  });

  it('serves a colour changed in the database on the next requests, without a restart', async () => {
    expect(await (await fetch(server.url)).text()).toContain('--store-primary-color:#3b82f6');
    await client.query(
      `update store_settings set values = values || '{"primary_color": "#a21caf"}'::jsonb`,
    );
    // The change travels by NOTIFY; allow it a moment to arrive.
    await expect
      .poll(async () => (await fetch(server.url)).text(), { timeout: 5_000, interval: 50 })
      .toContain('--store-primary-color:#a21caf');
  });

  it('keeps serving valid CSS when a colour is broken by hand', async () => {
    await client.query(
      `update store_settings set values = values || '{"primary_color": "red;}body{display:none"}'::jsonb`,
    );
    await expect
      .poll(async () => (await fetch(server.url)).text(), { timeout: 5_000, interval: 50 })
      .toContain('--store-primary-color:#3b82f6');
  });

  it('reports 503 on /healthz when the database goes away', async () => {
    await client.end();
    await dropDatabase(TEST_DATABASE_URL!, name);
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'unavailable' });
  });
});
