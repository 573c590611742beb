// npx tsx bench/browser-pages.ts — what a browser test's page costs Chromium, by how the test
// gets it: a new context (what each test did before tests/support/browser.ts kept contexts), a
// new page in a context already open, a context handed back to that pool and taken again (what a
// test does now: new context, new page, close), and one page navigated again. Each is LOADS
// loads of the sample store's home page at 360 px, after one load to warm the server, and the
// figure is the CPU that Chromium's processes (browser, renderers, GPU, network) used per load,
// from /proc, with its ratio to the new context's in the same run. Medians of RUNS runs.
//
// Environment: RUNS (default 3), LOADS (default 12), VITRINE_BUILD_DIR (default build-bench,
// built first if missing or stale), CHROMIUM_PATH (default: the tests' browser, ADR 039).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

import {
  BROWSER_SERVER_ENV,
  CHROMIUM_OPTIONS,
  launchBrowser,
  VIEWPORTS,
  waitForHydration,
} from '../tests/support/browser';
import { median } from '../tests/support/interaction';

import { positiveInteger } from './options';
import { ensureBuilt, loadAverage, printTable, startServer } from './support';

const RUNS = positiveInteger('RUNS', 3);
const LOADS = positiveInteger('LOADS', 12);
const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by a process and its descendants, the reaped ones included. */
function treeCpuSeconds(root: number): number {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The fields after the command's closing parenthesis: state, ppid, … utime is the 12th.
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      parents.set(Number(name), Number(fields[1]));
      ticks.set(
        Number(name),
        fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0),
      );
    } catch {
      // Gone between the listing and the read.
    }
  }
  const inTree = (pid: number): boolean =>
    pid === root || (parents.has(pid) && pid > 1 && inTree(parents.get(pid)!));
  let total = 0;
  for (const [pid, used] of ticks) if (inTree(pid)) total += used;
  return total / TICKS_PER_SECOND;
}

interface Way {
  label: string;
  /** Through tests/support/browser.ts's launchBrowser, as the tests get their browser. */
  pooled?: boolean;
  /** Opens the page for a load; `previous` is the last load's. */
  open(browser: Browser, previous: Page | undefined): Promise<Page>;
}

const OPTIONS = { viewport: VIEWPORTS.mobile, locale: 'pt-BR' };

/** What a test does: a context of its own, closed when done. */
async function newContext(browser: Browser, previous: Page | undefined): Promise<Page> {
  if (previous) await previous.context().close();
  return (await browser.newContext(OPTIONS)).newPage();
}

const WAYS: Way[] = [
  { label: 'new context', open: newContext },
  {
    label: 'new page, same context',
    async open(browser, previous) {
      if (!previous) return (await browser.newContext(OPTIONS)).newPage();
      const context: BrowserContext = previous.context();
      await previous.close();
      return context.newPage();
    },
  },
  { label: 'context handed back and taken (pool)', pooled: true, open: newContext },
  {
    label: 'same page, navigated',
    async open(browser, previous) {
      return previous ?? (await browser.newContext(OPTIONS)).newPage();
    },
  },
];

async function measure(way: Way, browser: Browser, url: string, chromiumPid: number) {
  const before = treeCpuSeconds(chromiumPid);
  let page: Page | undefined;
  for (let load = 0; load < LOADS; load++) {
    page = await way.open(browser, page);
    await page.goto(url, { waitUntil: 'networkidle' });
    await waitForHydration(page);
  }
  await page!.context().close();
  // Let the last renderer exit and be reaped, so its CPU is counted.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return (treeCpuSeconds(chromiumPid) - before) / LOADS;
}

await ensureBuilt();
const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-pages-'));
const server = await startServer({ DATA_DIR: dataDir });
const chromiumServer = await chromium.launchServer(CHROMIUM_OPTIONS);
const chromiumPid = chromiumServer.process().pid!;
try {
  const plain = await chromium.connect(chromiumServer.wsEndpoint());
  process.env[BROWSER_SERVER_ENV] = chromiumServer.wsEndpoint();
  const pooled = await launchBrowser();
  const warm = await plain.newPage();
  await warm.goto(`${server.url}/`, { waitUntil: 'networkidle' });
  await warm.close();
  const figures = new Map<string, number[]>(WAYS.map((way) => [way.label, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const way of WAYS) {
      const browser = way.pooled ? pooled : plain;
      figures.get(way.label)!.push(await measure(way, browser, `${server.url}/`, chromiumPid));
    }
  }
  const reference = median(figures.get(WAYS[0]!.label)!);
  console.log(
    `Chromium CPU per load of / at 360 px: median of ${RUNS} runs of ${LOADS} loads ` +
      `(load average ${loadAverage()})`,
  );
  printTable(
    ['how the test gets its page', 'CPU s per load', 'to a new context'],
    WAYS.map((way) => {
      const figure = median(figures.get(way.label)!);
      return [way.label, figure.toFixed(2), `${(figure / reference).toFixed(2)}×`];
    }),
    1,
  );
  await pooled.close();
  await plain.close();
} finally {
  await chromiumServer.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
