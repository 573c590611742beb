import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { ESLint, type Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

// The rule of eslint.config.js that keeps money rules in app/modules/pricing (issue 37), run as
// `npm run lint` runs it: the repository's own configuration, on snippets placed where it holds.
const ROOT = resolve(import.meta.dirname, '../..');
const config = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as {
  MONEY_ARITHMETIC: { selector: string; message: string }[];
  MONEY_EXCEPTIONS: string[];
};

const eslint = new ESLint({ cwd: ROOT });

/** The lines of `code` the money rule refuses, placed at `path`. */
async function refused(path: string, code: string): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
  const lines = result!.messages
    .filter((message) => message.ruleId === 'no-restricted-syntax')
    .map((message) => message.line);
  return [...new Set(lines)];
}

const RULES = `import type { Line } from './types';

export const total = (line: Line) => line.unitPriceCents * line.quantity;
export const price = (variantCents: number | null, productPriceCents: number) =>
  variantCents ?? productPriceCents;
export const charged = (order: { subtotalCents: number; shipping_cents: number }) =>
  order.subtotalCents + order.shipping_cents;
export function pix(cents: number, discount: number): number {
  return cents - discount;
}
export function add(sum: { totalCents: number }, more: number): void {
  sum.totalCents += more;
}
`;

describe('money arithmetic outside pricing', () => {
  it.each([
    'app/modules/orders/orders.server.ts',
    'app/modules/catalog/lookup.server.ts',
    'app/flows/place-order.server.ts',
    'app/routes/store/cart.tsx',
    'app/components/store/cart-line.tsx',
    'app/lib/seo.ts',
    'server/app.ts',
  ])('is refused in %s: ×, +, −, +=, and a price else another', async (path) => {
    expect(await refused(path, RULES)).toEqual([3, 5, 7, 9, 12]);
  });

  it('is at home in app/modules/pricing, and tests may check the sums', async () => {
    expect(await refused('app/modules/pricing/price-order.ts', RULES)).toEqual([]);
    expect(await refused('app/modules/orders/orders.test.ts', RULES)).toEqual([]);
  });

  it('lets through what is not a money rule: conversions to reais, comparisons, sorting', async () => {
    const code = `export const reais = (cents: number) => \`\${Math.floor(cents / 100)},\${cents % 100}\`;
export const reached = (subtotalCents: number, minimumCents: number) => subtotalCents >= minimumCents;
export const cheapest = (offers: { priceCents: number }[]) =>
  offers.sort((a, b) => a.priceCents - b.priceCents);
export const known = (order: { totalCents?: number }) => order.totalCents ?? 0;
export const units = (lines: { quantity: number }[]) => lines.reduce((sum, line) => sum + line.quantity, 0);
`;
    expect(await refused('app/modules/shipping/options.ts', code)).toEqual([]);
  });

  it('allows each exception only while its file still needs it', async () => {
    const strict = new ESLint({
      cwd: ROOT,
      overrideConfig: [
        {
          files: ['**/*.{ts,tsx}'],
          rules: { 'no-restricted-syntax': ['error', ...config.MONEY_ARITHMETIC] },
        } satisfies Linter.Config,
      ],
    });
    const files = config.MONEY_EXCEPTIONS.filter((path) => !path.includes('*'));
    expect(files.length).toBeGreaterThan(0);
    for (const path of files) {
      const [result] = await strict.lintText(readFileSync(join(ROOT, path), 'utf8'), {
        filePath: join(ROOT, path),
      });
      const found = result!.messages.filter((message) => message.ruleId === 'no-restricted-syntax');
      expect(found.length, `${path} no longer adds up money: drop its exception`).toBeGreaterThan(
        0,
      );
    }
  });
});
