import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.1 A/AA and best practices) on the page and returns its serious and
 * critical findings, one line each with the offending markup; the tests want none.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Colours are judged as they settle: a toast fading in (200 ms) measured halfway through its
  // transition failed color-contrast on a busy machine. Endless animations would never settle.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // DevTools evaluation is not bound by the page's Content-Security-Policy.
  await page.evaluate(`${await axeSource};undefined`);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(options: object): Promise<AxeResults> } }).axe;
    const result = await axe.run({
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
    });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
      );
  });
}
