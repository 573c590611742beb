import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

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
  // Browser.newPage goes through newContext too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    if (testRunning) openedInTest.add(context);
    if (CLOCK_OFFSET_MS !== 0) await context.addInitScript(moveDate(CLOCK_OFFSET_MS));
    return context;
  };
  return browser;
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

/** A page that records console errors and failed requests, so a test can insist there were none. */
export async function openPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
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
