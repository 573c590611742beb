// npx tsx bench/checkout.ts — load test of the whole checkout, on PGlite and on PostgreSQL.
//
// For each backend: prepares a database with the sample store and a very large stock, starts the
// production server (`node server/main.js`, sandbox payments, no rate limit), and lets CONNECTIONS
// simulated shoppers buy for DURATION seconds after a warm-up. Each shopper reads the catalogue
// once, then loops: POST /cart (add one unit), GET /checkout (for the form's idempotency key),
// POST /checkout (order, stock, outbox and sandbox PIX) expecting a 303 to /order-confirmation.
// Then the same again with a coupon on every order (a 10% coupon with no limit, opened by the
// link /checkout?cupom=BENCH10 and sent back with the form): its ratio to the plain run is the
// cost of coupons (checked on the checkout page and again, with a use taken, in the order).
// Each purchase is a new shopper (the tests' Visitor, on the lighter benchFetch: fresh cookies,
// CPF and client address, sent as X-Forwarded-For), as the store allows few unpaid orders per
// browser, CPF and address (max_pending_orders).
// References measured in the same run with the same client and concurrency (GET / rendered
// each time, as the server runs without its page cache, and GET /healthz) give ratios that mean
// something across machines. At the end the orders in the database must equal the 303s counted.
//
// What an order costs, in measures a busy machine disturbs little: the server process's CPU per
// order (its /metrics; PostgreSQL's own work is not in it), and the statements the server sent
// (its /metrics counter, begin and commit included) per order over the measured runs, and per
// request of one purchase made alone; on PostgreSQL also how many of its connections waited on
// a lock during the plain runs (pg_stat_activity, sampled every 50 ms). The
// run fails when an order takes more than STATEMENTS_CEILING statements. PROFILE_DIR writes the
// server's CPU profile there (bench/profile-summary.ts reads it).
//
// Last, the same store with carrier shipping on (a server restarted with SHIPPING_PROVIDER
// melhorenvio against the fake Melhor Envio of the tests, on 127.0.0.1): each shopper asks
// /frete for a CEP of its own in São Paulo state, as the checkout's CEP field does, and sends the
// first option the page offers. Its orders/s beside the store's own rule is what a carrier quote
// costs an order; the fake's quote requests per order say how many went out.
//
// Then a sale day: the server restarted with its page cache on, CONNECTIONS shoppers buying while
// as many anonymous visitors read the home page, the catalogue and product pages. The share of
// those pages the cache answered says whether sales keep emptying it (each order's stock change
// announced as a storefront change did, before migration 0033).
//
// COMPARE_BUILD=<folder> (with ROUNDS, default 3) measures instead this build against an earlier
// one, plain purchases only, alternated (see compareBuilds). COMPARE_TREE=<folder> does the same
// against another checkout (a git worktree of an earlier commit, built into its `build` folder):
// its own server, migrations and database thread, on a database its server migrates and seeds.
//
// Environment: DURATION (s, default 15), WARMUP (s, default 3), CONNECTIONS (default 20),
// BENCH_POSTGRES_URL (server to create a scratch database on; default
// postgres://postgres@127.0.0.1:5432/postgres; BENCH_POSTGRES_URL=skip runs PGlite only,
// BENCH_PGLITE=skip PostgreSQL only),
// VITRINE_BUILD_DIR (default build-bench, built first if missing), WEB_CONCURRENCY (copies of the
// server on PostgreSQL, ADR 051; the server CPU per order is then all of theirs).
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { sql } from 'drizzle-orm';

import { openDatabase, type Db } from '~/db/database.server';
import { saveSettings } from '~/modules/settings/index.server';
import { salesByDay } from '~/modules/orders/index.admin.server';

import { startFakeMelhorEnvio, type FakeMelhorEnvio } from '../tests/support/fake-melhorenvio';
import { prepareStoreFolder } from '../tests/support/store';

import { positiveInteger } from './options';
import {
  benchFetch,
  benchShopper,
  BUILD_DIR,
  combineTallies,
  emptyPostgres,
  ensureBuilt,
  loadAverage,
  percentile,
  printTable,
  procCpuSeconds,
  ROOT,
  runLoad,
  scratchPostgres,
  shopperFields,
  startServer,
  type Checkout,
  type Server,
  type Tally,
} from './support';

const DURATION_MS = positiveInteger('DURATION', 15) * 1000;
const WARMUP_MS = positiveInteger('WARMUP', 3) * 1000;
const CONNECTIONS = positiveInteger('CONNECTIONS', 20);
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const STOCK = 1_000_000;
const COUPON = 'BENCH10';
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
const MELHOR_ENVIO_TOKEN = 'bench-melhor-envio-token';
/** Where the parcels leave from: carriers quote only with an origin CEP. */
const ORIGIN = { shipping_origin_cep: '01310-100' };
/**
 * The most statements one order (its three requests, the outbox's e-mail and payment work that
 * follows) may take on average; set from the figures of issue 37 with a little room.
 */
const STATEMENTS_CEILING = 22;

// ---------------------------------------------------------------------------------------------
// Database and server

async function countRows(db: Db, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await db.execute(query)) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

/**
 * The sample store with a stock no run can sell out, and the coupon of the coupon run; its sales
 * figures read once, as a store whose staff opened the dashboard (each order is then counted
 * into its day as it commits).
 */
async function fillStock(db: Db): Promise<void> {
  const saved = await saveSettings(db, ORIGIN);
  if (!saved.success) throw new Error('Could not set the origin CEP');
  await salesByDay(db, { from: '2026-01-01', to: '2026-01-01' }, 'America/Sao_Paulo');
  // A variant's stock: a product's own is their sum (migration 0022).
  await db.execute(sql`update product_variants set stock_quantity = ${STOCK}`);
  await db.execute(
    sql`insert into coupons (code, kind, value) values (${COUPON}, 'percent', 10) on conflict do nothing`,
  );
}

interface Backend {
  name: BackendName;
  env: Record<string, string>;
  open(): ReturnType<typeof openDatabase>;
  cleanUp(): Promise<void>;
  /** PostgreSQL's: its locks are watched during the run. */
  databaseUrl?: string;
}

type BackendName = 'PGlite' | 'PostgreSQL';

async function pgliteBackend(): Promise<Backend> {
  // Prepared and closed before the server starts: one process at a time in a PGlite folder.
  const dataDir = await prepareStoreFolder({}, fillStock);
  return {
    name: 'PGlite',
    // WEB_CONCURRENCY, given to the bench, is for PostgreSQL: the embedded database opens in one.
    env: { DATA_DIR: dataDir, WEB_CONCURRENCY: '1' },
    open: () => openDatabase({ dataDir }),
    cleanUp: () => rm(dataDir, { recursive: true, force: true }),
  };
}

async function postgresBackend(): Promise<Backend> {
  const { url, dataDir, cleanUp } = await scratchPostgres(POSTGRES_URL, 'vitrine_bench', fillStock);
  return {
    name: 'PostgreSQL',
    // DATA_DIR still holds the e-mails the outbox writes as .eml files.
    env: { DATABASE_URL: url, DATA_DIR: dataDir },
    open: () => openDatabase({ databaseUrl: url }),
    cleanUp,
    databaseUrl: url,
  };
}

/** An empty data folder for the embedded database, as emptyPostgres gives PostgreSQL's. */
async function emptyFolder() {
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-'));
  return { url: '', dataDir, cleanUp: () => rm(dataDir, { recursive: true, force: true }) };
}

/**
 * COMPARE_TREE's database: made by that checkout's own server, which migrates an empty one and
 * seeds the sample store as a new store's does (its schema is its own); then the same stock.
 */
async function treeBackend(name: BackendName, tree: Checkout): Promise<Backend> {
  const scratch =
    name === 'PostgreSQL'
      ? await emptyPostgres(POSTGRES_URL, 'vitrine_bench')
      : await emptyFolder();
  const env: Record<string, string> = scratch.url
    ? { DATABASE_URL: scratch.url, DATA_DIR: scratch.dataDir }
    : { DATA_DIR: scratch.dataDir, WEB_CONCURRENCY: '1' };
  const open = () =>
    scratch.url
      ? openDatabase({ databaseUrl: scratch.url })
      : openDatabase({ dataDir: scratch.dataDir });
  try {
    const seeding = await startServer({ ...env, SEED: 'true' }, undefined, tree);
    await seeding.stop();
    const database = await open();
    try {
      await database.db.execute(sql`update product_variants set stock_quantity = ${STOCK}`);
    } finally {
      await database.close();
    }
  } catch (error) {
    await scratch.cleanUp();
    throw error;
  }
  return {
    name,
    env,
    open,
    cleanUp: scratch.cleanUp,
    ...(scratch.url ? { databaseUrl: scratch.url } : {}),
  };
}

interface WatchedServer extends Server {
  /** The messages of the warnings and errors the server logged, with how often. */
  complaints: Map<string, number>;
}

/** The production server, with a count of the warnings and errors it logs. */
async function startWatchedServer(
  backend: Backend,
  extraEnv: Record<string, string> = {},
  checkout: Checkout = { root: ROOT, buildDir: BUILD_DIR },
): Promise<WatchedServer> {
  let partial = '';
  const complaints = new Map<string, number>();
  const count = (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      let message = line.slice(0, 200);
      try {
        const entry = JSON.parse(line) as {
          level?: number;
          msg?: string;
          error?: unknown;
          err?: { message?: string };
        };
        if ((entry.level ?? 0) < 40) continue;
        const cause = entry.err?.message ?? entry.error;
        message = `${entry.msg ?? message}${cause ? ` (${String(cause).slice(0, 120)})` : ''}`;
      } catch {
        // Not a log line: count it as it is.
      }
      if (message.trim()) complaints.set(message, (complaints.get(message) ?? 0) + 1);
    }
  };
  const server = await startServer(
    {
      PAYMENT_PROVIDER: 'sandbox',
      CHECKOUT_RATE_LIMIT: '1000000',
      // GET / is rendered on every request: the reference is a page's real work.
      PAGE_CACHE_MAX_BYTES: '0',
      METRICS_TOKEN,
      ...backend.env,
      ...extraEnv,
    },
    count,
    checkout,
  );
  return { ...server, complaints };
}

// ---------------------------------------------------------------------------------------------
// The client

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The product ids a shopper finds on /products. */
async function findProducts(base: string): Promise<string[]> {
  const page = await benchShopper(base).get('/products');
  if (page.status !== 200) throw new Error(`GET /products ${page.status}`);
  // Product links carry slugs; the add-to-cart forms carry the ids.
  const ids = [...page.text.matchAll(new RegExp(`name="productId" value="(${UUID})"`, 'g'))].map(
    (match) => match[1]!,
  );
  if (ids.length === 0) throw new Error('no products on /products');
  return [...new Set(ids)];
}

/** 303s to /order-confirmation: each one is an order in the database (`withCoupon` of them with the coupon). */
const confirmations = { count: 0, withCoupon: 0 };

/** How long each request of a purchase took (ms), while `steps.on`. */
const steps = {
  on: false,
  times: new Map<string, number[]>(),
  record(name: string, begin: number) {
    if (!this.on) return;
    const list = this.times.get(name) ?? [];
    list.push(performance.now() - begin);
    this.times.set(name, list);
  },
};

/**
 * One purchase by a new shopper: add to cart, open the checkout, place the order; throws if any
 * step answers otherwise.
 */
async function buy(
  base: string,
  productId: string,
  coupon: string | null,
  carrier = false,
): Promise<void> {
  const shopper = benchShopper(base);
  let begin = performance.now();
  await shopper.addToCart(productId);
  steps.record('POST /cart', begin);
  // With carriers, a CEP of its own (São Paulo state, 01000-000 to 19999-999): each quote is a
  // new one.
  const cep = carrier
    ? String(1_000_000 + Math.floor(Math.random() * 18_999_999)).padStart(8, '0')
    : null;
  if (cep) {
    const estimate = await shopper.get(`/frete?cep=${cep}`);
    if (estimate.status !== 200) throw new Error(`GET /frete ${estimate.status}`);
  }
  begin = performance.now();
  const page = await shopper.get(coupon ? `/checkout?cupom=${coupon}` : '/checkout');
  if (page.status !== 200) throw new Error(`GET /checkout ${page.status}`);
  steps.record('GET /checkout', begin);
  if (coupon && !page.text.includes(`Cupom ${coupon}`)) {
    throw new Error('GET /checkout without the coupon applied');
  }
  const key = /name="idempotencyKey" value="([^"]+)"/.exec(page.text)?.[1];
  if (!key) throw new Error('GET /checkout without an idempotency key');
  const option = /name="shippingOption" value="([^"]+)"/.exec(page.text)?.[1];
  if (carrier && !option) throw new Error('GET /checkout without shipping options');
  begin = performance.now();
  const placed = await shopper.post('/checkout', {
    ...shopperFields(shopper),
    ...(cep ? { zipCode: cep, shippingOption: option } : {}),
    idempotencyKey: key,
    ...(coupon ? { couponCode: coupon } : {}),
  });
  steps.record('POST /checkout', begin);
  if (placed.status !== 303) throw new Error(`POST /checkout ${placed.status}`);
  if (!placed.location?.startsWith('/order-confirmation?')) {
    throw new Error(`POST /checkout 303 to ${placed.location?.split('?')[0]}`);
  }
  confirmations.count += 1;
  if (coupon) confirmations.withCoupon += 1;
  if (!placed.location.includes('paymentId=')) throw new Error('POST /checkout without payment');
}

/** The server's own counts: statements sent to the database, orders placed. */
async function serverCounts(base: string): Promise<{
  statements: number;
  orders: number;
  cpuSeconds: number;
  pageHits: number;
  pageMisses: number;
}> {
  const response = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.text();
  const read = (name: string) => {
    // A server from before a counter existed (a comparison with older code) reads NaN.
    const value = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1];
    return value === undefined ? NaN : Number(value);
  };
  return {
    statements: read('vitrine_database_statements_total'),
    orders: read('vitrine_orders_placed_total'),
    cpuSeconds: read('process_cpu_seconds_total'),
    pageHits: read('vitrine_page_cache_requests_total\\{result="hit"\\}'),
    pageMisses: read('vitrine_page_cache_requests_total\\{result="miss"\\}'),
  };
}

/**
 * The statements of each request of one purchase made alone, medians of `times` purchases
 * (the outbox's background work may add a statement or two to a step now and then).
 */
async function statementsPerStep(
  base: string,
  productId: string,
  times: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number[]>();
  for (let i = 0; i < times; i++) {
    let before = (await serverCounts(base)).statements;
    const step = async (name: string) => {
      const now = (await serverCounts(base)).statements;
      counts.set(name, [...(counts.get(name) ?? []), now - before]);
      before = now;
    };
    const shopper = benchShopper(base);
    await shopper.addToCart(productId);
    await step('POST /cart');
    const page = await shopper.get('/checkout');
    await step('GET /checkout');
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page.text)?.[1];
    const placed = await shopper.post('/checkout', {
      ...shopperFields(shopper),
      idempotencyKey: key ?? '',
    });
    if (placed.status !== 303) throw new Error(`POST /checkout ${placed.status} (alone)`);
    confirmations.count += 1;
    await step('POST /checkout');
  }
  return new Map([...counts].map(([name, list]) => [name, percentile(list, 50)]));
}

/**
 * PostgreSQL's own view of a run: how many of the database's connections wait on a lock,
 * sampled every 50 ms (pg_stat_activity) until `stop` is called.
 */
function watchLocks(url: string) {
  const database = openDatabase({ databaseUrl: url });
  const samples: number[] = [];
  let running = true;
  const sampling = (async () => {
    const { db } = await database;
    while (running) {
      const result = (await db.execute(
        sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
      )) as unknown as { rows: { n: number }[] };
      samples.push(result.rows[0]!.n);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return async () => {
    running = false;
    await sampling;
    await (await database).close();
    const sum = samples.reduce((total, n) => total + n, 0);
    return {
      meanWaiting: sum / Math.max(1, samples.length),
      share: samples.filter((n) => n > 0).length / Math.max(1, samples.length),
    };
  };
}

/**
 * CPU seconds (user + system) the given processes have used, from /proc; a process gone since
 * counts nothing. Linux only: elsewhere NaN.
 */
function processCpuSeconds(pids: number[]): Promise<number> {
  if (process.platform !== 'linux') return Promise.resolve(NaN);
  return procCpuSeconds(pids.map((pid) => `/proc/${pid}/stat`));
}

/** The PostgreSQL backends serving the bench's database (the server's pool, once it is open). */
async function postgresBackendPids(url: string): Promise<number[]> {
  const database = await openDatabase({ databaseUrl: url });
  try {
    const result = (await database.db.execute(
      sql`select pid from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`,
    )) as unknown as { rows: { pid: number }[] };
    return result.rows.map((r) => r.pid);
  } finally {
    await database.close();
  }
}

/** Runs the task `setUp` makes in CONNECTIONS loops until `durationMs` have passed. */
const loop = (durationMs: number, setUp: () => Promise<() => Promise<void>>) =>
  runLoad(CONNECTIONS, durationMs, setUp);

const get = (base: string, path: string) => async () => {
  const response = await benchFetch(`${base}${path}`, { headers: { accept: 'text/html' } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${path} ${response.status}`);
};

async function shoppers(
  base: string,
  durationMs: number,
  coupon: string | null = null,
  carrier = false,
) {
  return loop(durationMs, async () => {
    const ids = await findProducts(base);
    let next = Math.floor(Math.random() * ids.length);
    return () => buy(base, ids[next++ % ids.length]!, coupon, carrier);
  });
}

// ---------------------------------------------------------------------------------------------
// Report

interface Row {
  backend: string;
  target: string;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

function row(backend: string, target: string, tally: Tally): Row {
  return {
    backend,
    target,
    perSecond: tally.done / tally.seconds,
    p50: percentile(tally.latencies, 50),
    p99: percentile(tally.latencies, 99),
    failures: [...tally.failures.values()].reduce((sum, n) => sum + n, 0),
  };
}

function printFailures(label: string, failures: Map<string, number>): void {
  for (const [reason, n] of failures) console.log(`  ${label}: ${n} × ${reason}`);
}

// ---------------------------------------------------------------------------------------------

interface Outcome {
  rows: Row[];
  /** [backend, request, p50, p99] of each request of a purchase. */
  stepRows: string[][];
  ordersPerSecond: number;
  couponOrdersPerSecond: number;
  home: number;
  healthz: number;
  verified: string;
  complaints: Map<string, number>;
  /** Statements per order over the measured runs, without and with the coupon. */
  statements: { plain: number; coupon: number };
  /** Statements of each request of one purchase made alone. */
  statementsPerStep: Map<string, number>;
  /** PostgreSQL: connections waiting on a lock (mean) and the share of samples with any. */
  locks: { meanWaiting: number; share: number } | null;
  /**
   * The server process's CPU per order (ms, its own /metrics), which a busy machine stretches far
   * less than it cuts the orders per second; PostgreSQL's own work is not in it.
   */
  cpuPerOrder: number;
  /** The bench's own (the shoppers') CPU per order, in this process. */
  clientCpuPerOrder: number;
  /** PostgreSQL's backends' CPU per order (0 on PGlite, which runs in the server). */
  databaseCpuPerOrder: number;
  /** With carrier shipping: orders/s, quote requests the carrier got per order, statements. */
  carrier: { ordersPerSecond: number; quotesPerOrder: number; statements: number };
  /** Shoppers buying beside anonymous visitors, the page cache on. */
  saleDay: { orders: Tally; pages: Tally; hitShare: number };
}

async function benchmark(backend: Backend): Promise<Outcome> {
  const server = await startWatchedServer(backend);
  confirmations.count = 0;
  confirmations.withCoupon = 0;
  let paid = 0;
  const rows: Row[] = [];
  const stepRows: string[][] = [];
  let perStep = new Map<string, number>();
  let statements = { plain: NaN, coupon: NaN };
  let locks: Outcome['locks'] = null;
  let cpuPerOrder = NaN;
  let clientCpuPerOrder = NaN;
  let databaseCpuPerOrder = NaN;
  try {
    console.log(`${backend.name}: warm-up ${WARMUP_MS / 1000} s…`);
    const warm = await shoppers(server.url, WARMUP_MS);
    paid += warm.done;
    printFailures('warm-up', warm.failures);
    const [firstProduct] = await findProducts(server.url);
    perStep = await statementsPerStep(server.url, firstProduct!, 5);
    paid += 5;
    await loop(Math.min(WARMUP_MS, 2000), async () => get(server.url, '/'));

    // References first: afterwards the outbox has e-mails for every order to write.
    console.log(`${backend.name}: GET / ${DURATION_MS / 1000} s…`);
    const home = await loop(DURATION_MS, async () => get(server.url, '/'));
    rows.push(row(backend.name, 'GET / uncached (reference)', home));
    printFailures('GET /', home.failures);
    console.log(`${backend.name}: GET /healthz ${DURATION_MS / 1000} s…`);
    const health = await loop(DURATION_MS, async () => get(server.url, '/healthz'));
    rows.push(row(backend.name, 'GET /healthz (reference)', health));
    printFailures('GET /healthz', health.failures);

    // Without and with the coupon in halves, ordered plain, coupon, coupon, plain: a machine
    // (or an outbox) that slows down over the run weighs on both alike.
    console.log(
      `${backend.name}: ${CONNECTIONS} shoppers, ${DURATION_MS / 1000} s without and ` +
        `${DURATION_MS / 1000} s with a coupon…`,
    );
    const plain: Tally[] = [];
    const couponed: Tally[] = [];
    const counted = {
      plain: { statements: 0, orders: 0, cpuSeconds: 0, clientSeconds: 0, databaseSeconds: 0 },
      coupon: { statements: 0, orders: 0, cpuSeconds: 0, clientSeconds: 0, databaseSeconds: 0 },
    };
    // The pool is full after the warm-up's 20 shoppers; its backends are the database's work.
    const backendPids = backend.databaseUrl ? await postgresBackendPids(backend.databaseUrl) : [];
    steps.times.clear();
    const stopWatching = backend.databaseUrl ? watchLocks(backend.databaseUrl) : null;
    for (const coupon of [null, COUPON, COUPON, null]) {
      steps.on = coupon === null;
      const before = await serverCounts(server.url);
      const clientBefore = process.cpuUsage();
      const databaseBefore = await processCpuSeconds(backendPids);
      const run = await shoppers(server.url, DURATION_MS / 2, coupon);
      const client = process.cpuUsage(clientBefore);
      const databaseAfter = await processCpuSeconds(backendPids);
      const after = await serverCounts(server.url);
      const sum = counted[coupon ? 'coupon' : 'plain'];
      sum.statements += after.statements - before.statements;
      sum.orders += after.orders - before.orders;
      sum.cpuSeconds += after.cpuSeconds - before.cpuSeconds;
      sum.clientSeconds += (client.user + client.system) / 1e6;
      sum.databaseSeconds += databaseAfter - databaseBefore;
      (coupon ? couponed : plain).push(run);
      paid += run.done;
    }
    steps.on = false;
    locks = stopWatching ? await stopWatching() : null;
    statements = {
      plain: counted.plain.statements / Math.max(1, counted.plain.orders),
      coupon: counted.coupon.statements / Math.max(1, counted.coupon.orders),
    };
    const perOrder = (seconds: number) => (1000 * seconds) / Math.max(1, counted.plain.orders);
    cpuPerOrder = perOrder(counted.plain.cpuSeconds);
    clientCpuPerOrder = perOrder(counted.plain.clientSeconds);
    databaseCpuPerOrder = backend.databaseUrl ? perOrder(counted.plain.databaseSeconds) : 0;
    for (const [name, times] of steps.times) {
      stepRows.push([
        backend.name,
        name,
        percentile(times, 50).toFixed(0),
        percentile(times, 99).toFixed(0),
      ]);
    }
    const plainTally = combineTallies(plain);
    const withCoupon = combineTallies(couponed);
    rows.push(row(backend.name, 'checkout (orders)', plainTally));
    printFailures('checkout', plainTally.failures);
    rows.push(row(backend.name, 'checkout with a coupon (orders)', withCoupon));
    printFailures('checkout with a coupon', withCoupon.failures);
  } finally {
    await server.stop();
  }
  const carrier = await carrierRun(backend);
  rows.push(row(backend.name, 'checkout, carrier shipping (orders)', carrier.tally));
  printFailures('checkout, carrier shipping', carrier.tally.failures);
  paid += carrier.tally.done + carrier.warmed;
  const saleDay = await saleDayRun(backend);
  rows.push(row(backend.name, 'sale day: orders', saleDay.orders));
  rows.push(row(backend.name, 'sale day: anonymous pages, cache on', saleDay.pages));
  printFailures('sale day, orders', saleDay.orders.failures);
  printFailures('sale day, pages', saleDay.pages.failures);
  paid += saleDay.orders.done + saleDay.warmed;

  // Every 303 is one order, and each took one unit; nothing else wrote orders.
  const placed = confirmations.count;
  const database = await backend.open();
  let verified: string;
  try {
    const orders = await countRows(database.db, sql`select count(*)::int as n from orders`);
    const units = await countRows(
      database.db,
      sql`select coalesce(sum(quantity), 0)::int as n from order_items`,
    );
    const sold = await countRows(
      database.db,
      sql`select coalesce(sum(${STOCK} - stock_quantity), 0)::int as n from product_variants`,
    );
    const payments = await countRows(
      database.db,
      sql`select count(*)::int as n from orders where payment_id is not null`,
    );
    const couponed = await countRows(
      database.db,
      sql`select count(distinct order_id)::int as n from order_adjustments where kind = 'coupon'`,
    );
    const uses = await countRows(
      database.db,
      sql`select used_count as n from coupons where code = ${COUPON}`,
    );
    if (couponed !== confirmations.withCoupon || uses !== couponed) {
      throw new Error(
        `${backend.name}: ${confirmations.withCoupon} orders placed with the coupon, but ` +
          `${couponed} orders carry it and it counts ${uses} uses.`,
      );
    }
    // Counted into their days as each commit came, CONNECTIONS at a time: by status, the days
    // hold every order with its total, and every discount.
    const daysAmiss = await countRows(
      database.db,
      sql`select count(*)::int as n from (
            select status, count(*)::int as orders, sum(total_amount_cents)::bigint as total,
                   sum(discount_cents)::bigint as discount
            from orders group by status
          ) as o full join (
            select status, sum(orders)::int as orders, sum(total_cents)::bigint as total,
                   sum(discount_cents)::bigint as discount
            from order_sales_days group by status having sum(orders) <> 0
          ) as d using (status)
          where o.orders is distinct from d.orders or o.total is distinct from d.total
            or o.discount is distinct from d.discount`,
    );
    const discounts = await countRows(
      database.db,
      sql`select ((select coalesce(-sum(amount_cents), 0) from order_adjustments where amount_cents < 0)
                 - (select coalesce(sum(discount_cents), 0) from orders))::int as n`,
    );
    if (daysAmiss !== 0 || discounts !== 0) {
      throw new Error(`${backend.name}: the sales days do not add up to the orders.`);
    }
    if (orders !== placed || units !== placed || sold !== placed || payments !== paid) {
      throw new Error(
        `${backend.name}: ${placed} orders confirmed by a 303 (${paid} with a payment), but the ` +
          `database has ${orders} orders (${payments} with a payment), ${units} units in them ` +
          `and ${sold} units sold.`,
      );
    }
    verified = `${backend.name}: ${orders} orders in the database = ${placed} 303s counted (warm-up included), ${couponed} with the coupon = its uses; stock, payments and sales days agree.`;
  } finally {
    await database.close();
  }
  const home = rows[0]!.perSecond;
  const healthz = rows[1]!.perSecond;
  return {
    rows,
    stepRows,
    ordersPerSecond: rows[2]!.perSecond,
    couponOrdersPerSecond: rows[3]!.perSecond,
    home,
    healthz,
    verified,
    complaints: server.complaints,
    statements,
    statementsPerStep: perStep,
    locks,
    cpuPerOrder,
    clientCpuPerOrder,
    databaseCpuPerOrder,
    carrier: {
      ordersPerSecond: carrier.tally.done / carrier.tally.seconds,
      quotesPerOrder: carrier.quotes / Math.max(1, carrier.orders),
      statements: carrier.statements / Math.max(1, carrier.orders),
    },
    saleDay,
  };
}

/**
 * A sale day: the server restarted with its page cache on; CONNECTIONS shoppers buy while as many
 * anonymous visitors read the home page, the catalogue and the products' pages in turn.
 */
async function saleDayRun(backend: Backend) {
  const server = await startWatchedServer(backend, {
    PAGE_CACHE_MAX_BYTES: String(64 * 1024 * 1024),
  });
  try {
    console.log(`${backend.name}: a sale day, ${DURATION_MS / 1000} s…`);
    const products = await benchShopper(server.url).get('/products');
    const paths = [
      '/',
      '/products',
      ...new Set(
        [...products.text.matchAll(/href="(\/product\/[a-z0-9-]+)"/g)].map((match) => match[1]!),
      ),
    ];
    if (paths.length < 3) throw new Error('no product pages on /products');
    const warm = await shoppers(server.url, WARMUP_MS);
    const read = (counts: Awaited<ReturnType<typeof serverCounts>>) => ({
      hits: Number.isNaN(counts.pageHits) ? 0 : counts.pageHits,
      misses: Number.isNaN(counts.pageMisses) ? 0 : counts.pageMisses,
    });
    const before = read(await serverCounts(server.url));
    let next = 0;
    const [orders, pages] = await Promise.all([
      shoppers(server.url, DURATION_MS),
      loop(DURATION_MS, async () => async () => get(server.url, paths[next++ % paths.length]!)()),
    ]);
    const after = read(await serverCounts(server.url));
    const hits = after.hits - before.hits;
    const misses = after.misses - before.misses;
    return { orders, pages, warmed: warm.done, hitShare: hits / Math.max(1, hits + misses) };
  } finally {
    await server.stop();
  }
}

/**
 * The same store with carrier shipping on: the server restarted against the fake Melhor Envio,
 * a warm-up, then DURATION of shoppers who each ask /frete for a CEP of their own.
 */
async function carrierRun(backend: Backend) {
  const fake: FakeMelhorEnvio = await startFakeMelhorEnvio({ token: MELHOR_ENVIO_TOKEN });
  try {
    const server = await startWatchedServer(backend, {
      SHIPPING_PROVIDER: 'melhorenvio',
      MELHOR_ENVIO_TOKEN,
      MELHOR_ENVIO_API_URL: fake.url,
      MELHOR_ENVIO_USER_AGENT: 'Vitrine Bench (bench@example.com)',
    });
    try {
      console.log(`${backend.name}: carrier shipping, ${DURATION_MS / 1000} s…`);
      const warm = await shoppers(server.url, WARMUP_MS, null, true);
      printFailures('carrier warm-up', warm.failures);
      const before = await serverCounts(server.url);
      const quotesBefore = fake.calculateCalls();
      const tally = await shoppers(server.url, DURATION_MS, null, true);
      const after = await serverCounts(server.url);
      return {
        tally,
        warmed: warm.done,
        orders: after.orders - before.orders,
        statements: after.statements - before.statements,
        quotes: fake.calculateCalls() - quotesBefore,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await fake.close();
  }
}

/** What compareBuilds measures this build against. */
interface Reference {
  /** Its name in the table: a build folder, or a checkout's. */
  label: string;
  checkout: Checkout;
  database(name: BackendName, ours: () => Promise<Backend>): Promise<Backend>;
}

/**
 * COMPARE_BUILD: a folder of this checkout that an earlier commit's `npm run build` wrote (with
 * VITRINE_BUILD_DIR), run by this checkout's server on a database of this checkout's schema.
 * COMPARE_TREE: another checkout with its build in `build`, on a database of its own making.
 */
function reference(): Reference | null {
  const tree = process.env.COMPARE_TREE;
  if (tree) {
    const checkout = { root: resolve(tree), buildDir: 'build' };
    return {
      label: tree,
      checkout,
      database: (name) => treeBackend(name, checkout),
    };
  }
  const build = process.env.COMPARE_BUILD;
  if (!build) return null;
  return {
    label: build,
    checkout: { root: ROOT, buildDir: build },
    database: (_name, ours) => ours(),
  };
}

/**
 * This build against a reference (above), each on a database of its own, plain purchases only,
 * ROUNDS rounds alternating which goes first. Ratios of one run, on one machine.
 */
async function compareBuilds(against: Reference): Promise<void> {
  const rounds = positiveInteger('ROUNDS', 3);
  const names: BackendName[] = [
    ...(process.env.BENCH_PGLITE === 'skip' ? [] : ['PGlite' as const]),
    ...(POSTGRES_URL === 'skip' ? [] : ['PostgreSQL' as const]),
  ];
  const reference = against.label;
  const checkouts = new Map<string, Checkout>([
    [reference, against.checkout],
    [BUILD_DIR, { root: ROOT, buildDir: BUILD_DIR }],
  ]);
  const lines: string[][] = [];
  for (const name of names) {
    const make = name === 'PGlite' ? pgliteBackend : postgresBackend;
    const databases = new Map([
      [reference, await against.database(name, make)],
      [BUILD_DIR, await make()],
    ]);
    const figures = new Map<string, { perSecond: number; cpu: number; database: number }[]>();
    try {
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? [reference, BUILD_DIR] : [BUILD_DIR, reference];
        for (const build of order) {
          const backend = databases.get(build)!;
          const server = await startWatchedServer(backend, {}, checkouts.get(build));
          try {
            console.log(`${backend.name}, ${build}, round ${round + 1}: ${DURATION_MS / 1000} s…`);
            await shoppers(server.url, WARMUP_MS);
            const pids = backend.databaseUrl ? await postgresBackendPids(backend.databaseUrl) : [];
            const before = await serverCounts(server.url);
            const databaseBefore = await processCpuSeconds(pids);
            const tally = await shoppers(server.url, DURATION_MS);
            const after = await serverCounts(server.url);
            const databaseSeconds = (await processCpuSeconds(pids)) - databaseBefore;
            printFailures(`${build} round ${round + 1}`, tally.failures);
            const orders = Math.max(1, after.orders - before.orders);
            figures.set(build, [
              ...(figures.get(build) ?? []),
              {
                perSecond: tally.done / tally.seconds,
                cpu: (1000 * (after.cpuSeconds - before.cpuSeconds)) / orders,
                database: (1000 * databaseSeconds) / orders,
              },
            ]);
          } finally {
            await server.stop();
          }
        }
      }
    } finally {
      for (const database of databases.values()) await database.cleanUp();
    }
    const median = (build: string, key: 'perSecond' | 'cpu' | 'database') =>
      percentile(
        figures.get(build)!.map((figure) => figure[key]),
        50,
      );
    for (const build of [reference, BUILD_DIR]) {
      lines.push([
        name,
        build,
        figures
          .get(build)!
          .map((figure) => figure.perSecond.toFixed(1))
          .join(', '),
        median(build, 'perSecond').toFixed(1),
        median(build, 'cpu').toFixed(1),
        name === 'PostgreSQL' ? median(build, 'database').toFixed(1) : '-',
      ]);
    }
    lines.push([
      name,
      `${BUILD_DIR} ÷ ${reference}`,
      '',
      (median(BUILD_DIR, 'perSecond') / median(reference, 'perSecond')).toFixed(2),
      (median(BUILD_DIR, 'cpu') / median(reference, 'cpu')).toFixed(2),
      name === 'PostgreSQL'
        ? (median(BUILD_DIR, 'database') / median(reference, 'database')).toFixed(2)
        : '-',
    ]);
  }
  console.log(
    `\nCheckout, two builds: ${CONNECTIONS} concurrent shoppers, ${DURATION_MS / 1000} s per ` +
      `round after ${WARMUP_MS / 1000} s of warm-up, ${rounds} rounds alternated; load average ` +
      `now ${loadAverage()}.\n`,
  );
  printTable(
    [
      'Backend',
      'Build',
      'orders/s by round',
      'orders/s (median)',
      'server CPU / order (ms)',
      'PostgreSQL CPU / order (ms)',
    ],
    lines,
  );
}

async function main(): Promise<void> {
  await ensureBuilt();
  const against = reference();
  if (against) return compareBuilds(against);
  const outcomes: Outcome[] = [];
  const makers: (() => Promise<Backend>)[] =
    process.env.BENCH_PGLITE === 'skip' ? [] : [pgliteBackend];
  if (POSTGRES_URL !== 'skip') makers.push(postgresBackend);
  for (const make of makers) {
    const backend = await make();
    try {
      outcomes.push(await benchmark(backend));
    } finally {
      await backend.cleanUp();
    }
  }

  const cpu = cpus()[0]?.model.trim() ?? '?';
  console.log(
    `\nCheckout: ${CONNECTIONS} concurrent shoppers, ${DURATION_MS / 1000} s each after ` +
      `${WARMUP_MS / 1000} s of warm-up; one order = POST /cart + GET /checkout + POST /checkout. ` +
      `Client and server on the same machine: Node ${process.version}, ` +
      `${availableParallelism()} CPU (${cpu}).\n`,
  );
  printTable(
    ['Backend', 'Target', 'per s', 'p50 (ms)', 'p99 (ms)', 'failures'],
    outcomes.flatMap((outcome) =>
      outcome.rows.map((r) => [
        r.backend,
        r.target,
        r.perSecond.toFixed(1),
        r.p50.toFixed(0),
        r.p99.toFixed(0),
        String(r.failures),
      ]),
    ),
  );
  console.log('');
  printTable(
    ['Backend', 'Ratio', 'value'],
    outcomes.flatMap((outcome) => {
      const name = outcome.rows[0]!.backend;
      return [
        [
          name,
          'orders/s ÷ uncached GET / per s',
          outcome.home ? (outcome.ordersPerSecond / outcome.home).toFixed(3) : '-',
        ],
        [
          name,
          'orders/s with a coupon ÷ orders/s without',
          outcome.ordersPerSecond
            ? (outcome.couponOrdersPerSecond / outcome.ordersPerSecond).toFixed(3)
            : '-',
        ],
        [
          name,
          'orders/s ÷ GET /healthz per s',
          outcome.healthz ? (outcome.ordersPerSecond / outcome.healthz).toFixed(4) : '-',
        ],
        [
          name,
          'orders/s with carrier shipping ÷ orders/s without',
          outcome.ordersPerSecond
            ? (outcome.carrier.ordersPerSecond / outcome.ordersPerSecond).toFixed(3)
            : '-',
        ],
        [name, 'carrier quote requests per order', outcome.carrier.quotesPerOrder.toFixed(2)],
        [
          name,
          'sale day: anonymous pages the cache answered',
          `${(100 * outcome.saleDay.hitShare).toFixed(1)}%`,
        ],
      ];
    }),
  );
  if (outcomes.length === 2) {
    const [pglite, postgres] = outcomes as [Outcome, Outcome];
    console.log(
      `\nPostgreSQL ÷ PGlite: ${(postgres.ordersPerSecond / pglite.ordersPerSecond).toFixed(2)}× the orders/s ` +
        `(GET /: ${(postgres.home / pglite.home).toFixed(2)}×).`,
    );
  }
  console.log('\nEach request of a purchase, during the measured run:\n');
  printTable(
    ['Backend', 'Request', 'p50 (ms)', 'p99 (ms)'],
    outcomes.flatMap((outcome) => outcome.stepRows),
  );
  console.log(
    `\nWhat an order costs: the server's CPU (without PostgreSQL's), and the statements it sent ` +
      `to the database (begin and commit included; ceiling ${STATEMENTS_CEILING} per order):\n`,
  );
  printTable(
    ['Backend', 'Measure', 'value'],
    outcomes.flatMap((outcome) => {
      const name = outcome.rows[0]!.backend;
      return [
        [name, 'server CPU per order (ms)', outcome.cpuPerOrder.toFixed(1)],
        ...(name === 'PostgreSQL'
          ? [[name, 'PostgreSQL CPU per order (ms)', outcome.databaseCpuPerOrder.toFixed(1)]]
          : []),
        [name, "the bench client's CPU per order (ms)", outcome.clientCpuPerOrder.toFixed(1)],
        [
          name,
          `orders/s all ${availableParallelism()} CPUs could give at these costs`,
          (
            (1000 * availableParallelism()) /
            (outcome.cpuPerOrder + outcome.databaseCpuPerOrder + outcome.clientCpuPerOrder)
          ).toFixed(0),
        ],
        [name, 'statements per order', outcome.statements.plain.toFixed(1)],
        [name, 'statements per order with a coupon', outcome.statements.coupon.toFixed(1)],
        [name, 'statements per order, carrier shipping', outcome.carrier.statements.toFixed(1)],
        ...[...outcome.statementsPerStep].map(([step, n]) => [
          name,
          `statements of ${step} (one purchase alone)`,
          String(n),
        ]),
        ...(outcome.locks
          ? [
              [name, 'connections waiting on a lock (mean)', outcome.locks.meanWaiting.toFixed(2)],
              [name, 'samples with a lock wait', `${(100 * outcome.locks.share).toFixed(0)}%`],
            ]
          : []),
      ];
    }),
  );
  console.log('');
  for (const outcome of outcomes) {
    console.log(outcome.verified);
    for (const [message, n] of outcome.complaints) {
      console.log(`  server warning/error: ${n} × ${message}`);
    }
  }
  // Not counted (NaN) fails too.
  const over = outcomes.filter(
    (outcome) =>
      !(
        Math.max(outcome.statements.plain, outcome.statements.coupon, outcome.carrier.statements) <=
        STATEMENTS_CEILING
      ),
  );
  for (const outcome of over) {
    console.error(
      `${outcome.rows[0]!.backend}: more than ${STATEMENTS_CEILING} statements per order.`,
    );
  }
  if (over.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
