// npm run bench:interaction — what a slow phone's main thread goes through on a first visit of
// each storefront page: Chromium on a phone's viewport, its CPU slowed 4× through the DevTools
// protocol, a fresh context (empty cache) per page and run, the production server on a fresh
// sample store. Per page: Total Blocking Time from the page's long tasks (from First Contentful
// Paint until 5 s after the load event or 2 s after `data-hydrated`, whichever is later; of each
// task only what runs after FCP, less 50 ms, counts, as Lighthouse counts it), the longest task,
// and when React had hydrated the page; then the interaction test's three gestures
// (tests/interaction), each sent the moment hydration starts, timed by Event Timing as INP counts
// them. Medians of RUNS runs, the pages taken in turn within a run.
//
// A static page blocks nothing, so a ratio of TBT to it means nothing: the figures are absolute,
// printed beside the machine's load average and a reference measured in the same run, the time a
// fixed piece of JavaScript takes in the same throttled browser. A busy machine slows that
// reference as much as the pages: compare the pages' figures in units of it across machines.
//
// Environment: RUNS (default 5; about a minute per run on 2 CPUs), VITRINE_BUILD_DIR (default
// build-bench, built first if missing or stale), CHROMIUM_PATH (default: the tests' browser, ADR 039).
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser } from 'playwright-core';

import { SAMPLE_PRODUCTS } from '~/flows/sample-store';

import { launchBrowser } from '../tests/support/browser';
import {
  benchmarkIndex,
  CPU_THROTTLING,
  INTERACTIONS,
  median,
  openThrottledPage,
  PHONE,
  PHONE_BENCHMARK_INDEX,
  readRecord,
  runInteraction,
  type Moment,
  waitForHydrated,
  type PageRecord,
} from '../tests/support/interaction';
import { sampleProductPath } from '../tests/support/sample';

import { positiveInteger } from './options';
import { BUILD_DIR, ensureBuilt, loadAverage, printTable, startServer } from './support';

const RUNS = positiveInteger('RUNS', 5);

const PRODUCT = SAMPLE_PRODUCTS[0]!;
const PAGES: { label: string; path: string; cart: boolean }[] = [
  { label: 'home', path: '/', cart: false },
  { label: 'catalogue', path: '/products', cart: false },
  { label: 'product', path: sampleProductPath(PRODUCT.name), cart: false },
  { label: 'cart (1 item)', path: '/cart', cart: true },
  { label: 'checkout (1 item)', path: '/checkout', cart: true },
];

/** Lighthouse's: the part of a task beyond this blocks input. */
const BLOCKING_THRESHOLD_MS = 50;
const AFTER_LOAD_MS = 5_000;
const AFTER_HYDRATION_MS = 2_000;

interface PageFigures {
  totalBlockingTime: number;
  longestTask: number;
  hydratedAt: number;
}

/** TBT and the longest task between FCP and the end of the window, as described above. */
function blockingFigures(
  record: PageRecord,
): Pick<PageFigures, 'totalBlockingTime' | 'longestTask'> {
  const from = record.firstContentfulPaint ?? 0;
  const until = Math.max(
    (record.loadedAt ?? 0) + AFTER_LOAD_MS,
    (record.hydratedAt ?? 0) + AFTER_HYDRATION_MS,
  );
  let totalBlockingTime = 0;
  let longestTask = 0;
  for (const task of record.longTasks) {
    const end = task.startTime + task.duration;
    if (end <= from || task.startTime >= until) continue;
    longestTask = Math.max(longestTask, task.duration);
    const counted = Math.min(end, until) - Math.max(task.startTime, from);
    totalBlockingTime += Math.max(0, counted - BLOCKING_THRESHOLD_MS);
  }
  return { totalBlockingTime, longestTask };
}

/** The worst moment for a tap, and the first moment the page's scripts are all in. */
const MOMENTS: Moment[] = ['hydrating', 'hydrated'];

/** One first visit: loads the page, waits out the window, reads the page's record. */
async function measurePage(
  browser: Browser,
  baseUrl: string,
  page: (typeof PAGES)[number],
): Promise<PageFigures> {
  const { context, page: tab } = await openThrottledPage(browser);
  try {
    if (page.cart) {
      // The same POST a card's form sends, in this context: its cookie is the cart.
      const added = await context.request.post(`${baseUrl}/cart`, {
        form: { intent: 'add', productId: PRODUCT.id, quantity: '1' },
      });
      if (!added.ok()) throw new Error(`Adding to the cart answered ${added.status()}`);
    }
    const response = await tab.goto(`${baseUrl}${page.path}`, { waitUntil: 'load' });
    if (response?.status() !== 200) throw new Error(`${page.path} answered ${response?.status()}`);
    await waitForHydrated(tab);
    // The window ends on the page's clock (see the top of the file).
    await tab.evaluate(
      ([afterLoad, afterHydration]) => {
        const record = window.__vitrineRecord!;
        const end = Math.max(
          (record.loadedAt ?? 0) + afterLoad!,
          (record.hydratedAt ?? 0) + afterHydration!,
        );
        return new Promise((resolve) => setTimeout(resolve, Math.max(0, end - performance.now())));
      },
      [AFTER_LOAD_MS, AFTER_HYDRATION_MS],
    );
    const record = await readRecord(tab);
    return { ...blockingFigures(record), hydratedAt: record.hydratedAt ?? NaN };
  } finally {
    await context.close();
  }
}

/**
 * The reference: a fixed piece of JavaScript (objects, a sort, JSON both ways: the kind of work
 * rendering does) in a fresh throttled page, timed on its second run, once it is compiled.
 * A string, as tsx would wrap a function's inner helpers in one of its own the page lacks.
 */
const WORKLOAD = `(() => {
  const run = () => {
    const started = performance.now();
    const items = [];
    for (let i = 0; i < 20000; i++) {
      items.push({ id: i, name: 'Produto ' + i, priceCents: (i * 7919) % 100003 });
    }
    items.sort((a, b) => a.priceCents - b.priceCents || a.id - b.id);
    const copy = JSON.parse(JSON.stringify(items));
    if (copy.length !== items.length) throw new Error('workload');
    return performance.now() - started;
  };
  run();
  return run();
})()`;

interface Reference {
  workload: number;
  /** Lighthouse's BenchmarkIndex of the throttled page, and of this machine unthrottled. */
  index: number;
  hostIndex: number;
}

async function measureReference(browser: Browser): Promise<Reference> {
  const { context, page } = await openThrottledPage(browser);
  try {
    await page.setContent('<!doctype html><title>reference</title>');
    const workload = await page.evaluate<number>(WORKLOAD);
    const index = await benchmarkIndex(page);
    const session = await context.newCDPSession(page);
    await session.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    return { workload, index, hostIndex: await benchmarkIndex(page) };
  } finally {
    await context.close();
  }
}

const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '—');

async function main(): Promise<void> {
  await ensureBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-interaction-'));
  const server = await startServer({ DATA_DIR: dataDir, SEED: 'true' });
  const browser = await launchBrowser();
  try {
    // The first request of a page pays for its code being read and compiled; shoppers' do not.
    for (const page of PAGES.filter((candidate) => !candidate.cart)) {
      const warmUp = await fetch(`${server.url}${page.path}`);
      await warmUp.arrayBuffer();
      if (warmUp.status !== 200) throw new Error(`${page.path} answered ${warmUp.status}`);
    }
    const loadAtStart = loadAverage();
    const started = Date.now();
    const pages = new Map(PAGES.map((page) => [page.label, [] as PageFigures[]]));
    const gestures = MOMENTS.flatMap((moment) =>
      INTERACTIONS.map((gesture) => ({ moment, gesture, key: `${moment} ${gesture.name}` })),
    );
    const interactions = new Map(gestures.map(({ key }) => [key, [] as number[]]));
    const hydrating = new Map(gestures.map(({ key }) => [key, 0]));
    const failures: string[] = [];
    const references: Reference[] = [];
    for (let run = 1; run <= RUNS; run++) {
      console.log(`Run ${run} of ${RUNS} (load average ${loadAverage()})`);
      references.push(await measureReference(browser));
      for (const page of PAGES) {
        pages.get(page.label)!.push(await measurePage(browser, server.url, page));
      }
      for (const { moment, gesture, key } of gestures) {
        try {
          const result = await runInteraction(browser, server.url, gesture, moment);
          interactions.get(key)!.push(result.duration);
          if (result.firstPointerWhileHydrating) {
            hydrating.set(key, hydrating.get(key)! + 1);
          }
        } catch (error) {
          failures.push(`${gesture.name}: ${error instanceof Error ? error.message : error}`);
        }
      }
    }
    const workloads = references.map((one) => one.workload);
    const reference = median(workloads);
    const index = median(references.map((one) => one.index));
    const hostIndex = median(references.map((one) => one.hostIndex));
    const cpu = cpus()[0]?.model.trim() ?? '?';
    console.log(
      `\nFirst visits on a phone (${PHONE.viewport.width}×${PHONE.viewport.height}, touch), ` +
        `CPU ${CPU_THROTTLING}× slower, median of ${RUNS} runs; build ${BUILD_DIR}.\n` +
        `Node ${process.version}, ${availableParallelism()} CPU (${cpu}); load average ` +
        `${loadAtStart} at the start, ${loadAverage()} at the end (${Math.round((Date.now() - started) / 1000)} s).\n` +
        `Reference: a fixed piece of JavaScript takes ${ms(reference)} in the same throttled ` +
        `browser (runs: ${workloads.map((value) => Math.round(value)).join(', ')} ms).\n` +
        `Lighthouse's BenchmarkIndex: ${hostIndex} unthrottled, ${index} at ${CPU_THROTTLING}× ` +
        `(the interaction test's phone: ${PHONE_BENCHMARK_INDEX}).\n`,
    );
    printTable(
      ['Page', 'TBT', 'TBT ÷ reference', 'Longest task', 'Hydrated at'],
      PAGES.map((page) => {
        const figures = pages.get(page.label)!;
        const tbt = median(figures.map((figure) => figure.totalBlockingTime));
        return [
          `${page.label} (${page.path})`,
          ms(tbt),
          `${(tbt / reference).toFixed(1)}×`,
          ms(median(figures.map((figure) => figure.longestTask))),
          ms(median(figures.map((figure) => figure.hydratedAt))),
        ];
      }),
      1,
    );
    console.log('');
    printTable(
      ['Interaction', 'Sent', 'Page', 'Median', 'Runs', 'Tap while hydrating'],
      gestures.map(({ moment, gesture, key }) => {
        const durations = interactions.get(key)!;
        return [
          gesture.name,
          moment === 'hydrating' ? 'as hydration starts' : 'once hydrated',
          gesture.path,
          durations.length ? durationText(median(durations)) : '—',
          durations.map(durationText).join(', '),
          `${hydrating.get(key)} of ${durations.length}`,
        ];
      }),
      2,
    );
    console.log(
      "\nInteractions: the slowest of a gesture's interactions (Event Timing, rounded to 8 ms; " +
        "none at 16 ms or over reads '< 16 ms'). INP's 'good' is 200 ms at most.",
    );
    if (failures.length > 0) {
      console.log(`\nGestures that failed:\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function durationText(duration: number): string {
  return duration === 0 ? '< 16 ms' : `${duration} ms`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
