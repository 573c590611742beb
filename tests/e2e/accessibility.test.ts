import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SAMPLE_PRODUCTS, SAMPLE_REVIEWS } from '~/flows/sample-store';

import { launchBrowser, openPage, VIEWPORTS } from '../support/browser';
import { startServer, type TestServer } from '../support/server';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

const reviewed = SAMPLE_PRODUCTS.find((product) =>
  SAMPLE_REVIEWS.some((review) => review.productId === product.id),
)!;

const PAGES = {
  home: '/',
  catalogue: '/products?q=fone',
  product: `/product/${reviewed.id}`,
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
      form: { intent: 'add', productId: reviewed.id, quantity: '1' },
    });
    await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    await page.evaluate(`${await axeSource};undefined`);
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run: (options: object) => Promise<{ violations: AxeViolation[] }> };
        }
      ).axe;
      const result = await axe.run({
        runOnly: {
          type: 'tag',
          values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
        },
      });
      return result.violations;
    });
    const serious = violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        rule: violation.id,
        help: violation.help,
        where: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
      }));
    expect(serious).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
