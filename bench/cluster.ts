// npx tsx bench/cluster.ts — what a second instance buys: checkout orders per second and cached
// page requests per second through nginx (the shipped site, docs/deploy/nginx, over TLS) in front
// of one instance and in front of two, on one PostgreSQL database, measured in the same run.
//
// Two production servers start on a scratch database with the sample store and a stock no run
// sells out; one nginx sends everything to the first, another shares it between both. The phases
// go one, two, two, one (pages, then orders, DURATION/4 s each), so a machine that slows over the
// run weighs on both alike. Shoppers are new each purchase (cookies, CPF, client address): POST
// /cart, GET /checkout, POST /checkout, a 303 to the order's page. Pages: GET /products from each
// instance's page cache (the orders' stock changes empty it now and then: a miss counts, a bypass
// fails). Client, nginx, both servers and PostgreSQL share this machine's cores, so a second
// instance can only add what one instance left idle: on 2 cores, expect well under 2×.
//
// Environment: DURATION (s, default 20), CONNECTIONS (default 20), BENCH_POSTGRES_URL (server for
// the scratch database; default postgres://postgres@127.0.0.1:5432/postgres), VITRINE_BUILD_DIR
// (default build-bench, built first if missing).
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'drizzle-orm';

import { openDatabase } from '~/db/database.server';

import { startNginx, type Nginx } from '../tests/support/nginx';
import { sampleProduct } from '../tests/support/sample';
import { Visitor } from '../tests/support/visitor';

import { positiveInteger } from './options';
import {
  BUILD_DIR,
  combineTallies,
  ensureBuilt,
  loadAverage,
  percentile,
  printTable,
  ROOT,
  runLoad,
  scratchPostgres,
  startServer,
  type Server,
  type Tally,
} from './support';

const DURATION_MS = positiveInteger('DURATION', 20) * 1000;
const CONNECTIONS = positiveInteger('CONNECTIONS', 20);
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PRODUCT = sampleProduct('Teclado Mecânico');
const PAGE = '/products';

/** Runs `task` in CONNECTIONS loops for `durationMs`. */
const loop = (durationMs: number, task: () => Promise<void>) =>
  runLoad(CONNECTIONS, durationMs, async () => task);

/** The orders 303s announced, warm-up included: the database must hold exactly these. */
let acknowledged = 0;

async function purchase(nginx: Nginx): Promise<void> {
  const shopper = new Visitor(nginx.url, { fetch: nginx.fetch });
  await shopper.addToCart(PRODUCT.id);
  await shopper.checkout();
  acknowledged += 1;
}

async function cachedPage(nginx: Nginx): Promise<void> {
  const response = await nginx.fetch(`${nginx.url}${PAGE}`, { headers: { accept: 'text/html' } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${PAGE} ${response.status}`);
  if (response.headers.get('x-page-cache') === 'bypass')
    throw new Error(`GET ${PAGE} bypassed the cache`);
}

async function main(): Promise<void> {
  await ensureBuilt();
  const database = await scratchPostgres(POSTGRES_URL, 'vitrine_cluster', async (db) => {
    await db.execute(sql`update product_variants set stock_quantity = 1000000`);
  });
  const secondDataDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-cluster-'));
  const servers: Server[] = [];
  const proxies: Nginx[] = [];
  try {
    const env = {
      DATABASE_URL: database.url,
      PAYMENT_PROVIDER: 'sandbox',
      CHECKOUT_RATE_LIMIT: '1000000',
    };
    servers.push(await startServer({ ...env, DATA_DIR: database.dataDir }));
    servers.push(await startServer({ ...env, DATA_DIR: secondDataDir }));
    const clientDir = join(ROOT, BUILD_DIR, 'client');
    const one = await startNginx({ instances: [servers[0]!.url, servers[0]!.url], clientDir });
    proxies.push(one);
    const two = await startNginx({ instances: [servers[0]!.url, servers[1]!.url], clientDir });
    proxies.push(two);

    // Warm: each instance's page cache and code paths, through each nginx.
    for (const nginx of [one, two]) {
      await loop(2_000, () => purchase(nginx));
      for (let i = 0; i < 4; i++) await cachedPage(nginx).catch(() => undefined);
    }
    const loadAtStart = loadAverage();
    const results = {
      one: { orders: [] as Tally[], pages: [] as Tally[] },
      two: { orders: [] as Tally[], pages: [] as Tally[] },
    };
    for (const phase of ['one', 'two', 'two', 'one'] as const) {
      const nginx = phase === 'one' ? one : two;
      console.log(`${phase === 'one' ? 'One instance' : 'Two instances'} (load ${loadAverage()})…`);
      results[phase].pages.push(await loop(DURATION_MS / 4, () => cachedPage(nginx)));
      results[phase].orders.push(await loop(DURATION_MS / 4, () => purchase(nginx)));
    }

    const verify = await openDatabase({ databaseUrl: database.url });
    let stored: number;
    try {
      const result = (await verify.db.execute(
        sql`select count(*)::int as n from orders`,
      )) as unknown as { rows: { n: number }[] };
      stored = result.rows[0]!.n;
    } finally {
      await verify.close();
    }

    const cpu = cpus()[0]?.model.trim() ?? '?';
    console.log(
      `\nThrough nginx (TLS), ${CONNECTIONS} connections, ${DURATION_MS / 2000} s per figure in ` +
        `two halves (one, two, two, one); client, nginx, servers and PostgreSQL on this machine: ` +
        `Node ${process.version}, ${availableParallelism()} CPU (${cpu}); load ${loadAtStart} at ` +
        `the start, ${loadAverage()} at the end.\n`,
    );
    const rows: string[][] = [];
    const rate = (tally: Tally) => tally.done / tally.seconds;
    for (const [what, pick] of [
      [`GET ${PAGE} (cached), requests`, 'pages'],
      ['checkout, orders', 'orders'],
    ] as const) {
      const single = combineTallies(results.one[pick]);
      const double = combineTallies(results.two[pick]);
      for (const [label, tally] of [
        ['one instance', single],
        ['two instances', double],
      ] as const) {
        rows.push([
          what,
          label,
          rate(tally).toFixed(1),
          percentile(tally.latencies, 50).toFixed(0),
          percentile(tally.latencies, 99).toFixed(0),
          String([...tally.failures.values()].reduce((sum, n) => sum + n, 0)),
        ]);
        for (const [reason, n] of tally.failures)
          console.log(`  ${what}, ${label}: ${n} × ${reason}`);
      }
      rows.push([what, 'two ÷ one', (rate(double) / rate(single)).toFixed(2), '', '', '']);
    }
    printTable(['Measure', 'Behind nginx', 'per s', 'p50 ms', 'p99 ms', 'failures'], rows, 2);
    if (stored !== acknowledged) {
      throw new Error(`${acknowledged} orders acknowledged by a 303, ${stored} in the database`);
    }
    console.log(`\n${stored} orders in the database = the 303s counted (warm-up included).`);
  } finally {
    for (const nginx of proxies) await nginx.stop();
    for (const server of servers) await server.stop();
    await rm(secondDataDir, { recursive: true, force: true });
    await database.cleanUp();
  }
}

await main();
