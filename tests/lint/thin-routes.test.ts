import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Thin routes (issue 37): a route parses, calls and renders. One that needs more than three of
// our modules and flows is doing a flow's work itself, so the work that spans domains belongs in
// a flow (app/flows), and the route calls it.
const ROOT = resolve(import.meta.dirname, '../..');
const ROUTES = 'app/routes';
const MOST = 3;

/**
 * The modules and flows a file at `path` (from the repository's root) imports, as
 * `modules/<name>` (whichever of the module's doors) and `flows/<file>`. Every way of naming one
 * counts: type-only imports, re-exports, `import()` calls and types, relative paths.
 */
function ourImports(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const found = new Set<string>();
  const take = (specifier: ts.Node | undefined) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const name = ourName(path, specifier.text);
    if (name) found.add(name);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) take(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      take(node.argument.literal);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      take(node.arguments[0]);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      take(node.moduleReference.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...found].sort();
}

function ourName(path: string, specifier: string): string | undefined {
  let target: string;
  if (specifier.startsWith('~/')) target = `app/${specifier.slice(2)}`;
  else if (specifier.startsWith('.')) target = posix.join(posix.dirname(path), specifier);
  else return undefined;
  const module = /^app\/modules\/([^/]+)/.exec(target);
  if (module) return `modules/${module[1]}`;
  const flow = /^app\/flows\/(.+?)(\.[cm]?[jt]sx?)?$/.exec(target);
  return flow ? `flows/${flow[1]}` : undefined;
}

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
