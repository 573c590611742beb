// npm run bench — the storefront's pages under load, as ratios to a static file from the same
// server, on PGlite and PostgreSQL, with 10,000 and 100,000 products, cached and uncached.
//
// For each database and size: fills a fresh database once (the sample store plus the generated
// catalogue), then starts the production server (`node server/main.js`) with its page cache, then
// again without it (PAGE_CACHE_MAX_BYTES=0), and, with BASELINE_DIR, the other checkout's server
// without it too, on the same database. Each server answers the app's hashed stylesheet (asked
// without Accept-Encoding: the cheapest answer it has, the reference) and each page, with
// `Accept-Encoding: br, gzip` as browsers ask, without and with a real cart cookie, every URL
// warmed once first. Load: `wrk -t2 -c<CONNECTIONS>` when wrk is installed, else autocannon.
//
// Environment:
//   DURATION     seconds per measurement (default 5: the whole matrix takes about 10 minutes,
//                13 with a baseline, on 2 CPUs)
//   CONNECTIONS  concurrent connections (default 20)
//   PRODUCTS     catalogue sizes (default 10000,100000)
//   DATABASES    pglite, postgres (default both)
//   CACHE        cached, uncached (default both)
//   CART         without, with (default both)
//   PAGES        home, products, search, filtered, option, product, many (default all; option:
//                filtered and by size G; many: 5,000 product pages in turn, none asked twice, so
//                every one is read afresh)
//   VARIANTS     variants per generated product, one catalogue each (default 1; 6: sizes P, M,
//                G × two colours). With several, each catalogue's figures are also printed as
//                ratios to the first's (its 'option' page to the first's 'filtered')
//   BENCH_POSTGRES_URL  server to create scratch databases on (else DATABASE_URL's server, else
//                postgres://postgres@127.0.0.1:5432/postgres)
//   BASELINE_DIR another checkout, built into BASELINE_BUILD_DIR inside it (default build)
//   VITRINE_BUILD_DIR  this checkout's build (default build-bench, built first if missing or stale)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import autocannon from 'autocannon';

import { prepareStoreFolder } from '../tests/support/store';

import {
  fillCatalogue,
  MANY_PRODUCTS,
  OPTION_FILTER,
  SEARCH_TERM,
  type GeneratedCatalogue,
} from './catalogue';
import { choices, positiveInteger, positiveIntegers } from './options';
import {
  BUILD_DIR,
  ensureBuilt,
  printTable,
  ROOT,
  scratchPostgres,
  startServer,
  type Checkout,
} from './support';

const DURATION = positiveInteger('DURATION', 5);
const CONNECTIONS = positiveInteger('CONNECTIONS', 20);
const SIZES = positiveIntegers('PRODUCTS', [10_000, 100_000]);
const DATABASES = choices('DATABASES', ['pglite', 'postgres'] as const);
const CACHE = choices('CACHE', ['cached', 'uncached'] as const);
const CART = choices('CART', ['without', 'with'] as const);
const PAGES = choices('PAGES', [
  'home',
  'products',
  'search',
  'filtered',
  'option',
  'product',
  'many',
] as const);
const VARIANT_COUNTS = positiveIntegers('VARIANTS', [1]);
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ||
  process.env.DATABASE_URL ||
  'postgres://postgres@127.0.0.1:5432/postgres';
const BASELINE: Checkout | undefined = process.env.BASELINE_DIR
  ? {
      root: resolve(process.env.BASELINE_DIR),
      buildDir: process.env.BASELINE_BUILD_DIR || 'build',
    }
  : undefined;
const WRK = spawnSync('wrk', ['-v']).error === undefined;
const LOAD_GENERATOR = WRK
  ? `wrk -t2 -c${CONNECTIONS} -d${DURATION}s`
  : `autocannon, ${CONNECTIONS} connections, ${DURATION} s (wrk is not installed)`;

type Page = (typeof PAGES)[number];
type Cart = (typeof CART)[number];
/** A server run: this checkout with and without its page cache, or the baseline without. */
type Run = 'cached' | 'uncached' | 'baseline';

const PAGE_LABELS: Record<Page, string> = {
  home: '/',
  products: '/products',
  search: `/products?q=${SEARCH_TERM}`,
  filtered: 'category + price + sort',
  option: `category + price + sort + ${OPTION_FILTER}`,
  product: '/product/:slug',
  many: `/product/:slug, ${MANY_PRODUCTS.toLocaleString('en')} in turn`,
};

function pagePaths(catalogue: GeneratedCatalogue): Record<Page, string> {
  const filters = new URLSearchParams({
    categoria: catalogue.categorySlug,
    min: '50',
    max: '500',
    ordem: 'menor-preco',
  });
  return {
    home: '/',
    products: '/products',
    search: `/products?q=${SEARCH_TERM}`,
    filtered: `/products?${filters}`,
    option: `/products?${filters}&${new URLSearchParams({ opcao: OPTION_FILTER })}`,
    product: `/product/${catalogue.productSlug}`,
    many: `/product/${catalogue.productSlugs[0]}`,
  };
}

/** Every path a page is asked at: one, or for `many` MANY_PRODUCTS products in turn. */
function pageRequests(page: Page, catalogue: GeneratedCatalogue): string[] {
  return page === 'many'
    ? catalogue.productSlugs.map((slug) => `/product/${slug}`)
    : [pagePaths(catalogue)[page]];
}

// ---------------------------------------------------------------------------------------------
// Load

interface Load {
  requestsPerSecond: number;
  /** Milliseconds. */
  p99: number;
  /** Errors and non-2xx answers, if any: the figures beside them mean less. */
  problems: string[];
}

/**
 * `headers` on every request for DURATION seconds over CONNECTIONS connections: to `url`, or with
 * `paths`, to each of them in turn on `url`'s server (wrk only).
 */
async function load(url: string, headers: Record<string, string>, paths?: string[]): Promise<Load> {
  if (!WRK) {
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: DURATION,
      headers,
      timeout: 30,
    });
    const problems = [
      result.non2xx && `${result.non2xx} non-2xx`,
      result.errors && `${result.errors} errors`,
      result.timeouts && `${result.timeouts} timeouts`,
    ].filter((problem): problem is string => Boolean(problem));
    return { requestsPerSecond: result.requests.average, p99: result.latency.p99, problems };
  }
  const script = paths ? await rotationScript(paths) : undefined;
  const output = await wrk([
    '-t2',
    `-c${CONNECTIONS}`,
    `-d${DURATION}s`,
    // Requests slower than wrk's default 2 s would be left out of the latencies.
    '--timeout',
    '30s',
    '--latency',
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    ...(script ? ['-s', script] : []),
    url,
  ]).finally(() => script && rm(dirname(script), { recursive: true, force: true }));
  const requestsPerSecond = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(output);
  if (!requestsPerSecond || !p99) throw new Error(`Unexpected wrk output:\n${output}`);
  const problems: string[] = [];
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output);
  if (non2xx) problems.push(`${non2xx[1]} non-2xx`);
  const errors = /Socket errors: (.*)/.exec(output);
  if (errors) problems.push(`socket errors: ${errors[1]}`);
  const unit = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
  return {
    requestsPerSecond: Number(requestsPerSecond[1]),
    p99: Number(p99[1]) * unit,
    problems,
  };
}

/**
 * A wrk script asking `paths` in turn, the two threads from opposite ends of the list: at a few
 * hundred pages a second, no page is asked twice in a run.
 */
async function rotationScript(paths: string[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'vitrine-bench-wrk-')), 'rotate.lua');
  const list = paths.map((path) => JSON.stringify(path)).join(',\n');
  await writeFile(
    file,
    `local paths = {\n${list}\n}\n` +
      'local threads = 0\n' +
      'function setup(thread) thread:set("start", threads * math.floor(#paths / 2)) threads = threads + 1 end\n' +
      'function init() i = start end\n' +
      'function request() i = i % #paths + 1 return wrk.format(nil, paths[i]) end\n',
  );
  return file;
}

function wrk(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`wrk exited ${code}:\n${output}`)),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// One server

interface RunResult {
  staticFile?: Load;
  pages: Map<string, Load | string>;
}

const key = (page: Page, cart: Cart) => `${page} ${cart}`;

/** The app's stylesheet: the hashed file every page links to. */
function staticAssetPath(): string {
  const assets = readdirSync(join(ROOT, BUILD_DIR, 'client/assets'));
  const css = assets.find((name) => /^app-.*\.css$/.test(name));
  if (!css) throw new Error(`No app-….css in ${BUILD_DIR}/client/assets`);
  return `/assets/${css}`;
}

/** A cart with one product in it, as the server itself writes it after an add. */
async function cartCookie(baseUrl: string, variantId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/cart`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: baseUrl,
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ intent: 'add', variantId, quantity: '1' }),
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0]!)
    .find((pair) => pair.startsWith('vitrine_cart=') && pair !== 'vitrine_cart=');
  if (!cookie) throw new Error(`POST /cart answered ${response.status} without a cart cookie`);
  return cookie;
}

/** The static file (unless `withStatic` is off), then every page without and with a cart. */
async function measureServer(
  baseUrl: string,
  catalogue: GeneratedCatalogue,
  withStatic: boolean,
): Promise<RunResult> {
  const result: RunResult = { pages: new Map() };
  if (withStatic) {
    const path = staticAssetPath();
    console.log(`  static ${path}`);
    result.staticFile = await load(`${baseUrl}${path}`, {});
  }
  const cookie = CART.includes('with') ? await cartCookie(baseUrl, catalogue.variantId) : '';
  for (const page of PAGES) {
    const paths = pageRequests(page, catalogue);
    for (const cart of CART) {
      const headers: Record<string, string> = {
        'accept-encoding': 'br, gzip',
        ...(cart === 'with' ? { cookie } : {}),
      };
      console.log(`  ${PAGE_LABELS[page]}${cart === 'with' ? ' (cart)' : ''}`);
      result.pages.set(key(page, cart), await loadPage(baseUrl, paths, headers));
    }
  }
  return result;
}

/**
 * A page warmed once (its first path), then loaded; or why it was not measured. Several paths
 * are asked in turn, so they are not warmed: they measure what no cache holds.
 */
async function loadPage(
  baseUrl: string,
  paths: string[],
  headers: Record<string, string>,
): Promise<Load | string> {
  if (paths.length > 1 && !WRK) return 'needs wrk';
  const url = `${baseUrl}${paths[0]}`;
  const warm = await fetch(url, { headers, redirect: 'manual' });
  await warm.arrayBuffer();
  if (warm.status !== 200) return `HTTP ${warm.status}`;
  const measured = await load(url, headers, paths.length > 1 ? paths : undefined);
  return measured.requestsPerSecond > 0 ? measured : `none in ${DURATION} s`;
}

// ---------------------------------------------------------------------------------------------
// Databases

interface Store {
  label: string;
  env: Record<string, string>;
  catalogue: GeneratedCatalogue;
  cleanUp(): Promise<void>;
}

/** The sample store plus `size` generated products, closed again: the servers open it next. */
async function prepareStore(
  database: (typeof DATABASES)[number],
  size: number,
  variants: number,
): Promise<Store> {
  let catalogue: GeneratedCatalogue | undefined;
  const fill = async (db: Parameters<typeof fillCatalogue>[0]) => {
    catalogue = await fillCatalogue(db, size, variants);
  };
  const started = performance.now();
  let store: Omit<Store, 'catalogue'>;
  if (database === 'pglite') {
    // One process at a time in a PGlite folder: filled and closed before any server opens it.
    const dataDir = await prepareStoreFolder({}, fill);
    store = {
      label: `PGlite, ${variantLabel(variants)}`,
      env: { DATA_DIR: dataDir },
      cleanUp: () => rm(dataDir, { recursive: true, force: true }),
    };
  } else {
    const scratch = await scratchPostgres(POSTGRES_URL, 'vitrine_bench_storefront', fill);
    store = {
      label: `PostgreSQL, ${variantLabel(variants)}`,
      // DATA_DIR still holds what the app writes to files (e-mails).
      env: { DATABASE_URL: scratch.url, DATA_DIR: scratch.dataDir },
      cleanUp: scratch.cleanUp,
    };
  }
  console.log(
    `${store.label}, ${size} products: filled in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { ...store, catalogue: catalogue! };
}

async function measureStore(store: Store): Promise<Map<Run, RunResult>> {
  const results = new Map<Run, RunResult>();
  const uncached = { ...store.env, PAGE_CACHE_MAX_BYTES: '0' };
  const runs: { run: Run; env: Record<string, string>; checkout?: Checkout }[] = CACHE.map(
    (mode) => ({ run: mode, env: mode === 'cached' ? store.env : uncached }),
  );
  if (BASELINE) runs.push({ run: 'baseline', env: uncached, checkout: BASELINE });
  for (const { run, env, checkout } of runs) {
    console.log(`${store.label}, ${run}:`);
    const server = await startServer({ SEED: 'false', ...env }, undefined, checkout);
    try {
      results.set(run, await measureServer(server.url, store.catalogue, run !== 'baseline'));
    } finally {
      await server.stop();
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Report

function variantLabel(variants: number): string {
  return variants === 1 ? '1 variant a product' : `${variants} variants a product`;
}

const rate = (load: Load) => load.requestsPerSecond.toFixed(0);
const p99 = (load: Load) => load.p99.toFixed(1);
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(3) : '–');

/** Requests/s, p99 and the ratio to the static file of one server run, or dashes. */
function runCells(run: RunResult | undefined, measured: Load | string | undefined): string[] {
  if (!run || measured === undefined) return ['–', '–', '–'];
  if (typeof measured === 'string') return [measured, '–', '–'];
  const reference = run.staticFile?.requestsPerSecond ?? 0;
  return [rate(measured), p99(measured), ratio(measured.requestsPerSecond, reference)];
}

function printResults(title: string, paths: Record<Page, string>, results: Map<Run, RunResult>) {
  const cached = results.get('cached');
  const uncached = results.get('uncached');
  const baseline = results.get('baseline');
  const header = [
    'Page',
    'Cart',
    'cached req/s',
    'p99 ms',
    '÷ static',
    'uncached req/s',
    'p99 ms',
    '÷ static',
    ...(baseline ? ['baseline req/s', 'p99 ms', 'new/old'] : []),
    'Notes',
  ];
  const staticCells = (run: RunResult | undefined) =>
    run?.staticFile ? [rate(run.staticFile), p99(run.staticFile), '1'] : ['–', '–', '–'];
  const notes = (parts: [string, Load | string | undefined][]) =>
    parts
      .flatMap(([name, measured]) =>
        measured && typeof measured !== 'string' && measured.problems.length > 0
          ? [`${name}: ${measured.problems.join(', ')}`]
          : [],
      )
      .join('; ');
  const lines = [
    [
      'static CSS, uncompressed',
      '',
      ...staticCells(cached),
      ...staticCells(uncached),
      ...(baseline ? ['', '', ''] : []),
      notes([
        ['cached', cached?.staticFile],
        ['uncached', uncached?.staticFile],
      ]),
    ],
  ];
  for (const page of PAGES) {
    for (const cart of CART) {
      const measured = (run: RunResult | undefined) => run?.pages.get(key(page, cart));
      const newer = measured(uncached);
      const older = measured(baseline);
      const baselineCells =
        older === undefined
          ? []
          : typeof older === 'string'
            ? [older, '–', '–']
            : [
                rate(older),
                p99(older),
                newer && typeof newer !== 'string'
                  ? `${(newer.requestsPerSecond / older.requestsPerSecond).toFixed(2)}×`
                  : '–',
              ];
      lines.push([
        PAGE_LABELS[page],
        cart === 'with' ? 'yes' : 'no',
        ...runCells(cached, measured(cached)),
        ...runCells(uncached, newer),
        ...(baseline ? baselineCells : []),
        notes([
          ['cached', measured(cached)],
          ['uncached', newer],
          ['baseline', older],
        ]),
      ]);
    }
  }
  console.log(`\n${title}\n`);
  printTable(header, lines);
  if (PAGES.includes('filtered')) console.log(`\ncategory + price + sort: ${paths.filtered}`);
  console.log('');
}

/**
 * Each page of a catalogue of more variants beside the first catalogue's: cached ÷ static in
 * both, and the uncached requests per second as a ratio (the option filter to the plain filter).
 */
function printVariantRatios(
  title: string,
  base: { variants: number; results: Map<Run, RunResult> },
  other: { variants: number; results: Map<Run, RunResult> },
) {
  const [a, b] = [base.variants, other.variants];
  const header = [
    'Page',
    'Cart',
    `cached ÷ static (${a})`,
    `cached ÷ static (${b})`,
    `uncached req/s (${a})`,
    `uncached req/s (${b})`,
    `${b} ÷ ${a}`,
  ];
  const lines: string[][] = [];
  for (const page of PAGES) {
    const basePage: Page = page === 'option' ? 'filtered' : page;
    for (const cart of CART) {
      const cells = (run: Map<Run, RunResult>, mode: Run, which: Page) => {
        const result = run.get(mode);
        return { result, measured: result?.pages.get(key(which, cart)) };
      };
      const staticRatio = (mode: { result?: RunResult; measured?: Load | string }) =>
        runCells(mode.result, mode.measured)[2]!;
      const oldUncached = cells(base.results, 'uncached', basePage).measured;
      const newUncached = cells(other.results, 'uncached', page).measured;
      lines.push([
        page === 'option' ? `${PAGE_LABELS[page]} (vs filtered)` : PAGE_LABELS[page],
        cart === 'with' ? 'yes' : 'no',
        staticRatio(cells(base.results, 'cached', basePage)),
        staticRatio(cells(other.results, 'cached', page)),
        oldUncached && typeof oldUncached !== 'string' ? rate(oldUncached) : '–',
        newUncached && typeof newUncached !== 'string' ? rate(newUncached) : '–',
        oldUncached &&
        newUncached &&
        typeof oldUncached !== 'string' &&
        typeof newUncached !== 'string'
          ? ratio(newUncached.requestsPerSecond, oldUncached.requestsPerSecond)
          : '–',
      ]);
    }
  }
  console.log(`\n${title}: ${variantLabel(b)} ÷ ${variantLabel(a)}\n`);
  printTable(header, lines);
  console.log('');
}

async function main(): Promise<void> {
  if (BASELINE && !existsSync(join(BASELINE.root, BASELINE.buildDir, 'server/index.js'))) {
    throw new Error(
      `No build in ${join(BASELINE.root, BASELINE.buildDir)}: run ` +
        `\`NODE_ENV=production npx react-router build\` in ${BASELINE.root} first.`,
    );
  }
  await ensureBuilt();
  const cpu = cpus()[0]?.model.trim() ?? '?';
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPU (${cpu}); load: ${LOAD_GENERATOR}` +
      (BASELINE ? `; baseline: ${BASELINE.root} (${BASELINE.buildDir})` : ''),
  );
  for (const database of DATABASES) {
    for (const size of SIZES) {
      const measured: { variants: number; results: Map<Run, RunResult> }[] = [];
      for (const variants of VARIANT_COUNTS) {
        const store = await prepareStore(database, size, variants);
        try {
          const results = await measureStore(store);
          measured.push({ variants, results });
          printResults(
            `${store.label}, ${size} products (Node ${process.version}, ${cpu}, ${LOAD_GENERATOR})`,
            pagePaths(store.catalogue),
            results,
          );
        } finally {
          await store.cleanUp();
        }
      }
      for (const other of measured.slice(1)) {
        printVariantRatios(`${database}, ${size} products`, measured[0]!, other);
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
