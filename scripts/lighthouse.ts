// npm run lighthouse — Lighthouse's mobile audit (its default phone emulation and simulated
// throttling) of the home page, the catalogue and a product page of the sample store, served by
// the production build on a fresh embedded database. Prints a table and exits 1 when a page
// scores under 98 in performance or under 100 in accessibility, or shifts its layout at all.
// Slow (a browser and a full audit per run), so not part of CI.
//
// Lighthouse simulates a slow phone from what it saw on this machine, so a busy machine lowers
// the scores: each page is audited RUNS times (default 3) and the median run, by performance,
// is the one reported, as Lighthouse's own docs advise.
// VITRINE_BUILD_DIR: the build to serve (default build-bench, built first if missing or stale).
// CHROMIUM_PATH: the browser (default /usr/bin/chromium). REPORT_DIR: also writes each page's
// reported run there as HTML and as JSON.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import lighthouse, { generateReport, type Result } from 'lighthouse';

import { positiveInteger } from '../bench/options';
import { ensureBuilt, printTable, startServer } from '../bench/support';
import { SAMPLE_PRODUCTS } from '../app/flows/sample-store';
import { sampleProductPath } from '../tests/support/sample';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const REPORT_DIR = process.env.REPORT_DIR || undefined;
const RUNS = positiveInteger('RUNS', 3);

const MIN_PERFORMANCE = 98;
const MIN_ACCESSIBILITY = 100;

const PAGES: [name: string, path: string][] = [
  ['home', '/'],
  ['catalogue', '/products'],
  ['product', sampleProductPath(SAMPLE_PRODUCTS[0]!.name)],
];

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

/** The audits of a category that did not pass, by title ("informative" ones say nothing). */
function failingAudits(result: Result, category: string): string[] {
  return result.categories[category]!.auditRefs.flatMap(({ id }) => {
    const audit = result.audits[id]!;
    const scored =
      audit.score !== null && !['informative', 'manual'].includes(audit.scoreDisplayMode);
    return scored && audit.score! < 0.9 ? [audit.title] : [];
  });
}

/** One audit in a fresh browser; a run that failed to record the page is tried again. */
async function audit(url: string, attemptsLeft = 2): Promise<Result> {
  const browser = await launchChromium();
  let result: Result;
  try {
    const runner = await lighthouse(url, {
      port: browser.port,
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    if (!runner) throw new Error(`Lighthouse gave no result for ${url}`);
    result = runner.lhr;
  } finally {
    await browser.close();
  }
  if (!result.runtimeError) return result;
  // Lighthouse's own advice for a failed trace (NO_NAVSTART and the like): run it again.
  if (attemptsLeft > 0) return audit(url, attemptsLeft - 1);
  throw new Error(`${url}: ${result.runtimeError.message}`);
}

async function main(): Promise<void> {
  await ensureBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-lighthouse-data-'));
  const server = await startServer({ DATA_DIR: dataDir, SEED: 'true' });
  let failed = false;
  try {
    const lines: string[][] = [];
    const failing: string[] = [];
    for (const [name, path] of PAGES) {
      const url = `${server.url}${path}`;
      // The first request of a page pays for its code being read and compiled; shoppers' do not.
      const warmUp = await fetch(url);
      await warmUp.arrayBuffer();
      if (warmUp.status !== 200) throw new Error(`${url} answered ${warmUp.status}`);

      const runs: Result[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await audit(url));
      runs.sort((a, b) => a.categories.performance!.score! - b.categories.performance!.score!);
      const result = runs[Math.floor(RUNS / 2)]!;
      const score = (category: string) => Math.round(result.categories[category]!.score! * 100);
      const performance = score('performance');
      const accessibility = score('accessibility');
      const cls = result.audits['cumulative-layout-shift']!.numericValue!;
      const lcp = result.audits['largest-contentful-paint']!.numericValue!;
      const tbt = result.audits['total-blocking-time']!.numericValue!;
      if (performance < MIN_PERFORMANCE || accessibility < MIN_ACCESSIBILITY || cls > 0) {
        failed = true;
      }
      lines.push([
        `${name} (${path})`,
        String(performance),
        String(accessibility),
        cls.toFixed(3),
        `${Math.round(lcp)} ms`,
        `${Math.round(tbt)} ms`,
      ]);
      const titles = ['performance', 'accessibility'].flatMap((category) =>
        failingAudits(result, category),
      );
      if (titles.length > 0) failing.push(`${name}: ${titles.join('; ')}`);
      if (REPORT_DIR) {
        await mkdir(REPORT_DIR, { recursive: true });
        await writeFile(join(REPORT_DIR, `${name}.report.html`), generateReport(result, 'html'));
        await writeFile(join(REPORT_DIR, `${name}.report.json`), JSON.stringify(result));
      }
    }
    printTable(['Page', 'Performance', 'Accessibility', 'CLS', 'LCP', 'TBT'], lines, 1);
    if (failing.length > 0) console.log(`\nFailing audits:\n${failing.join('\n')}`);
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  if (failed) {
    console.error(
      `A page scored under ${MIN_PERFORMANCE} (performance) or ${MIN_ACCESSIBILITY} ` +
        '(accessibility), or shifted its layout.',
    );
    process.exitCode = 1;
  }
}

await main();
