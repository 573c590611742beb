// npx tsx bench/feeds.ts — the shopping channels' feeds (/feeds/google.xml, /feeds/meta.csv) of a
// large catalogue, on PGlite and on PostgreSQL (issue 39).
//
// For each backend: a store with PRODUCTS products (default 10,000) of six variants each (three
// sizes, two colours, each with its price, 'de' price, stock, GTIN and picture). Then:
// - built from scratch: ROUNDS times (default 3), a production server is started and the first
//   request of each feed is timed (the catalogue's read, the XML or CSV, the gzip), median;
// - served from its cache: CONNECTIONS clients (default 20) ask for the Google feed, gzipped, for
//   DURATION seconds, in halves alternated with the same bytes as a static file (written into
//   the build's client folder with its .gz beside it, as the build writes its assets), and the
//   ratio of requests per second is printed.
//
// Environment: PRODUCTS, ROUNDS, CONNECTIONS, DURATION (s, default 10), BENCH_POSTGRES_URL
// (default postgres://postgres@127.0.0.1:5432/postgres; `skip` runs PGlite only),
// BENCH_PGLITE=skip (PostgreSQL only), VITRINE_BUILD_DIR (default build-bench).
import { rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { prepareStoreFolder } from '../tests/support/store';

import { positiveInteger } from './options';
import {
  BUILD_DIR,
  combineTallies,
  ROOT,
  ensureBuilt,
  loadAverage,
  percentile,
  printTable,
  runLoad,
  scratchPostgres,
  startServer,
  type Tally,
} from './support';

const PRODUCTS = positiveInteger('PRODUCTS', 10_000);
const ROUNDS = positiveInteger('ROUNDS', 3);
const CONNECTIONS = positiveInteger('CONNECTIONS', 20);
const DURATION_MS = positiveInteger('DURATION', 10) * 1000;
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** The target for a feed built from nothing. */
const BUILD_TARGET_MS = 5000;
const STATIC_NAME = 'bench-feed-google.xml';

/** PRODUCTS products of six variants each, written by the database in a few statements. */
async function fillCatalogue(db: Db): Promise<void> {
  await db.execute(sql`
    insert into products (name, description, price_cents, image_urls, options, brand,
                          google_product_category)
    select 'Camiseta estampada ' || i,
           'Camiseta de algodão penteado, modelagem regular, estampa número ' || i || '.',
           4990 + (i % 50) * 100,
           array['/media/bench-' || i || '-1000.webp', '/media/bench-' || i || '-b-1000.webp'],
           '[{"name":"Tamanho","values":[{"name":"P"},{"name":"M"},{"name":"G"}]},
             {"name":"Cor","values":[{"name":"Azul","color":"#1d4ed8"},{"name":"Preto","color":"#000000"}]}]'::jsonb,
           'Malharia ' || (i % 40),
           '212'
    from generate_series(1, ${PRODUCTS}) as i`);
  // Each product's six combinations; the one variant made with the product then goes.
  await db.execute(sql`
    insert into product_variants (product_id, position, option1, option2, price_cents,
                                  compare_at_price_cents, stock_quantity, image_urls, gtin)
    select p.id, s.n * 2 + c.n + 1, s.name, c.name,
           case when s.n = 2 then p.price_cents + 500 end,
           case when c.n = 1 then p.price_cents + 2000 end,
           (s.n + c.n) % 3 * 7,
           array['/media/bench-' || c.name || '-1000.webp'],
           -- A valid EAN-13 per variant: 12 digits and their check digit.
           d.digits || ((10 - (
             (substr(d.digits, 1, 1)::int + substr(d.digits, 3, 1)::int + substr(d.digits, 5, 1)::int
              + substr(d.digits, 7, 1)::int + substr(d.digits, 9, 1)::int + substr(d.digits, 11, 1)::int)
             + 3 * (substr(d.digits, 2, 1)::int + substr(d.digits, 4, 1)::int + substr(d.digits, 6, 1)::int
              + substr(d.digits, 8, 1)::int + substr(d.digits, 10, 1)::int + substr(d.digits, 12, 1)::int)
           ) % 10) % 10)::text
    from products p
    cross join (values (0, 'P'), (1, 'M'), (2, 'G')) as s(n, name)
    cross join (values (0, 'Azul'), (1, 'Preto')) as c(n, name)
    cross join lateral (
      select '789' || lpad((row_number() over ())::text, 9, '0') as digits
    ) as d
    where p.name like 'Camiseta estampada %'`);
  await db.execute(sql`
    delete from product_variants v using products p
    where v.product_id = p.id and p.name like 'Camiseta estampada %' and v.option1 is null`);
}

interface Backend {
  name: 'PGlite' | 'PostgreSQL';
  env: Record<string, string>;
  cleanUp(): Promise<void>;
}

async function pgliteBackend(): Promise<Backend> {
  const dataDir = await prepareStoreFolder({}, fillCatalogue);
  return {
    name: 'PGlite',
    env: { DATA_DIR: dataDir },
    cleanUp: () => rm(dataDir, { recursive: true, force: true }),
  };
}

async function postgresBackend(): Promise<Backend> {
  const { url, dataDir, cleanUp } = await scratchPostgres(
    POSTGRES_URL,
    'vitrine_bench_feeds',
    fillCatalogue,
  );
  return { name: 'PostgreSQL', env: { DATABASE_URL: url, DATA_DIR: dataDir }, cleanUp };
}

async function timedGet(url: string): Promise<{ ms: number; body: Buffer; items: number }> {
  const begin = performance.now();
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  const ms = performance.now() - begin;
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  const text = body.toString('utf8');
  const items = url.endsWith('.xml')
    ? text.split('<item>').length - 1
    : text.split('\n').filter(Boolean).length - 1;
  return { ms, body, items };
}

/** Requests of `path` with gzip, reading every byte, in CONNECTIONS loops for `ms`. */
function load(base: string, path: string, ms: number): Promise<Tally> {
  return runLoad(CONNECTIONS, ms, async () => async () => {
    const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'gzip' } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  });
}

interface Outcome {
  name: string;
  builds: { google: number[]; meta: number[] };
  items: { google: number; meta: number };
  bytes: { plain: number; gzipped: number };
  feed: Tally;
  file: Tally;
}

async function benchmark(backend: Backend): Promise<Outcome> {
  const builds = { google: [] as number[], meta: [] as number[] };
  const items = { google: 0, meta: 0 };
  let xml: Buffer = Buffer.alloc(0);
  for (let round = 0; round < ROUNDS; round++) {
    const server = await startServer(backend.env);
    try {
      const google = await timedGet(`${server.url}/feeds/google.xml`);
      const meta = await timedGet(`${server.url}/feeds/meta.csv`);
      builds.google.push(google.ms);
      builds.meta.push(meta.ms);
      items.google = google.items;
      items.meta = meta.items;
      xml = google.body;
      console.log(
        `${backend.name}: round ${round + 1}, built in ${google.ms.toFixed(0)} ms (Google, ` +
          `${google.items} items) and ${meta.ms.toFixed(0)} ms (Meta, ${meta.items} rows)`,
      );
    } finally {
      await server.stop();
    }
  }
  // The same bytes as a file of the build, with the .gz the server sends to who takes gzip.
  const client = join(ROOT, BUILD_DIR, 'client');
  const gzipped = gzipSync(xml, { level: 6 });
  await writeFile(join(client, STATIC_NAME), xml);
  await writeFile(join(client, `${STATIC_NAME}.gz`), gzipped);
  const server = await startServer(backend.env);
  try {
    await timedGet(`${server.url}/feeds/google.xml`);
    await load(server.url, `/${STATIC_NAME}`, 1000);
    const feed: Tally[] = [];
    const file: Tally[] = [];
    console.log(`${backend.name}: ${CONNECTIONS} clients, cached feed and static file…`);
    for (const path of [
      '/feeds/google.xml',
      `/${STATIC_NAME}`,
      `/${STATIC_NAME}`,
      '/feeds/google.xml',
    ]) {
      (path === '/feeds/google.xml' ? feed : file).push(
        await load(server.url, path, DURATION_MS / 4),
      );
    }
    return {
      name: backend.name,
      builds,
      items,
      bytes: { plain: xml.byteLength, gzipped: gzipped.byteLength },
      feed: combineTallies(feed),
      file: combineTallies(file),
    };
  } finally {
    await server.stop();
    await rm(join(client, STATIC_NAME), { force: true });
    await rm(join(client, `${STATIC_NAME}.gz`), { force: true });
  }
}

async function main(): Promise<void> {
  await ensureBuilt();
  const makers: (() => Promise<Backend>)[] = [];
  if (process.env.BENCH_PGLITE !== 'skip') makers.push(pgliteBackend);
  if (POSTGRES_URL !== 'skip') makers.push(postgresBackend);
  const outcomes: Outcome[] = [];
  for (const make of makers) {
    console.log(`Preparing ${PRODUCTS} products of 6 variants…`);
    const backend = await make();
    try {
      outcomes.push(await benchmark(backend));
    } finally {
      await backend.cleanUp();
    }
  }
  const cpu = cpus()[0]?.model.trim() ?? '?';
  console.log(
    `\nFeeds: ${PRODUCTS} products × 6 variants; Node ${process.version}, ` +
      `${availableParallelism()} CPU (${cpu}), load ${loadAverage()}.\n`,
  );
  const median = (values: number[]) => percentile(values, 50);
  printTable(
    ['Backend', 'Measure', 'value'],
    outcomes.flatMap((o) => {
      const rate = (t: Tally) => t.done / t.seconds;
      return [
        [o.name, 'Google items / Meta rows', `${o.items.google} / ${o.items.meta}`],
        [o.name, 'Google feed, bytes (gzipped)', `${o.bytes.plain} (${o.bytes.gzipped})`],
        [
          o.name,
          `built from scratch, Google, median of ${ROUNDS} (ms)`,
          median(o.builds.google).toFixed(0),
        ],
        [
          o.name,
          `built from scratch, Meta, median of ${ROUNDS} (ms)`,
          median(o.builds.meta).toFixed(0),
        ],
        [o.name, 'cached feed, requests/s', rate(o.feed).toFixed(1)],
        [o.name, 'static file, same bytes, requests/s', rate(o.file).toFixed(1)],
        [o.name, 'cached feed ÷ static file', (rate(o.feed) / rate(o.file)).toFixed(2)],
        [o.name, 'failures', String(o.feed.failures.size + o.file.failures.size)],
      ];
    }),
  );
  for (const o of outcomes) {
    const slowest = Math.max(median(o.builds.google), median(o.builds.meta));
    console.log(
      `${o.name}: built from scratch in ${slowest.toFixed(0)} ms at most, ` +
        `${slowest <= BUILD_TARGET_MS ? 'within' : 'OVER'} the ${BUILD_TARGET_MS} ms target.`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
