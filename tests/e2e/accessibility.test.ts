import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, openPage, VIEWPORTS } from '../support/browser';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';

// Reviewed, so the page shows its rating and review list.
const HEADPHONES = sampleProduct('Fone de Ouvido');

const PAGES = {
  home: '/',
  catalogue: '/products?q=fone',
  product: `/product/${HEADPHONES.id}`,
  cart: '/cart',
  privacy: '/politicaprivacidade',
};

describe('accessibility (axe-core, serious and critical)', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const cases = Object.entries(PAGES).flatMap(([page, path]) =>
    Object.entries(VIEWPORTS).map(([viewport, size]) => [page, viewport, path, size] as const),
  );

  it.each(cases)('%s at %s width', async (_page, _viewport, path, size) => {
    const { page, problems } = await openPage(browser, server.url, size);
    // A cart with something in it: the list, the quantity controls and the summary get checked.
    await page.request.post(`${server.url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
    });
    await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
