import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ourImports } from './our-imports';

// Thin routes (issue 37): a route parses, calls and renders. One that needs more than three of
// our modules and flows is doing a flow's work itself, so the work that spans domains belongs in
// a flow (app/flows), and the route calls it.
const ROOT = resolve(import.meta.dirname, '../..');
const ROUTES = 'app/routes';
const MOST = 3;

/** Every route file, from the repository's root (generated types and tests are not routes). */
function routeFiles(folder = join(ROOT, ROUTES)): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('+') ? [] : routeFiles(path);
    return /\.[jt]sx?$/.test(entry.name) && !/\.test\.[jt]sx?$/.test(entry.name)
      ? [relative(ROOT, path).split('\\').join('/')]
      : [];
  });
}

/** Each file of `files` over the limit, with what it imports. */
function overTheLimit(files: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(files)
      .map(([path, source]) => [path, ourImports(path, source)] as const)
      .filter(([, imports]) => imports.length > MOST),
  );
}

const routes = Object.fromEntries(
  routeFiles().map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]),
);

describe('thin routes', () => {
  it(`import at most ${MOST} of our modules and flows each`, () => {
    expect(Object.keys(routes).length).toBeGreaterThan(40);
    expect(
      overTheLimit(routes),
      'move the work that spans these domains into a flow (app/flows)',
    ).toEqual({});
  });

  it('counts a module once whichever door it comes through, and each flow file apart', () => {
    const source = `import { a } from '~/modules/coupons';
import type { B } from '~/modules/coupons/index.server';
import { c } from '../../modules/coupons/index.admin';
import { d } from '~/flows/place-order.server';
import { e } from '~/flows/place-order.server.ts';
import { f } from '~/flows/order-link.server';
import { g } from '~/lib/money';
import { h } from '~/components/store/card';
import { i } from 'react-router';
`;
    expect(ourImports('app/routes/store/page.tsx', source)).toEqual([
      'flows/order-link.server',
      'flows/place-order.server',
      'modules/coupons',
    ]);
  });

  it('refuses a route with a fourth, however it is imported, and names what it imports', () => {
    const source = `import { listOrders } from '~/modules/orders/index.server';
import type { Settings } from '~/modules/settings';
export { priceOrder } from '~/modules/pricing';
type Flow = typeof import('~/flows/refund-order.server');
export const loader = async () => (await import('~/modules/payments/index.server')).x;
`;
    expect(overTheLimit({ 'app/routes/admin/page.tsx': source })).toEqual({
      'app/routes/admin/page.tsx': [
        'flows/refund-order.server',
        'modules/orders',
        'modules/payments',
        'modules/pricing',
        'modules/settings',
      ],
    });
    const three = source.split('\n').slice(0, 3).join('\n');
    expect(overTheLimit({ 'app/routes/admin/page.tsx': three })).toEqual({});
  });
});
