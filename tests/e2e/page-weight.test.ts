import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLE_PRODUCTS } from '~/flows/sample-store';

import { launchBrowser, openPage, VIEWPORTS } from '../support/browser';
import { sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';

let browser: Browser;
let server: TestServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

describe("a storefront page's first load", () => {
  it('waits for one stylesheet and preloads the font files its first screen uses', async () => {
    const { page, problems } = await openPage(browser, server.url, VIEWPORTS.mobile);
    const head = await page.evaluate(async () => {
      await document.fonts.ready;
      return {
        stylesheets: [...document.querySelectorAll('link[rel="stylesheet"]')].map(
          (link) => (link as HTMLLinkElement).href,
        ),
        preloads: [...document.querySelectorAll('link[rel="preload"][as="font"]')].map((link) => ({
          href: (link as HTMLLinkElement).href,
          type: link.getAttribute('type'),
          crossOrigin: link.getAttribute('crossorigin'),
        })),
        fetched: performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((url) => url.endsWith('.woff2')),
      };
    });
    expect(head.stylesheets).toEqual([expect.stringMatching(/\/assets\/app-[\w-]+\.css$/)]);
    // Roboto regular and bold for the text and buttons, Montserrat bold for the headings.
    expect(head.preloads.map((preload) => preload.href)).toEqual([
      expect.stringMatching(/\/assets\/roboto-latin-400-normal-[\w-]+\.woff2$/),
      expect.stringMatching(/\/assets\/roboto-latin-700-normal-[\w-]+\.woff2$/),
      expect.stringMatching(/\/assets\/montserrat-latin-700-normal-[\w-]+\.woff2$/),
    ]);
    for (const preload of head.preloads) {
      expect(preload).toMatchObject({ type: 'font/woff2', crossOrigin: 'anonymous' });
    }
    // Each file was fetched once (a preload the font could not use would mean a second
    // download), and the page drew with no other.
    expect(head.fetched.sort()).toEqual(head.preloads.map((preload) => preload.href).sort());
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('asks for its scripts once the page has loaded, then hydrates', async () => {
    const path = sampleProductPath(SAMPLE_PRODUCTS[0]!.name);
    const html = await (await fetch(`${server.url}${path}`)).text();
    // Nothing in the HTML starts a script download: no module preload, no static import.
    expect(html).not.toMatch(/<link[^>]*modulepreload/);
    const modules = html.match(/<script[^>]* type="module"[^>]*>[^<]*<\/script>/g) ?? [];
    expect(modules).toHaveLength(1);
    expect(modules[0]).not.toMatch(/\bimport\s*(\*|\{|")/);
    expect(modules[0]).toMatch(/^<script nonce="[^"]+"/);

    const { page, problems } = await openPage(browser, `${server.url}${path}`, VIEWPORTS.mobile);
    const timing = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType(
        'navigation',
      ) as PerformanceNavigationTiming[];
      return {
        loaded: navigation!.loadEventEnd,
        scripts: performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
          .map((entry) => entry.startTime),
      };
    });
    expect(timing.scripts.length).toBeGreaterThan(3);
    for (const start of timing.scripts) expect(start).toBeGreaterThanOrEqual(timing.loaded);
    // The quantity buttons only work once React has taken over the page.
    await page.getByRole('button', { name: 'Aumentar quantidade' }).click();
    expect(await page.getByLabel('Quantidade', { exact: true }).inputValue()).toBe('2');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('asks for the first row of product pictures first and leaves the rest for later', async () => {
    const { page } = await openPage(browser, `${server.url}/products`, VIEWPORTS.mobile);
    const pictures = await page
      .getByTestId('catalog-results')
      .locator('img')
      .evaluateAll((images) =>
        images.map((image) => [image.getAttribute('loading'), image.getAttribute('fetchpriority')]),
      );
    expect(pictures.length).toBeGreaterThan(2);
    expect(pictures.slice(0, 2)).toEqual([
      ['eager', 'high'],
      ['eager', 'high'],
    ]);
    for (const picture of pictures.slice(2)) expect(picture).toEqual(['lazy', null]);
    await page.context().close();
  });

  it('moves nothing when the fonts arrive after the page is drawn', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { layoutShifts: shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The font files are held back until the page has been drawn with the local fonts.
    const held: Route[] = [];
    await page.route('**/*.woff2', (route) => void held.push(route));
    // Not 'load': that waits for the preloaded fonts.
    await page.goto(`${server.url}/products`, { waitUntil: 'domcontentloaded' });
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(held.length).toBeGreaterThan(0);
    await Promise.all(held.map((route) => route.continue()));
    const after = await page.evaluate(async () => {
      await document.fonts.ready;
      // Two frames: layout shifts are reported after the frame that drew them.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return {
        loaded: [...document.fonts]
          .filter((font) => font.status === 'loaded')
          .map((font) => `${font.family.replaceAll('"', '')} ${font.weight}`),
        shift: (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce(
          (sum, value) => sum + value,
          0,
        ),
      };
    });
    expect(after.loaded).toEqual(
      expect.arrayContaining(['Roboto 400', 'Roboto 700', 'Montserrat 700']),
    );
    // The local fonts take the web fonts' room: without their sizes this page shifts by 0.15.
    expect(after.shift).toBeLessThan(0.001);
    await context.close();
  });
});
