// npx tsx bench/hydration-profile.ts — what a storefront page's main thread runs on a first visit
// of a slow phone: Chromium on a phone's viewport, its CPU slowed RATE times (default 4) through
// the DevTools protocol, a fresh context, the production server on a fresh sample store; a
// performance trace (with V8's sampling profiler) from navigation until 2 s after the page says it
// is hydrated. Prints the page's tasks of 50 ms and more with what each spent its time on (React
// DOM, React Router, our files, compiling, style and layout), then, over the whole load, the
// functions of ours that took most time, by their names in the sources.
//
// Our functions are named through the build's source maps: build with them first,
// `VITRINE_SOURCEMAP=hidden VITRINE_BUILD_DIR=build-profile npm run build` (the same code, with
// .map files beside it that no page links to); without maps the names are the minified ones.
//
// Environment: PAGE (home, catalogue, product, cart, checkout; default product), RUNS (default 3:
// the run with the median total blocking time is printed), RATE, VITRINE_BUILD_DIR (default
// build-bench), TRACE (a file to write the printed run's trace to, for DevTools' Performance panel).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { basename, join } from 'node:path';

import type { Browser } from 'playwright-core';

import { SAMPLE_PRODUCTS } from '~/flows/sample-store';

import { launchBrowser } from '../tests/support/browser';
import { CPU_THROTTLING, openThrottledPage } from '../tests/support/interaction';
import { sampleProductPath } from '../tests/support/sample';

import { positiveInteger } from './options';
import { BUILD_DIR, loadAverage, printTable, ROOT, startServer } from './support';

const RUNS = positiveInteger('RUNS', 3);
const RATE = Number(process.env.RATE ?? CPU_THROTTLING);
const PRODUCT = SAMPLE_PRODUCTS[0]!;
const PAGES: Record<string, { path: string; cart: boolean }> = {
  home: { path: '/', cart: false },
  catalogue: { path: '/products', cart: false },
  product: { path: sampleProductPath(PRODUCT.name), cart: false },
  cart: { path: '/cart', cart: true },
  checkout: { path: '/checkout', cart: true },
};
const PAGE = process.env.PAGE ?? 'product';
const TARGET = PAGES[PAGE];
if (!TARGET) throw new Error(`PAGE must be one of ${Object.keys(PAGES).join(', ')}`);

/**
 * A task blocks input past 50 ms on the phone: at RATE 4 it is that phone, and a lower RATE (1:
 * the machine as it is) counts each task 4 / RATE times as long, as Lighthouse's simulated
 * throttling does with the trace it takes unthrottled.
 */
const SCALE = CPU_THROTTLING / RATE;
const LONG_TASK_MS = 50;
const AFTER_HYDRATION_MS = 2_000;
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'v8',
  'toplevel',
  'blink.user_timing',
];
/** The framework's files (vite.config.ts names a library's chunk after it). */
const FRAMEWORK_FILE = /\/assets\/(react|react-dom|react-router)-[\w-]{8}\.js$/;

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  parent?: number;
}

/** A sample: when, for how long (until the next one), and the node that was running. */
interface Sample {
  ts: number;
  weight: number;
  node: number;
}

// ---------------------------------------------------------------------------------------------
// Source maps: the original function a minified position falls in.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Per generated line, its segments: [column, source, line, column, name?], fields absolute. */
function decodeMappings(mappings: string): number[][][] {
  const lines: number[][][] = [];
  const state = [0, 0, 0, 0, 0];
  for (const line of mappings.split(';')) {
    const segments: number[][] = [];
    state[0] = 0;
    for (const text of line.split(',')) {
      if (!text) continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of text) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
        } else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      const segment = fields.map((field, index) => (state[index] = state[index]! + field));
      segments.push(segment);
    }
    lines.push(segments);
  }
  return lines;
}

interface SourceMap {
  sources: string[];
  names: string[];
  lines: number[][][];
  /** Each original file's lines, to read a function's name where the map has none. */
  contents: (string[] | undefined)[];
}

const maps = new Map<string, SourceMap | null>();

function sourceMap(file: string): SourceMap | null {
  if (!maps.has(file)) {
    const path = join(ROOT, BUILD_DIR, 'client', 'assets', `${file}.map`);
    let map: SourceMap | null = null;
    if (existsSync(path)) {
      const raw = JSON.parse(readFileSync(path, 'utf8')) as {
        sources: string[];
        names: string[];
        mappings: string;
        sourcesContent?: (string | null)[];
      };
      map = {
        sources: raw.sources.map((source) => source.replace(/^(\.\.\/)+/, '')),
        names: raw.names,
        lines: decodeMappings(raw.mappings),
        contents: (raw.sourcesContent ?? []).map((content) => content?.split('\n')),
      };
    }
    maps.set(file, map);
  }
  return maps.get(file)!;
}

const DECLARED = /(?:function\s*\*?\s*([\w$]+)|(?:const|let|var)\s+([\w$]+)\s*=|([\w$]+)\s*\()/;

/** "app/components/store/product-gallery.tsx:13 ProductGallery", or the minified name. */
function originalName(frame: CallFrame): string {
  const file = basename(new URL(frame.url).pathname);
  const fallback = `${frame.functionName || '(anonymous)'} (${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1})`;
  const map = sourceMap(file);
  const segments = map?.lines[frame.lineNumber];
  if (!map || !segments) return fallback;
  let found: number[] | undefined;
  for (const segment of segments) {
    if (segment[0]! > frame.columnNumber) break;
    if (segment.length >= 4) found = segment;
  }
  if (!found) return fallback;
  const source = map.sources[found[1]!]!;
  const line = found[2]!;
  const text = map.contents[found[1]!]?.[line];
  const declared = text ? DECLARED.exec(text.slice(found[3]!)) : null;
  const name =
    (found.length >= 5 ? map.names[found[4]!] : undefined) ??
    declared?.slice(1).find(Boolean) ??
    frame.functionName;
  return `${name || '(anonymous)'} (${source.replace(/^.*node_modules\//, '')}:${line + 1})`;
}

// ---------------------------------------------------------------------------------------------
// The trace

/** A script file as the tables name it: React's, React DOM's, React Router's, or ours. */
function fileGroup(url: string): string {
  const framework = FRAMEWORK_FILE.exec(url)?.[1];
  if (framework) return framework === 'react' ? 'React' : framework.replace('react-', 'React ');
  if (url.includes('/assets/')) return basename(new URL(url).pathname);
  return 'inline and other scripts';
}

interface Task {
  /** After navigation start, ms. */
  start: number;
  duration: number;
  /** The trace's events inside it by their own time (ParseHTML, Layout, FunctionCall, …). */
  events: [string, number][];
  /** Its script time by file (React DOM, React Router, ours by file). */
  scripts: [string, number][];
  ours: [string, number][];
}

interface Analysis {
  tasks: Task[];
  /** Total blocking time after first contentful paint, as Lighthouse counts it. */
  blocking: number;
  paint: number | null;
  load: number | null;
  /** Over the whole load: our functions, and the script time by file. */
  ours: [string, number][];
  scripts: [string, number][];
}

const ms = (microseconds: number) => microseconds / 1000;
const top = (tally: Map<string, number>, count: number) =>
  [...tally.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, time]): [string, number] => [name, ms(time)]);
const add = (tally: Map<string, number>, key: string, value: number) =>
  tally.set(key, (tally.get(key) ?? 0) + value);

/** Each event's own time: its duration less that of the events nested in it. */
function ownTimes(events: TraceEvent[]): Map<string, number> {
  const sorted = [...events].sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const own = new Map<TraceEvent, number>();
  const stack: TraceEvent[] = [];
  for (const event of sorted) {
    while (stack.length > 0 && stack.at(-1)!.ts + stack.at(-1)!.dur! <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) own.set(parent, own.get(parent)! - event.dur!);
    own.set(event, event.dur!);
    stack.push(event);
  }
  const byName = new Map<string, number>();
  for (const [event, time] of own) add(byName, event.name, time);
  return byName;
}

function analyse(events: TraceEvent[], url: string): Analysis {
  // The renderer's main thread: the one that parsed the page, and the page's frame.
  const parse = events.find(
    (event) => event.name === 'ParseHTML' && event.args.beginData?.url?.startsWith(url),
  );
  if (!parse) throw new Error('No ParseHTML of the page in the trace');
  const frame = parse.args.beginData.frame as string;
  const onMain = (event: TraceEvent) => event.pid === parse.pid && event.tid === parse.tid;
  const mark = (name: string, after: number) =>
    events.find(
      (event) =>
        onMain(event) && event.name === name && event.args.frame === frame && event.ts >= after,
    );
  const origin =
    events
      .filter(
        (event) =>
          onMain(event) &&
          event.name === 'navigationStart' &&
          event.args.frame === frame &&
          event.ts <= parse.ts,
      )
      .at(-1)?.ts ?? parse.ts;
  const paint = mark('firstContentfulPaint', origin);
  const load = mark('loadEventEnd', origin);

  // The sampling profiler's chunks for that thread, in order.
  const nodes = new Map<number, ProfileNode>();
  const samples: Sample[] = [];
  const profile = events.find((event) => event.name === 'Profile' && event.pid === parse.pid);
  if (profile) {
    let time = profile.args.data.startTime as number;
    const chunks = events
      .filter((event) => event.name === 'ProfileChunk' && event.id === profile.id)
      .sort((a, b) => a.ts - b.ts);
    for (const chunk of chunks) {
      const data = chunk.args.data;
      for (const node of (data.cpuProfile?.nodes ?? []) as ProfileNode[]) {
        // The trace leaves out a frame's empty fields.
        node.callFrame = {
          functionName: '',
          url: '',
          lineNumber: 0,
          columnNumber: 0,
          ...(node.callFrame as Partial<CallFrame>),
        };
        nodes.set(node.id, node);
      }
      const ids = (data.cpuProfile?.samples ?? []) as number[];
      const deltas = (data.timeDeltas ?? []) as number[];
      ids.forEach((id, index) => {
        time += deltas[index] ?? 0;
        samples.push({ ts: time, weight: 0, node: id });
      });
    }
    samples.forEach((sample, index) => {
      sample.weight = (samples[index + 1]?.ts ?? sample.ts) - sample.ts;
    });
  }

  // Script time goes to the file running; ours, by original name, to the innermost of our
  // functions on the stack, so time React spends rendering a component is the component's.
  const scriptOf = (sample: Sample) => {
    const frame = nodes.get(sample.node)?.callFrame;
    return frame?.url ? fileGroup(frame.url) : undefined;
  };
  const ownFrame = (sample: Sample): CallFrame | undefined => {
    for (let node = nodes.get(sample.node); node; node = nodes.get(node.parent ?? -1)) {
      const frame = node.callFrame;
      if (frame.url.includes('/assets/') && !FRAMEWORK_FILE.test(frame.url)) return frame;
    }
    return undefined;
  };
  const tally = (from: number, until: number) => {
    const scripts = new Map<string, number>();
    const ours = new Map<string, number>();
    for (const sample of samples) {
      if (sample.ts < from || sample.ts >= until) continue;
      const script = scriptOf(sample);
      if (script) add(scripts, script, sample.weight);
      const own = ownFrame(sample);
      if (own) add(ours, originalName(own), sample.weight);
    }
    return { scripts, ours };
  };

  const onMainTimed = events.filter((event) => onMain(event) && event.ph === 'X' && event.dur);
  const tasks = onMainTimed
    .filter(
      (event) =>
        event.name === 'RunTask' && ms(event.dur!) * SCALE >= LONG_TASK_MS && event.ts >= origin,
    )
    .sort((a, b) => a.ts - b.ts);
  const blockingFrom = paint?.ts ?? origin;
  let blocking = 0;
  const report = tasks.map((task): Task => {
    const end = task.ts + task.dur!;
    blocking += Math.max(0, ms(end - Math.max(task.ts, blockingFrom)) * SCALE - LONG_TASK_MS);
    const inside = onMainTimed.filter(
      (event) => event !== task && event.ts >= task.ts && event.ts + event.dur! <= end,
    );
    const { scripts, ours } = tally(task.ts, end);
    return {
      start: ms(task.ts - origin),
      duration: ms(task.dur!),
      events: top(ownTimes(inside), 5),
      scripts: top(scripts, 4),
      ours: top(ours, 8),
    };
  });
  const whole = tally(origin, Number.POSITIVE_INFINITY);
  return {
    tasks: report,
    blocking,
    paint: paint ? ms(paint.ts - origin) : null,
    load: load ? ms(load.ts - origin) : null,
    ours: top(whole.ours, 25),
    scripts: top(whole.scripts, 10),
  };
}

async function profileOnce(browser: Browser, baseUrl: string) {
  const { context, page } = await openThrottledPage(browser, RATE);
  try {
    if (TARGET!.cart) {
      const added = await context.request.post(`${baseUrl}/cart`, {
        form: { intent: 'add', productId: PRODUCT.id, quantity: '1' },
      });
      if (!added.ok()) throw new Error(`Adding to the cart answered ${added.status()}`);
    }
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    const url = `${baseUrl}${TARGET!.path}`;
    await page.goto(url);
    // Asked now and then rather than by a locator, whose polling would run in the page's tasks.
    const deadline = Date.now() + 60_000;
    while (!(await page.evaluate(() => (window.__vitrineRecord?.hydratedAt ?? null) !== null))) {
      if (Date.now() > deadline) throw new Error(`${url} did not hydrate within 60 s`);
      await sleep(250);
    }
    await sleep(AFTER_HYDRATION_MS);
    const record = await page.evaluate(() => window.__vitrineRecord!);
    const trace = await browser.stopTracing();
    const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    return { analysis: analyse(events, url), record, trace };
  } finally {
    await context.close();
  }
}

const round = (value: number | null | undefined) =>
  value === null || value === undefined ? '?' : `${Math.round(value)} ms`;
const timed = (entries: [string, number][]) =>
  entries
    .filter(([, time]) => time >= 1)
    .map(([name, time]) => `${name} ${round(time)}`)
    .join('; ') || '—';

async function main() {
  console.log(`Load average (1, 5, 15 min) at the start: ${loadAverage()}`);
  const assets = join(ROOT, BUILD_DIR, 'client', 'assets');
  if (!existsSync(assets) || !readdirSync(assets).some((name) => name.endsWith('.js.map'))) {
    console.log(`No source maps in ${BUILD_DIR}: our functions keep their minified names.`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-hydration-profile-'));
  const server = await startServer({ DATA_DIR: dataDir, SEED: 'true' });
  const browser = await launchBrowser();
  try {
    // The first request of a page pays for its code being read and compiled on the server.
    await (await fetch(`${server.url}${TARGET!.path}`)).text();
    const runs = [];
    for (let run = 0; run < RUNS; run++) runs.push(await profileOnce(browser, server.url));
    runs.sort((a, b) => a.analysis.blocking - b.analysis.blocking);
    const { analysis, record, trace } = runs[Math.floor(runs.length / 2)]!;
    if (process.env.TRACE) await writeFile(process.env.TRACE, trace);

    console.log(
      `\n${PAGE} (${TARGET!.path}), CPU ${RATE}× slower; the run with the median blocking time ` +
        `after first contentful paint of ${RUNS} (${runs.map((each) => round(each.analysis.blocking)).join(', ')}). ` +
        `After navigation start: first contentful paint ${round(analysis.paint)}, load ` +
        `${round(analysis.load)}, hydration ${round(record.hydratingAt)}–${round(record.hydratedAt)}.\n`,
    );
    console.log(
      `Tasks of ${LONG_TASK_MS / SCALE} ms and more on the main thread` +
        (SCALE === 1
          ? ':\n'
          : ` (${LONG_TASK_MS} ms and more at ${CPU_THROTTLING}×; blocking time counted so):\n`),
    );
    printTable(
      ['Starts', 'Takes', 'What ran (own time)', 'Scripts', 'Our functions (with what they call)'],
      analysis.tasks.map((task) => [
        round(task.start),
        round(task.duration),
        timed(task.events),
        timed(task.scripts),
        timed(task.ours),
      ]),
      2,
    );
    console.log('\nScript time over the whole load, by file:\n');
    printTable(
      ['File', 'Time'],
      analysis.scripts.map(([name, time]) => [name, round(time)]),
      1,
    );
    console.log('\nOur functions over the whole load (with what they call):\n');
    printTable(
      ['Function', 'Time'],
      analysis.ours.map(([name, time]) => [name, `${time.toFixed(1)} ms`]),
      1,
    );
  } finally {
    await browser.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    console.log(`\nLoad average (1, 5, 15 min) at the end: ${loadAverage()}`);
  }
}

await main();
