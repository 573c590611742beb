// npm run lighthouse — Lighthouse's mobile audit (its default phone emulation and simulated
// throttling) of the home page, the catalogue, a product page, and the cart and checkout with one
// item in the cart, on the sample store served by the production build on a fresh embedded
// database. Prints a table and exits 1 when a page scores under 95 in performance or 100 in
// accessibility, blocks the main thread for more than 150 ms (TBT), or shifts its layout at all.
// Slow (a browser and a full audit per run), so not part of CI.
//
// Lighthouse runs from its own CLI through `npm exec`, on a Node fetched from the npm registry
// (ADR 022): the versions are pinned below. Chromium is ours, launched here, one per run.
//
// Lighthouse simulates a slow phone from what it saw on this machine, so a busy machine lowers
// the scores: each page is audited RUNS times (default 5) and the median run, by performance,
// is the one reported, as Lighthouse's own docs advise, with the median of the runs' total
// blocking times and their range (the TBT the budget holds is the median run's). Beside them are
// the benchmark index
// Lighthouse measured (its CPU speed test: lower is a slower or busier machine) and its range
// over the runs, and the machine's load average at the start and the end.
// VITRINE_BUILD_DIR: the build to serve (default build-bench, built first if missing or stale).
// CHROMIUM_PATH: the browser (default /usr/bin/chromium). REPORT_DIR: also writes each page's
// reported run there as HTML and as JSON.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { positiveInteger } from '../bench/options';
import { ensureBuilt, printTable, ROOT, startServer } from '../bench/support';
import { SAMPLE_PRODUCTS } from '../app/flows/sample-store';
import { sampleProductPath } from '../tests/support/sample';

// Lighthouse 13 needs Node 22.19 or later (its `engines`) and the project runs on Node 20 with
// engine-strict, so it cannot be a devDependency: `npm exec` fetches both from the registry
// (cached after the first run) and runs Lighthouse's CLI on that Node. Pinned, so a new release
// of either cannot move the scores between two runs of this script.
const LIGHTHOUSE_VERSION = '13.5.0';
const NODE_VERSION = '22.23.3';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const REPORT_DIR = process.env.REPORT_DIR || undefined;
const RUNS = positiveInteger('RUNS', 5);

const MIN_PERFORMANCE = 95;
const MAX_TBT_MS = 150;
const MIN_ACCESSIBILITY = 100;

const PRODUCT = SAMPLE_PRODUCTS[0]!;

/** Pages audited; `withCart` ones are opened with one item in the cart. */
const PAGES: { name: string; path: string; withCart?: true }[] = [
  { name: 'home', path: '/' },
  { name: 'catalogue', path: '/products' },
  { name: 'product', path: sampleProductPath(PRODUCT.name) },
  { name: 'cart', path: '/cart', withCart: true },
  { name: 'checkout', path: '/checkout', withCart: true },
];

/** The parts of Lighthouse's JSON result (its "LHR") that this script reads. */
interface LighthouseResult {
  lighthouseVersion: string;
  runtimeError?: { code: string; message: string };
  environment: { benchmarkIndex: number };
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<
    string,
    { title: string; score: number | null; scoreDisplayMode: string; numericValue?: number }
  >;
}

interface Run {
  result: LighthouseResult;
  /** Where the CLI wrote this run's reports, without the `.report.json` ending. */
  base: string;
}

interface Browser {
  port: number;
  close(): Promise<void>;
}

/** Chromium in a fresh profile, kept off the network this machine does not have. */
async function launchChromium(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'vitrine-lighthouse-'));
  const child = spawn(
    CHROMIUM_PATH,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      // Chromium picks a free port and writes it to DevToolsActivePort in the profile.
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const close = async () => {
    child.kill('SIGTERM');
    await exited;
    await rm(profile, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const [port] = (await readFile(join(profile, 'DevToolsActivePort'), 'utf8')).split('\n');
      if (port) return { port: Number(port), close };
    } catch {
      // Not written yet.
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`Chromium (${CHROMIUM_PATH}) did not open its DevTools port`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Lighthouse's CLI on its own Node; resolves with its exit code and the tail of its stderr. */
function runLighthouseCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'npm',
      [
        'exec',
        '--yes',
        // The project's .npmrc has engine-strict, which would refuse Lighthouse's own engines.
        '--engine-strict=false',
        `--package=node@${NODE_VERSION}`,
        `--package=lighthouse@${LIGHTHOUSE_VERSION}`,
        '--',
        'lighthouse',
        ...args,
      ],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on(
      'data',
      (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)),
    );
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** One audit in a fresh browser; a run that failed to record the page is tried again. */
async function audit(
  url: string,
  headers: Record<string, string>,
  base: string,
  attemptsLeft = 2,
): Promise<Run> {
  const browser = await launchChromium();
  let outcome: { code: number | null; stderr: string };
  try {
    outcome = await runLighthouseCli([
      url,
      `--port=${browser.port}`,
      '--output=json',
      '--output=html',
      // A base name: the CLI writes <base>.report.json and <base>.report.html.
      `--output-path=${base}`,
      '--only-categories=performance,accessibility',
      '--quiet',
      ...(Object.keys(headers).length > 0 ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
    ]);
  } finally {
    await browser.close();
  }
  let result: LighthouseResult | undefined;
  try {
    result = JSON.parse(await readFile(`${base}.report.json`, 'utf8')) as LighthouseResult;
  } catch {
    // Nothing written: the CLI's own error is below.
  }
  if (outcome.code === 0 && result && !result.runtimeError) {
    if (result.lighthouseVersion !== LIGHTHOUSE_VERSION) {
      throw new Error(`Lighthouse ${result.lighthouseVersion} ran, not ${LIGHTHOUSE_VERSION}`);
    }
    return { result, base };
  }
  // Lighthouse's own advice for a failed trace (NO_NAVSTART and the like): run it again. The CLI
  // exits 1 on such a run, after writing its report.
  if (attemptsLeft > 0) return audit(url, headers, base, attemptsLeft - 1);
  throw new Error(
    `${url}: ${result?.runtimeError?.message ?? `Lighthouse exited ${outcome.code}`}\n${outcome.stderr}`,
  );
}

/** The audits of a category that did not pass, by title ("informative" ones say nothing). */
function failingAudits(result: LighthouseResult, category: string): string[] {
  return result.categories[category]!.auditRefs.flatMap(({ id }) => {
    const audit = result.audits[id]!;
    const scored =
      audit.score !== null && !['informative', 'manual'].includes(audit.scoreDisplayMode);
    return scored && audit.score! < 0.9 ? [audit.title] : [];
  });
}

/**
 * A cart cookie holding one of the product: posted to /cart as the product page's add-to-cart
 * form posts it from a browser without JavaScript (the request guard refuses a cross-site post,
 * so the browser's Origin and Sec-Fetch-* headers go with it).
 */
async function cartCookie(origin: string): Promise<string> {
  const productPath = sampleProductPath(PRODUCT.name);
  const page = await fetch(`${origin}${productPath}`);
  const productId = /name="productId" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!productId) throw new Error(`No add-to-cart form on ${productPath}`);
  const answer = await fetch(`${origin}/cart`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'text/html',
      Origin: origin,
      'Sec-Fetch-Site': 'same-origin',
      'Sec-Fetch-Mode': 'navigate',
      'Sec-Fetch-Dest': 'document',
    },
    body: new URLSearchParams({ intent: 'add', productId, quantity: '1' }),
  });
  await answer.arrayBuffer();
  const cookie = answer.headers
    .getSetCookie()
    .map((header) => header.split(';', 1)[0]!)
    .join('; ');
  if (answer.status !== 303 || !cookie) {
    throw new Error(`Adding to the cart answered ${answer.status} without a cookie`);
  }
  return cookie;
}

const loadAverage = () =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  console.log(`Load average (1, 5, 15 min) at the start: ${loadAverage()}`);
  await ensureBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-lighthouse-data-'));
  const reportsDir = await mkdtemp(join(tmpdir(), 'vitrine-lighthouse-reports-'));
  const server = await startServer({ DATA_DIR: dataDir, SEED: 'true' });
  let failed = false;
  try {
    const cookie = await cartCookie(server.url);
    const lines: string[][] = [];
    const failing: string[] = [];
    for (const { name, path, withCart } of PAGES) {
      const url = `${server.url}${path}`;
      const headers: Record<string, string> = withCart ? { Cookie: cookie } : {};
      // The first request of a page pays for its code being read and compiled; shoppers' do not.
      const warmUp = await fetch(url, { headers, redirect: 'manual' });
      const html = await warmUp.text();
      if (warmUp.status !== 200) throw new Error(`${url} answered ${warmUp.status}`);
      // An empty cart (a cookie the server did not take) would be audited without complaint.
      if (withCart && !html.includes(PRODUCT.name)) {
        throw new Error(`${url} does not show "${PRODUCT.name}": the cart cookie was not taken`);
      }

      const runs: Run[] = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(await audit(url, headers, join(reportsDir, `${name}-${run + 1}`)));
      }
      const indexes = runs.map((each) => each.result.environment.benchmarkIndex);
      const blocking = runs
        .map((each) => each.result.audits['total-blocking-time']!.numericValue!)
        .sort((a, b) => a - b);
      runs.sort(
        (a, b) => a.result.categories.performance!.score! - b.result.categories.performance!.score!,
      );
      const { result, base } = runs[Math.floor(RUNS / 2)]!;
      const score = (category: string) => Math.round(result.categories[category]!.score! * 100);
      const performance = score('performance');
      const accessibility = score('accessibility');
      const cls = result.audits['cumulative-layout-shift']!.numericValue!;
      const lcp = result.audits['largest-contentful-paint']!.numericValue!;
      const tbt = result.audits['total-blocking-time']!.numericValue!;
      if (
        performance < MIN_PERFORMANCE ||
        tbt > MAX_TBT_MS ||
        accessibility < MIN_ACCESSIBILITY ||
        cls > 0
      ) {
        failed = true;
      }
      lines.push([
        `${name} (${path})`,
        String(performance),
        String(accessibility),
        cls.toFixed(3),
        `${Math.round(lcp)} ms`,
        `${Math.round(tbt)} ms`,
        `${Math.round(blocking[Math.floor(RUNS / 2)]!)} ms (${Math.round(blocking[0]!)}–${Math.round(blocking.at(-1)!)})`,
        String(Math.round(result.environment.benchmarkIndex)),
        `${Math.round(Math.min(...indexes))}–${Math.round(Math.max(...indexes))}`,
      ]);
      const titles = ['performance', 'accessibility'].flatMap((category) =>
        failingAudits(result, category),
      );
      if (titles.length > 0) failing.push(`${name}: ${titles.join('; ')}`);
      if (REPORT_DIR) {
        await mkdir(REPORT_DIR, { recursive: true });
        for (const extension of ['html', 'json']) {
          await copyFile(
            `${base}.report.${extension}`,
            join(REPORT_DIR, `${name}.report.${extension}`),
          );
        }
      }
    }
    console.log(`\nLighthouse ${LIGHTHOUSE_VERSION} on Node ${NODE_VERSION}, median of ${RUNS}:\n`);
    printTable(
      [
        'Page',
        'Performance',
        'Accessibility',
        'CLS',
        'LCP',
        'TBT',
        'TBT median (runs)',
        'Benchmark index',
        'Index over runs',
      ],
      lines,
      1,
    );
    if (failing.length > 0) console.log(`\nFailing audits:\n${failing.join('\n')}`);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(reportsDir, { recursive: true, force: true });
    console.log(`\nLoad average (1, 5, 15 min) at the end: ${loadAverage()}`);
  }
  if (failed) {
    console.error(
      `A page scored under ${MIN_PERFORMANCE} (performance) or ${MIN_ACCESSIBILITY} ` +
        `(accessibility), blocked for over ${MAX_TBT_MS} ms (TBT), or shifted its layout.`,
    );
    process.exitCode = 1;
  }
}

await main();
