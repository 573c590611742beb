// npx tsx bench/pglite-worker.ts — would PGlite off the main thread serve the storefront faster?
//
// On a PGlite database with the sample store and PRODUCTS generated products (default 10,000),
// CONCURRENCY loops (default 20, like the page bench's connections) each run, over and over, one
// of the storefront's typical reads (the catalogue page, a product page by slug, a search) with
// the app's own query functions, then render the result to HTML with React (24 product cards,
// RENDERS times, default 1: a stand-in for the page's render, the CPU work a request does besides
// its queries). Two ways:
//   main    PGlite on the main thread, as the app runs it today (openDatabase);
//   worker  PGlite in a worker_threads worker; drizzle's pg-proxy driver sends each query's SQL
//           and parameters there and gets the rows back.
// Each runs for DURATION seconds (default 10) after WARMUP seconds (default 2), alternately,
// ROUNDS times (default 2), after checking that both read the same. Printed: operations per
// second and p99 latency of each, and the worker's ratio to the main thread.
import { availableParallelism, cpus } from 'node:os';
import { resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { rm } from 'node:fs/promises';

import { PGlite, types, type Row } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pg-proxy';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';

import { openDatabase, PGLITE_EXTENSIONS, type Db } from '~/db/database.server';
import * as schema from '~/db/schema';
import { withRatings, type RatedProduct } from '~/flows/rated-products.server';
import { formatCents } from '~/lib/money';
import { parseCatalogParams } from '~/modules/catalog';
import {
  getProduct,
  listCategories,
  relatedProducts,
  searchProducts,
} from '~/modules/catalog/index.server';
import { listProductReviews } from '~/modules/reviews/index.server';

import { prepareStoreFolder } from '../tests/support/store';

import { fillCatalogue, SEARCH_TERM, type GeneratedCatalogue } from './catalogue';
import { positiveInteger } from './options';
import { percentile, printTable } from './support';

const PRODUCTS = positiveInteger('PRODUCTS', 10_000);
const CONCURRENCY = positiveInteger('CONCURRENCY', 20);
const DURATION_MS = positiveInteger('DURATION', 10) * 1000;
const WARMUP_MS = positiveInteger('WARMUP', 2) * 1000;
const ROUNDS = positiveInteger('ROUNDS', 2);
const RENDERS = positiveInteger('RENDERS', 1);
const PER_PAGE = 24;

// Timestamps and intervals stay text, as drizzle's own PGlite driver asks (drizzle parses them).
const RAW = (value: string) => value;
const PARSERS = Object.fromEntries(
  [
    types.TIMESTAMP,
    types.TIMESTAMPTZ,
    types.INTERVAL,
    types.DATE,
    1231,
    1115,
    1185,
    1187,
    1182,
  ].map((oid) => [oid, RAW]),
);

interface QueryMessage {
  id: number;
  sql: string;
  params: unknown[];
  rowMode: 'array' | 'object';
}
type AnswerMessage = { id: number; rows: Row[] } | { id: number; error: string };

// ---------------------------------------------------------------------------------------------
// The worker: one PGlite, answering queries in the order they come (PGlite runs one at a time).

async function serveQueries(dataDir: string): Promise<void> {
  const client = await PGlite.create(resolve(dataDir, 'db'), { extensions: PGLITE_EXTENSIONS });
  const port = parentPort!;
  port.on('message', (message: QueryMessage | 'close') => {
    if (message === 'close') {
      void client.close().then(() => port.close());
      return;
    }
    const { id, sql, params, rowMode } = message;
    client.query<Row>(sql, params, { rowMode, parsers: PARSERS }).then(
      (result) => port.postMessage({ id, rows: result.rows } satisfies AnswerMessage),
      (error: unknown) => port.postMessage({ id, error: String(error) } satisfies AnswerMessage),
    );
  });
  port.postMessage('ready');
}

/** A worker holding the database, and a drizzle Db whose queries run there. */
async function startWorker(dataDir: string): Promise<{ db: Db; close(): Promise<void> }> {
  // The worker runs this file too; tsx's loader is registered per thread, so it loads it itself.
  const tsx = import.meta.resolve('tsx/esm/api');
  const self = JSON.stringify(import.meta.url);
  const worker = new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${self}, ${self}))`,
    { eval: true, workerData: { dataDir } },
  );
  const pending = new Map<number, { resolve(rows: Row[]): void; reject(error: Error): void }>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => resolve());
  });
  worker.on('message', (answer: AnswerMessage) => {
    const waiting = pending.get(answer.id)!;
    pending.delete(answer.id);
    if ('error' in answer) waiting.reject(new Error(answer.error));
    else waiting.resolve(answer.rows);
  });
  const db = drizzle(
    (sql, params, method) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: (rows) => resolve({ rows }), reject });
        const rowMode = method === 'all' ? 'array' : 'object';
        worker.postMessage({ id, sql, params, rowMode } satisfies QueryMessage);
      }),
    { schema },
  ) as unknown as Db;
  return {
    db,
    async close() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The work of one request

type Kind = 'catalogue' | 'product' | 'search';
const KINDS: Kind[] = ['catalogue', 'product', 'search'];

/** What the page's loaders read, with the app's query functions. */
async function read(db: Db, kind: Kind, catalogue: GeneratedCatalogue): Promise<RatedProduct[]> {
  if (kind === 'product') {
    const product = await getProduct(db, catalogue.productSlug);
    if (!product) throw new Error(`No product ${catalogue.productSlug}`);
    const [rated] = await Promise.all([
      relatedProducts(db, product).then((related) => withRatings(db, [product, ...related], true)),
      listProductReviews(db, product.id),
    ]);
    return rated;
  }
  const categories = await listCategories(db);
  const search = new URLSearchParams(kind === 'search' ? { q: SEARCH_TERM } : {});
  const { query } = parseCatalogParams(search, { categories, perPage: PER_PAGE });
  const result = await searchProducts(db, query);
  return withRatings(db, result.products, true);
}

/** 24 product cards (the products found, repeated as needed): the render's stand-in. */
function render(items: RatedProduct[]): string {
  const cards = Array.from({ length: PER_PAGE }, (_, index) => items[index % items.length]!);
  return renderToString(
    createElement(
      'ul',
      { className: 'grid grid-cols-2 gap-3' },
      cards.map(({ product, rating }, index) =>
        createElement(
          'li',
          { key: index, className: 'flex flex-col rounded-card border bg-card' },
          createElement(
            'a',
            { href: `/product/${product.slug}`, className: 'block' },
            createElement('img', {
              src: product.imageUrls[0],
              alt: product.name,
              width: 400,
              height: 400,
              loading: 'lazy',
            }),
            createElement('h3', { className: 'font-semibold' }, product.name),
          ),
          createElement('p', { className: 'text-sm' }, product.category?.name ?? ''),
          rating
            ? createElement('span', { 'aria-label': `Nota ${rating.average}` }, `${rating.count}`)
            : null,
          createElement('strong', null, formatCents(product.priceCents)),
          createElement(
            'form',
            { method: 'post', action: '/cart' },
            createElement('input', { type: 'hidden', name: 'intent', value: 'add' }),
            createElement('input', { type: 'hidden', name: 'productId', value: product.id }),
            createElement('button', { type: 'submit', className: 'btn btn-primary' }, 'Comprar'),
          ),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Load

interface Tally {
  operations: number;
  seconds: number;
  latencies: number[];
}

/** CONCURRENCY loops of read + render for `durationMs`. */
async function run(db: Db, catalogue: GeneratedCatalogue, durationMs: number): Promise<Tally> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, loop) => {
      for (let next = loop; performance.now() < end; next++) {
        const begin = performance.now();
        const items = await read(db, KINDS[next % KINDS.length]!, catalogue);
        for (let pass = 0; pass < RENDERS; pass++) render(items);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  return { operations: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

/** The render alone, one at a time: how much CPU each operation spends besides its queries. */
async function renderCost(db: Db, catalogue: GeneratedCatalogue): Promise<number> {
  const items = await read(db, 'catalogue', catalogue);
  const count = 200;
  const started = performance.now();
  for (let i = 0; i < count; i++) render(items);
  return (performance.now() - started) / count;
}

/** Records what each read returns the first time, and fails when a later way differs. */
async function sameReads(
  db: Db,
  catalogue: GeneratedCatalogue,
  expected: Map<Kind, string>,
): Promise<void> {
  for (const kind of KINDS) {
    const got = JSON.stringify(await read(db, kind, catalogue));
    const want = expected.get(kind);
    if (want === undefined) expected.set(kind, got);
    else if (got !== want)
      throw new Error(`The ${kind} read differs on the worker:\n${got}\n${want}`);
  }
}

async function main(): Promise<void> {
  let catalogue: GeneratedCatalogue | undefined;
  const dataDir = await prepareStoreFolder({}, async (db) => {
    catalogue = await fillCatalogue(db, PRODUCTS);
  });
  const rows: string[][] = [];
  const totals = { main: emptyTally(), worker: emptyTally() };
  let renderMs = 0;
  const expected = new Map<Kind, string>();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const where of ['main', 'worker'] as const) {
        // One holder at a time: each closes the folder before the other opens it.
        const database =
          where === 'main'
            ? await openDatabase({ dataDir }).then((opened) => ({
                db: opened.db,
                close: () => opened.close(),
              }))
            : await startWorker(dataDir);
        try {
          if (round === 1) {
            await sameReads(database.db, catalogue!, expected);
            if (where === 'main') renderMs = await renderCost(database.db, catalogue!);
          }
          console.log(
            `Round ${round}, ${where}: ${WARMUP_MS / 1000} s warm-up, ${DURATION_MS / 1000} s…`,
          );
          await run(database.db, catalogue!, WARMUP_MS);
          const tally = await run(database.db, catalogue!, DURATION_MS);
          rows.push(tallyRow(`${where}, round ${round}`, tally));
          totals[where].operations += tally.operations;
          totals[where].seconds += tally.seconds;
          totals[where].latencies.push(...tally.latencies);
        } finally {
          await database.close();
        }
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  rows.push(
    tallyRow('main, all rounds', totals.main),
    tallyRow('worker, all rounds', totals.worker),
  );
  const throughput = (tally: Tally) => tally.operations / tally.seconds;
  const cpu = cpus()[0]?.model.trim() ?? '?';
  console.log(
    `\nPGlite, ${PRODUCTS} products, ${CONCURRENCY} concurrent loops of one read (catalogue, ` +
      `product by slug, search in turn) + ${RENDERS}× a React render of 24 cards ` +
      `(${renderMs.toFixed(2)} ms alone); Node ${process.version}, ${availableParallelism()} CPU (${cpu}).\n`,
  );
  printTable(['Run', 'ops/s', 'p50 (ms)', 'p99 (ms)'], rows, 1);
  console.log(
    `\nWorker ÷ main thread: throughput ${(throughput(totals.worker) / throughput(totals.main)).toFixed(2)}×, ` +
      `p99 ${(percentile(totals.worker.latencies, 99) / percentile(totals.main.latencies, 99)).toFixed(2)}×.`,
  );
}

function emptyTally(): Tally {
  return { operations: 0, seconds: 0, latencies: [] };
}

function tallyRow(name: string, tally: Tally): string[] {
  return [
    name,
    (tally.operations / tally.seconds).toFixed(0),
    percentile(tally.latencies, 50).toFixed(1),
    percentile(tally.latencies, 99).toFixed(1),
  ];
}

if (isMainThread) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
} else {
  await serveQueries((workerData as { dataDir: string }).dataDir);
}
