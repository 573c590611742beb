import { existsSync } from 'node:fs';

import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

/**
 * Debian's Chromium headless shell when it is installed, the full Chromium otherwise: the same
 * Blink and V8, without the browser's own layers, at about a third of the CPU for a new page and
 * half for a navigation (`npx tsx bench/browser-pages.ts`; ADR 039).
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ||
  (existsSync('/usr/bin/chromium-headless-shell')
    ? '/usr/bin/chromium-headless-shell'
    : '/usr/bin/chromium');

/**
 * How far scripts/clock-moved.sh moved the clock, in ms. Chromium does not run under libfaketime
 * (a page takes a minute of CPU), so it keeps the real clock and its pages get a Date moved by
 * the same offset as the servers and the test runner.
 */
const CLOCK_OFFSET_MS = Number(process.env.VITRINE_TEST_CLOCK_OFFSET_MS ?? 0);

// A string, not a function: the test runner's transpiler may wrap a function's text in helpers
// that do not exist in the page.
const moveDate = (offset: number) => `(() => {
  const Real = Date;
  function Moved(...args) {
    if (!new.target) return new Real(Real.now() + ${offset}).toString();
    return args.length === 0 ? new Real(Real.now() + ${offset}) : new Real(...args);
  }
  Moved.prototype = Real.prototype;
  Moved.now = () => Real.now() + ${offset};
  Moved.parse = Real.parse;
  Moved.UTC = Real.UTC;
  globalThis.Date = Moved;
})();`;

/**
 * Where the browser tests' one Chromium listens (tests/support/e2e-global-setup.ts): each file
 * connects to it instead of starting its own, which cost a second or two of CPU per file.
 */
export const BROWSER_SERVER_ENV = 'VITRINE_TEST_BROWSER_WS';

/** Debian's Chromium, headless; the flags keep it off the network this machine does not have. */
export const CHROMIUM_OPTIONS = {
  executablePath: CHROMIUM_PATH,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
  // libfaketime (scripts/clock-moved.sh) is not passed on: Chromium does not run under it.
  env: Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'LD_PRELOAD' && name !== 'FAKETIME'),
  ),
};

/**
 * Chromium for a test file: a connection to the run's shared browser when there is one (closing
 * it closes only its own pages), otherwise a browser of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[BROWSER_SERVER_ENV];
  const browser = shared ? await chromium.connect(shared) : await chromium.launch(CHROMIUM_OPTIONS);
  const newContext = browser.newContext.bind(browser);
  const fresh = async (options?: BrowserContextOptions) => {
    const context = await newContext(options);
    if (CLOCK_OFFSET_MS !== 0) await context.addInitScript(moveDate(CLOCK_OFFSET_MS));
    if (options?.javaScriptEnabled !== false) settleMeansHydrated(context);
    closeRequestsConnections(context);
    return context;
  };
  const pool = new ContextPool(browser, fresh);
  browser.newContext = async (options) => {
    const context = await (ContextPool.takes(options) ? pool.take(options) : fresh(options));
    if (testRunning) openedInTest.add(context);
    return context;
  };
  // Playwright's own ties the page to a context no one else may open pages in, which a pooled
  // context outlives; the context goes with the test's others (closeEachTestsPages).
  browser.newPage = async (options) => (await browser.newContext(options)).newPage();
  return browser;
}

/**
 * A test that waits for the network to be idle means the page has settled, but the storefront
 * starts its scripts after the load event, and on a loaded machine (CI runs three files at a time
 * on two cores) the network goes idle before React has taken over: a click then posts the form
 * natively, reloading the page instead of running the handler, and the test fails a step later
 * (a pixel's AddToCart that never fired, a sort that never navigated). So `goto`, `reload` and
 * `waitForLoadState` with `networkidle` also wait for hydration. Other waits are left alone: the interaction
 * test acts during hydration on purpose, after `load`.
 */
function settleMeansHydrated(context: BrowserContext): void {
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const page = await newPage();
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    const waitForLoadState = page.waitForLoadState.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil === 'networkidle') await waitForHydration(page);
      return response;
    };
    page.reload = async (options) => {
      const response = await reload(options);
      if (options?.waitUntil === 'networkidle') await waitForHydration(page);
      return response;
    };
    page.waitForLoadState = async (state, options) => {
      await waitForLoadState(state, options);
      if (state === 'networkidle') await waitForHydration(page);
    };
    return page;
  };
}

/**
 * `page.request` (the context's own HTTP client) keeps its connections alive with no timeout of
 * its own, and a context from the pool comes back to the next test with them: the server closes
 * one after 5 s idle (KEEP_ALIVE_TIMEOUT_MS), and a request written as it does fails with
 * ECONNRESET (an accessibility test's POST to /cart, in a run at load 9). So each of its
 * requests asks for its connection to be closed after the answer: none waits idle to be reused.
 */
function closeRequestsConnections(context: BrowserContext): void {
  const request = context.request;
  const fetch = request.fetch.bind(request);
  request.fetch = (urlOrRequest, options = {}) =>
    // A Request's own headers stand unless headers are given, so those are left alone.
    typeof urlOrRequest === 'string'
      ? fetch(urlOrRequest, { ...options, headers: { Connection: 'close', ...options.headers } })
      : fetch(urlOrRequest, options);
}

let testRunning = false;
const openedInTest = new Set<BrowserContext>();

/**
 * Closes, after each test, the browser contexts the test opened: a page left open goes on
 * running its timers and drawing (Playwright turns background throttling off) while later tests
 * run. Registered for every browser test file by the e2e project's setup file; contexts opened
 * in a beforeAll are the block's to close.
 */
export function closeEachTestsPages(hooks: {
  beforeEach: (fn: () => void) => void;
  afterEach: (fn: () => Promise<void>) => void;
}): void {
  hooks.beforeEach(() => {
    testRunning = true;
  });
  hooks.afterEach(async () => {
    testRunning = false;
    const contexts = [...openedInTest];
    openedInTest.clear();
    // Already closed by the test, or with its browser: nothing left to do.
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
  });
}

export const VIEWPORTS = {
  mobile: { width: 360, height: 740 },
  desktop: { width: 1280, height: 800 },
} as const;

/**
 * Contexts handed back by the tests, each with its one page, reset for the next test: a new page
 * starts a renderer process, and costs Chromium about twice the CPU of a page from here
 * (bench/browser-pages.ts); most browser tests open several. A context is kept for a request with
 * the same options, and only for the options below (POOLED_OPTIONS).
 */
class ContextPool {
  private readonly idle: Pooled[] = [];
  constructor(
    private readonly browser: Browser,
    private readonly fresh: (options?: BrowserContextOptions) => Promise<BrowserContext>,
  ) {}

  static takes(options: BrowserContextOptions = {}): boolean {
    return Object.entries(options).every(
      ([name, value]) =>
        POOLED_OPTIONS.has(name) &&
        (name !== 'viewport' || (value !== null && value !== undefined)),
    );
  }

  async take(options: BrowserContextOptions = {}): Promise<BrowserContext> {
    const key = JSON.stringify(Object.entries(options).sort(([a], [b]) => (a < b ? -1 : 1)));
    const at = this.idle.findIndex((entry) => entry.key === key);
    if (at >= 0) {
      const [entry] = this.idle.splice(at, 1);
      return entry!.context;
    }
    return this.track(await this.fresh(options), key, options.viewport ?? DEFAULT_VIEWPORT);
  }

  private track(context: BrowserContext, key: string, viewport: Viewport): BrowserContext {
    const entry: Pooled = { key, context, viewport, origins: new Set(), dirty: false };
    const markDirty = <T extends object>(target: T, methods: readonly string[]) => {
      const record = target as Record<string, unknown>;
      for (const name of methods) {
        const original = record[name] as (...args: unknown[]) => unknown;
        record[name] = (...args: unknown[]) => {
          entry.dirty = true;
          return original.apply(target, args);
        };
      }
    };
    // handBack's own DevTools session changes nothing it does not reset.
    entry.devtools = context.newCDPSession.bind(context);
    markDirty(context, CONTEXT_DIRTYING);
    markDirty(context.clock, CLOCK_METHODS);
    const newPage = context.newPage.bind(context);
    context.newPage = async () => {
      if (entry.pageTaken || (entry.page && entry.page.isClosed())) return newPage();
      entry.pageTaken = true;
      if (!entry.page) {
        entry.page = await newPage();
        markDirty(entry.page, PAGE_DIRTYING);
        markDirty(entry.page.clock, CLOCK_METHODS);
      }
      return entry.page;
    };
    // A test closes its context when done with it, and the afterEach closes what a test left
    // open: either hands it back instead.
    entry.close = context.close.bind(context);
    context.close = () => this.handBack(entry);
    this.trackOrigins(entry);
    return context;
  }

  private trackOrigins(entry: Pooled): void {
    entry.context.on('request', (request) => {
      const { origin } = new URL(request.url());
      if (origin.startsWith('http')) entry.origins.add(origin);
    });
  }

  /**
   * Takes a context back to what a new one would be: no pages but its own, no listeners, routes,
   * cookies, storage or HTTP cache, its viewport as asked. What it cannot undo (an init script, a
   * fake clock, permissions, a closed or crashed page) closes it instead.
   */
  private async handBack(entry: Pooled): Promise<void> {
    if (entry.handingBack || this.idle.includes(entry)) return;
    entry.handingBack = true;
    const { context, page } = entry;
    try {
      if (entry.dirty || page?.isClosed() || !this.browser.isConnected())
        return await entry.close!();
      // Playwright listens for 'close' itself; these are the test's.
      for (const event of CONTEXT_EVENTS) context.removeAllListeners(event);
      if (page) for (const event of PAGE_EVENTS) page.removeAllListeners(event);
      await Promise.all([
        ...context
          .pages()
          .filter((other) => other !== page)
          .map((other) => other.close()),
        context.unrouteAll({ behavior: 'ignoreErrors' }),
        page?.unrouteAll({ behavior: 'ignoreErrors' }),
      ]);
      // Stops the page's timers and requests before its cookies and storage go.
      if (page) await page.goto('about:blank');
      await context.clearCookies();
      if (page) {
        const size = page.viewportSize();
        if (size?.width !== entry.viewport.width || size.height !== entry.viewport.height)
          await page.setViewportSize(entry.viewport);
        const cdp = await entry.devtools!(page);
        await Promise.all([
          cdp.send('Network.clearBrowserCache'),
          ...[...entry.origins].map((origin) =>
            cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: CLEARED_STORAGE }),
          ),
        ]);
        await cdp.detach();
      }
      entry.origins.clear();
      this.trackOrigins(entry);
      entry.pageTaken = false;
      this.idle.push(entry);
    } catch {
      await entry.close!().catch(() => undefined);
    } finally {
      entry.handingBack = false;
    }
  }
}

export type Viewport = { width: number; height: number };

interface Pooled {
  key: string;
  context: BrowserContext;
  viewport: Viewport;
  /** Its one page, once asked for; others the test opens are closed when it is handed back. */
  page?: Page;
  pageTaken?: boolean;
  /** The origins its pages reached, whose storage goes when it is handed back. */
  origins: Set<string>;
  /** In a state a reset cannot take back: closed, not kept. */
  dirty: boolean;
  handingBack?: boolean;
  close?: () => Promise<void>;
  devtools?: BrowserContext['newCDPSession'];
}

// Options fixed for a context's life, so part of what it is kept for. A phone's (isMobile,
// hasTouch) are left out: the interaction test and its bench time first visits, which a renderer
// that already ran the store's scripts would shorten.
const POOLED_OPTIONS = new Set([
  'viewport',
  'locale',
  'colorScheme',
  'javaScriptEnabled',
  'extraHTTPHeaders',
]);
// Playwright's own, for a context asked without a viewport.
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };
const CLEARED_STORAGE = 'local_storage,indexeddb,cache_storage,service_workers,file_systems';
const PAGE_DIRTYING = [
  'addInitScript',
  'exposeFunction',
  'exposeBinding',
  'emulateMedia',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
  'setExtraHTTPHeaders',
] as const;
const CONTEXT_DIRTYING = [
  'addInitScript',
  // DevTools' emulations (CPU throttling, say) outlast the session.
  'newCDPSession',
  'exposeFunction',
  'exposeBinding',
  'grantPermissions',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setHTTPCredentials',
  'setOffline',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
] as const;
const CLOCK_METHODS = ['install', 'setFixedTime', 'setSystemTime', 'pauseAt'] as const;
const PAGE_EVENTS = [
  'console',
  'dialog',
  'domcontentloaded',
  'download',
  'filechooser',
  'frameattached',
  'framedetached',
  'framenavigated',
  'load',
  'pageerror',
  'popup',
  'request',
  'requestfailed',
  'requestfinished',
  'response',
  'websocket',
  'worker',
] as const;
const CONTEXT_EVENTS = [
  'console',
  'dialog',
  'page',
  'request',
  'requestfailed',
  'requestfinished',
  'response',
  'weberror',
] as const;

/** A page that records console errors and failed requests, so a test can insist there were none. */
export async function openPage(
  browser: Browser,
  url: string,
  viewport: Viewport = VIEWPORTS.desktop,
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, locale: 'pt-BR' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText;
    // A request the browser cancelled is no failure of the server: a reload or navigation
    // stops what the old page was still fetching (a font, an image), React Router stops reading a
    // data answer once it has what it needs, and cancels requests that a newer navigation makes
    // moot (for answers the browser may not cache, the admin's `no-store`, Chromium says aborted).
    if (error === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.url()} (${error})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await waitForHydration(page);
  return { page, problems };
}

/**
 * Waits until React has taken over a page of the app (root.tsx marks it): the storefront starts
 * its scripts after the load event, so on a busy machine the network can be idle before they
 * ran, and a click then races hydration. Pages without the app's scripts pass at once.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector('script[type="module"]') ||
      document.documentElement.hasAttribute('data-hydrated'),
  );
}
