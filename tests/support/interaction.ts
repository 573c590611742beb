// A shopper's first visit on a slow phone, in real Chromium: the page's CPU throttled through the
// DevTools protocol, what the page's main thread did (long tasks, hydration) and how long each
// interaction took by the Event Timing API, as INP counts it. Shared by the interaction test
// (tests/interaction) and the bench (bench/interaction.ts).
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { VIEWPORTS } from './browser';

/** Lighthouse's slow phone: 4× slower than this machine. */
export const CPU_THROTTLING = 4;

/**
 * The phone the interaction test holds to its budget, by Lighthouse's BenchmarkIndex: what 4×
 * throttling makes of this kind of machine when it is quiet (3,800 unthrottled, 950 at 4×:
 * `npm run bench:interaction` prints both), just under DevTools' calibrated mid-tier phone
 * (1,000, a Pixel 5). A busy machine is slower itself, and 4× on top of it is a slower phone.
 */
export const PHONE_BENCHMARK_INDEX = 950;

/** A phone: its viewport, touch, and the mobile meta viewport honoured. */
export const PHONE = {
  viewport: VIEWPORTS.mobile,
  hasTouch: true,
  isMobile: true,
  locale: 'pt-BR',
} as const;

/** INP's "good" ends at 200 ms: each interaction must stay under it. */
export const INTERACTION_BUDGET_MS = 200;

/** What the recorder (below) keeps on `window`, read back by `readRecord`. */
export interface PageRecord {
  /** Event Timing entries ('event' at 16 ms and over, and 'first-input'). */
  events: { name: string; interactionId: number; duration: number; startTime: number }[];
  longTasks: { startTime: number; duration: number }[];
  firstContentfulPaint: number | null;
  hydratingAt: number | null;
  hydratedAt: number | null;
  loadedAt: number | null;
  /** Input events the page received, counted before any of its own listeners ran. */
  inputs: Record<'pointerdown' | 'pointerup' | 'click' | 'keydown', number>;
  /** Whether React was still hydrating when the first pointerdown arrived (null: none arrived). */
  firstPointerWhileHydrating: boolean | null;
}

declare global {
  interface Window {
    __vitrineRecord?: PageRecord;
    __vitrineObservers?: PerformanceObserver[];
    __vitrineHydrating?: () => void;
    __vitrineTake?: (entry: PerformanceEntry) => void;
  }
}

/**
 * Runs in the page before any of its scripts: observers registered this early see every entry,
 * and the input counters run before the page's own listeners, so a test can tell "no slow
 * interaction" from "no interaction at all". A string, not a function: tsx (the benches) wraps
 * named functions in a helper of its own that the page does not have.
 */
const RECORDER = `(() => {
  if (window.top !== window) return;
  const record = {
    events: [],
    longTasks: [],
    firstContentfulPaint: null,
    hydratingAt: null,
    hydratedAt: null,
    loadedAt: null,
    inputs: { pointerdown: 0, pointerup: 0, click: 0, keydown: 0 },
    firstPointerWhileHydrating: null,
  };
  window.__vitrineRecord = record;
  window.__vitrineObservers = [];
  window.__vitrineTake = (entry) => {
    if (entry.entryType === 'longtask') {
      record.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
    } else if (entry.entryType === 'paint') {
      if (entry.name === 'first-contentful-paint') record.firstContentfulPaint = entry.startTime;
    } else {
      record.events.push({
        name: entry.name,
        interactionId: entry.interactionId || 0,
        duration: entry.duration,
        startTime: entry.startTime,
      });
    }
  };
  for (const options of [
    { type: 'event', durationThreshold: 16, buffered: true },
    { type: 'first-input', buffered: true },
    { type: 'longtask', buffered: true },
    { type: 'paint', buffered: true },
  ]) {
    try {
      const observer = new PerformanceObserver((list) =>
        list.getEntries().forEach(window.__vitrineTake),
      );
      observer.observe(options);
      window.__vitrineObservers.push(observer);
    } catch {
      // An entry type this browser does not know: its figures stay empty.
    }
  }
  for (const type of ['pointerdown', 'pointerup', 'click', 'keydown']) {
    addEventListener(
      type,
      () => {
        record.inputs[type] += 1;
        if (type === 'pointerdown' && record.firstPointerWhileHydrating === null) {
          record.firstPointerWhileHydrating = record.hydratedAt === null;
        }
      },
      { capture: true },
    );
  }
  addEventListener('load', () => (record.loadedAt = performance.now()), { once: true });
  // The <html> element does not exist yet: the whole document is watched, for two attributes.
  new MutationObserver(() => {
    const html = document.documentElement;
    if (record.hydratingAt === null && html.hasAttribute('data-hydrating')) {
      record.hydratingAt = performance.now();
      if (window.__vitrineHydrating) window.__vitrineHydrating();
    }
    if (record.hydratedAt === null && html.hasAttribute('data-hydrated')) {
      record.hydratedAt = performance.now();
    }
  }).observe(document, {
    subtree: true,
    attributes: true,
    attributeFilter: ['data-hydrating', 'data-hydrated'],
  });
})();`;

export interface ThrottledPage {
  context: BrowserContext;
  page: Page;
  /** Resolves the moment React starts to hydrate (app/entry.client.tsx marks <html>). */
  hydrating: Promise<void>;
}

/**
 * A page in a fresh context (a first visit: empty cache, no cookies) on a phone, its CPU slowed
 * `rate` times, with the recorder installed. Close its context when done.
 */
export async function openThrottledPage(
  browser: Browser,
  rate = CPU_THROTTLING,
): Promise<ThrottledPage> {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const session = await context.newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate });
  let started!: () => void;
  const hydrating = new Promise<void>((resolve) => (started = resolve));
  // A binding answers in the test at once, where polling the page for the mark would wait on
  // the very main thread that is busy hydrating.
  await page.exposeBinding('__vitrineHydrating', () => started());
  await page.addInitScript({ content: RECORDER });
  return { context, page, hydrating };
}

/**
 * Lighthouse's BenchmarkIndex, as its `computeBenchmarkIndex` and DevTools' CPU calibration run
 * it: building 10,000-character strings (garbage collection) for half the time, copying a
 * 100,000-number array for the other half, each as runs per second ÷ 10, averaged. A string for
 * the reason RECORDER is one.
 */
const BENCHMARK_INDEX = (durationMs: number) => `(() => {
  const half = ${durationMs} / 2;
  let started = Date.now();
  let runs = 0;
  while (Date.now() - started < half) {
    let text = '';
    for (let i = 0; i < 10000; i++) text += 'a';
    if (text.length === 1) throw new Error('never');
    runs++;
  }
  const strings = Math.round(runs / 10 / ((Date.now() - started) / 1000));
  const a = [];
  const b = [];
  for (let i = 0; i < 100000; i++) a[i] = b[i] = i;
  started = Date.now();
  runs = 0;
  // The clock is read every tenth run: reading it each time trips a cliff on some Intel CPUs.
  while (runs % 10 !== 0 || Date.now() - started < half) {
    const from = runs % 2 === 0 ? a : b;
    const to = runs % 2 === 0 ? b : a;
    for (let i = 0; i < from.length; i++) to[i] = from[i];
    runs++;
  }
  const copies = Math.round(runs / 10 / ((Date.now() - started) / 1000));
  return (strings + copies) / 2;
})()`;

const BENCHMARK_MS = 1000;

/** The BenchmarkIndex of `page` at its present throttling. */
export function benchmarkIndex(page: Page, durationMs = BENCHMARK_MS): Promise<number> {
  return page.evaluate<number>(BENCHMARK_INDEX(durationMs));
}

export interface Calibration {
  /** The throttling rate that makes this machine, as busy as it is now, the phone. */
  rate: number;
  /** This machine's BenchmarkIndex unthrottled, and at `rate`. */
  hostIndex: number;
  index: number;
}

/** Within this share of the phone's index, a rate is close enough. */
const CALIBRATION_TOLERANCE = 0.05;
const CALIBRATION_STEPS = 4;

/**
 * DevTools' CPU calibration, for one phone: the index unthrottled, then the rate it suggests,
 * corrected a step or two by what that rate gave (the index is not quite proportional to it).
 * A machine slower than the phone is measured unthrottled, and the figures say so.
 */
export async function calibrateThrottling(
  browser: Browser,
  target = PHONE_BENCHMARK_INDEX,
): Promise<Calibration> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await page.setContent('<!doctype html><title>calibration</title>');
    // Once to let V8 compile the loops.
    await benchmarkIndex(page, BENCHMARK_MS / 2);
    const hostIndex = await benchmarkIndex(page);
    let rate = 1;
    let index = hostIndex;
    for (let step = 0; step < CALIBRATION_STEPS; step++) {
      const next = Math.max(1, Number(((rate * index) / target).toFixed(2)));
      if (next === rate || Math.abs(index - target) <= target * CALIBRATION_TOLERANCE) break;
      rate = next;
      await session.send('Emulation.setCPUThrottlingRate', { rate });
      index = await benchmarkIndex(page);
    }
    return { rate, hostIndex, index };
  } finally {
    await context.close();
  }
}

/**
 * The recorder's figures, once the entries the browser still holds are in: Event Timing
 * entries are queued only after the frame that followed the event has been presented.
 */
export async function readRecord(page: Page): Promise<PageRecord> {
  return page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const observer of window.__vitrineObservers ?? []) {
      observer.takeRecords().forEach(window.__vitrineTake!);
    }
    return window.__vitrineRecord!;
  });
}

/**
 * Each interaction's duration as INP counts it: the longest of the events that share its
 * interactionId. Event Timing reports nothing under 16 ms (and rounds to 8 ms), so an input with
 * no entry at all is not here: it took under 16 ms.
 */
export function interactionDurations(record: PageRecord): number[] {
  const longest = new Map<number, number>();
  for (const event of record.events) {
    if (!event.interactionId) continue;
    longest.set(
      event.interactionId,
      Math.max(longest.get(event.interactionId) ?? 0, event.duration),
    );
  }
  return [...longest.values()];
}

/** Waits until the page says React has hydrated it. */
export async function waitForHydrated(page: Page, timeout = 60_000): Promise<void> {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout });
}

async function center(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not on the page`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * A tap at a point, as the phone's touchscreen sends it: no actionability checks, which would
 * run in the page and so wait for the busy main thread the tap means to land on.
 */
async function tap(page: Page, point: { x: number; y: number }): Promise<void> {
  await page.touchscreen.tap(point.x, point.y);
}

export interface Interaction {
  name: string;
  path: string;
  /**
   * Runs on the loaded page, before hydration starts (the scripts wait for the load event):
   * finds where to tap, while the page's layout is final and the main thread is free.
   */
  aim(page: Page): Promise<{ x: number; y: number }>;
  /** The shopper's gesture, started at the run's moment. */
  act(page: Page, point: { x: number; y: number }): Promise<void>;
  /** Throws unless the interaction did what the shopper asked, once hydration is over. */
  check(page: Page): Promise<void>;
  /** Input events the gesture must have sent, at the least. */
  inputs: Partial<PageRecord['inputs']>;
}

const EFFECT_TIMEOUT_MS = 15_000;
const ADD_BUTTON = '[data-testid="product-card"] [data-testid="card-add"]';
const SEARCH_TOGGLE = '[data-testid="phone-search-toggle"]';
const SEARCH_FIELD = '#phone-search';
export const SEARCH_WORD = 'fone';

export const ADD_TO_CART: Interaction = {
  name: "tap 'Adicionar' on a card of the home page",
  path: '/',
  async aim(page) {
    // The first card's button is below the fold of a phone: the shopper has scrolled to it.
    await page
      .locator(ADD_BUTTON)
      .first()
      .evaluate((button) => button.scrollIntoView({ block: 'center' }));
    return center(page, ADD_BUTTON);
  },
  act: tap,
  async check(page) {
    const product = await page.locator('[data-testid="product-card"] h3').first().innerText();
    // Side by side: the toast closes by itself after 6 s, which a busy machine can spend on one.
    await Promise.all([
      page.getByTestId('cart-count').filter({ hasText: /^1$/ }).waitFor({
        timeout: EFFECT_TIMEOUT_MS,
      }),
      page
        .getByTestId('cart-toast-message')
        .filter({ hasText: product })
        .waitFor({ timeout: EFFECT_TIMEOUT_MS }),
    ]);
  },
  inputs: { pointerdown: 1, click: 1 },
};

export const FILTER_SHEET: Interaction = {
  name: "open the catalogue's filter sheet",
  path: '/products',
  aim: (page) => center(page, '[data-testid="catalog-filters-button"]'),
  act: tap,
  async check(page) {
    await page
      .getByRole('dialog', { name: 'Filtrar e ordenar' })
      .waitFor({ timeout: EFFECT_TIMEOUT_MS });
    const open = await page
      .locator('#catalog-filters')
      .evaluate((panel) => panel.matches(':popover-open'));
    if (!open) throw new Error('The filter sheet is not open');
  },
  inputs: { pointerdown: 1, click: 1 },
};

export const HEADER_SEARCH: Interaction = {
  name: `open the header search and type '${SEARCH_WORD}'`,
  path: '/',
  aim: (page) => center(page, SEARCH_TOGGLE),
  async act(page, point) {
    await tap(page, point);
    const field = page.locator(SEARCH_FIELD);
    await field.waitFor({ state: 'visible', timeout: EFFECT_TIMEOUT_MS });
    // Opening puts the cursor in the field once React handles the toggle; before that the
    // shopper taps the field.
    const focused = await field.evaluate((input) => input === document.activeElement);
    if (!focused) await tap(page, await center(page, SEARCH_FIELD));
    // A quick thumb: 50 ms between keys.
    await page.keyboard.type(SEARCH_WORD, { delay: 50 });
  },
  async check(page) {
    const field = page.locator(SEARCH_FIELD);
    // Hydration must not have closed the field the shopper opened (an old bug did).
    await waitForHydrated(page, EFFECT_TIMEOUT_MS);
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    if (!(await field.isVisible())) throw new Error('The header search closed');
    const value = await field.inputValue();
    if (value !== SEARCH_WORD) throw new Error(`The search field holds '${value}'`);
  },
  inputs: { pointerdown: 1, keydown: SEARCH_WORD.length },
};

export const INTERACTIONS = [ADD_TO_CART, FILTER_SHEET, HEADER_SEARCH] as const;

export interface InteractionRun {
  /** The slowest of the gesture's interactions; 0 when none reached 16 ms. */
  duration: number;
  /** Every interaction's duration at 16 ms and over. */
  durations: number[];
  inputs: PageRecord['inputs'];
  firstPointerWhileHydrating: boolean | null;
  /** When hydration started and ended, in ms from navigation start. */
  hydratingAt: number | null;
  hydratedAt: number | null;
}

/**
 * When the gesture is sent: the moment React starts to hydrate (the worst: the tap waits for the
 * page's frame and the slices on its way to hydrate at once), or the moment the page says it is
 * hydrated (the page's scripts are in, after the load event).
 */
export type Moment = 'hydrating' | 'hydrated';

/**
 * One first visit of `interaction.path`: aims once the page has loaded, acts at `moment`, then
 * checks the effect (throws if there is none or the inputs never reached the page) and reads
 * the durations.
 */
export async function runInteraction(
  browser: Browser,
  baseUrl: string,
  interaction: Interaction,
  moment: Moment,
  rate = CPU_THROTTLING,
): Promise<InteractionRun> {
  const { context, page, hydrating } = await openThrottledPage(browser, rate);
  try {
    await page.goto(new URL(interaction.path, baseUrl).href, { waitUntil: 'load' });
    const point = await interaction.aim(page);
    if (moment === 'hydrating') await hydrating;
    else await waitForHydrated(page);
    await interaction.act(page, point);
    await interaction.check(page);
    await waitForHydrated(page);
    const record = await readRecord(page);
    const missing = Object.entries(interaction.inputs).filter(
      ([type, count]) => record.inputs[type as keyof PageRecord['inputs']] < count,
    );
    if (missing.length > 0) {
      throw new Error(
        `The page did not receive the gesture's inputs: ${JSON.stringify(record.inputs)}`,
      );
    }
    const durations = interactionDurations(record);
    return {
      duration: Math.max(0, ...durations),
      durations,
      inputs: record.inputs,
      firstPointerWhileHydrating: record.firstPointerWhileHydrating,
      hydratingAt: record.hydratingAt,
      hydratedAt: record.hydratedAt,
    };
  } finally {
    await context.close();
  }
}

/** The middle value (the lower middle of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}
