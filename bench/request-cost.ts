// npx tsx bench/request-cost.ts — the server's CPU for each kind of request of a purchase.
//
// Starts the production server (sandbox payments, no page cache, no rate limit) on the sample
// store, on PGlite or, with BACKEND=postgres, on a scratch PostgreSQL database, and for each kind
// of request runs CONNECTIONS loops (default 10) for DURATION seconds (default 6) after a short
// warm-up, reading the server process's CPU from its /metrics before and after. Printed: requests
// per second and the server's CPU per request (ms), which a busy machine stretches far less than
// the rate; `/healthz` is the floor of any request, a 404 page the floor of any page of the
// store's layout, and a whole purchase (POST /cart, GET /checkout, POST /checkout) the sum.
// The server's CPU is also split by thread (Linux's /proc): its main thread, which runs the requests,
// and the others (V8's own, for garbage collection and compiling; libuv's, for compression and
// crypto; PGlite's, ADR 049).
// ONLY runs just the kinds whose name contains it (with PROFILE_DIR, a profile of that kind alone).
// VITRINE_BUILD_DIR (default build-bench, built first if missing), BENCH_POSTGRES_URL.
import { readdirSync } from 'node:fs';

import { sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { prepareStoreFolder } from '../tests/support/store';

import { positiveInteger } from './options';
import {
  benchShopper,
  ensureBuilt,
  loadAverage,
  printTable,
  procCpuSeconds,
  runLoad,
  scratchPostgres,
  shopperFields,
  startServer,
} from './support';

const DURATION_MS = positiveInteger('DURATION', 6) * 1000;
const CONNECTIONS = positiveInteger('CONNECTIONS', 10);
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

const fill = async (db: Db) => {
  await db.execute(sql`update product_variants set stock_quantity = 1000000`);
};

await ensureBuilt();
const onPostgres = process.env.BACKEND === 'postgres';
const scratch = onPostgres ? await scratchPostgres(POSTGRES_URL, 'vitrine_requests', fill) : null;
const env: Record<string, string> = scratch
  ? { DATABASE_URL: scratch.url, DATA_DIR: scratch.dataDir }
  : { DATA_DIR: await prepareStoreFolder({}, fill), WEB_CONCURRENCY: '1' };
const server = await startServer({
  PAYMENT_PROVIDER: 'sandbox',
  CHECKOUT_RATE_LIMIT: '1000000',
  PAGE_CACHE_MAX_BYTES: '0',
  METRICS_TOKEN,
  ...env,
});

const serverCpuSeconds = async () => {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return Number(/^process_cpu_seconds_total (\S+)$/m.exec(await response.text())?.[1]);
};

/**
 * CPU seconds of the server process so far: its main thread's, and its other threads' together
 * (Linux only: elsewhere NaN).
 */
const threadCpuSeconds = async () => {
  if (process.platform !== 'linux') return { main: NaN, others: NaN };
  const tasks = `/proc/${server.pid}/task`;
  const others = readdirSync(tasks).filter((thread) => thread !== String(server.pid));
  return {
    main: await procCpuSeconds([`${tasks}/${server.pid}/stat`]),
    others: await procCpuSeconds(others.map((thread) => `${tasks}/${thread}/stat`)),
  };
};

const rows: string[][] = [];
try {
  const catalogue = await benchShopper(server.url).get('/products');
  const productId = /name="productId" value="([^"]+)"/.exec(catalogue.text)?.[1];
  if (!productId) throw new Error('No product on /products');
  const expect = (page: { status: number }, status: number, what: string) => {
    if (page.status !== status) throw new Error(`${what} answered ${page.status}`);
  };
  const kinds: [string, () => Promise<() => Promise<void>>][] = [
    [
      'GET /healthz',
      async () => async () =>
        expect(await benchShopper(server.url).get('/healthz'), 200, '/healthz'),
    ],
    [
      'GET /nao-existe (404 page)',
      async () => {
        const shopper = benchShopper(server.url);
        return async () => expect(await shopper.get('/nao-existe'), 404, 'a missing page');
      },
    ],
    [
      'GET / (uncached)',
      async () => {
        const shopper = benchShopper(server.url);
        return async () => expect(await shopper.get('/'), 200, '/');
      },
    ],
    [
      'GET /products (uncached)',
      async () => {
        const shopper = benchShopper(server.url);
        return async () => expect(await shopper.get('/products'), 200, '/products');
      },
    ],
    ['POST /cart', async () => async () => benchShopper(server.url).addToCart(productId)],
    [
      'GET /checkout',
      async () => {
        const shopper = benchShopper(server.url);
        await shopper.addToCart(productId);
        return async () => expect(await shopper.get('/checkout'), 200, '/checkout');
      },
    ],
    [
      'a purchase (the three)',
      async () => async () => {
        const shopper = benchShopper(server.url);
        await shopper.addToCart(productId);
        const key = await shopper.checkoutKey();
        expect(
          await shopper.post('/checkout', { ...shopperFields(shopper), idempotencyKey: key }),
          303,
          'POST /checkout',
        );
      },
    ],
  ];
  const only = process.env.ONLY;
  for (const [kind, setUp] of kinds.filter(([name]) => !only || name.includes(only))) {
    await runLoad(CONNECTIONS, Math.min(DURATION_MS, 1500), setUp);
    const before = await serverCpuSeconds();
    const threadsBefore = await threadCpuSeconds();
    const tally = await runLoad(CONNECTIONS, DURATION_MS, setUp);
    const after = await serverCpuSeconds();
    const threadsAfter = await threadCpuSeconds();
    const perRequest = (seconds: number) => ((1000 * seconds) / Math.max(1, tally.done)).toFixed(2);
    for (const [reason, n] of tally.failures) console.error(`${kind}: ${n} × ${reason}`);
    rows.push([
      kind,
      (tally.done / tally.seconds).toFixed(1),
      perRequest(after - before),
      perRequest(threadsAfter.main - threadsBefore.main),
      perRequest(threadsAfter.others - threadsBefore.others),
    ]);
  }
} finally {
  await server.stop();
  await scratch?.cleanUp();
}
console.log(
  `\n${onPostgres ? 'PostgreSQL' : 'PGlite'}: ${CONNECTIONS} connections, ` +
    `${DURATION_MS / 1000} s per kind; load average now ${loadAverage()}.\n`,
);
printTable(
  ['Request', 'per s', 'server CPU per request (ms)', 'its main thread', 'its other threads'],
  rows,
);
