import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ourImports } from './our-imports';

// Shallow flows (issue 37, ADR 043): a flow calls modules, and may call a flow that calls only
// modules, from one level up: a chain of flows importing flows is at most three files long,
// the first counted. Deeper, the shared step belongs in a module (the outbox steps, the restock
// alert) or in one flow that the callers share (order-changes). A circle is never allowed.
const ROOT = resolve(import.meta.dirname, '../..');
const FLOWS = 'app/flows';
const LONGEST = 3;

type Graph = Record<string, string[]>;

/** Which flows each flow imports (every way of naming one, type-only imports included). */
function flowGraph(files: Record<string, string>): Graph {
  return Object.fromEntries(
    Object.entries(files).map(([path, source]) => [
      flowName(path),
      ourImports(path, source).filter((name) => name.startsWith('flows/')),
    ]),
  );
}

function flowName(path: string): string {
  return `flows/${path.slice(FLOWS.length + 1).replace(/\.[cm]?[jt]sx?$/, '')}`;
}

/** The longest chain of imports in `graph`, or the first circle found. */
function longestChain(graph: Graph): { chain: string[] } | { circle: string[] } {
  const longest = new Map<string, string[]>();
  const open: string[] = [];
  const walk = (flow: string): string[] | { circle: string[] } => {
    const known = longest.get(flow);
    if (known) return known;
    const at = open.indexOf(flow);
    if (at >= 0) return { circle: [...open.slice(at), flow] };
    open.push(flow);
    let best = [flow];
    for (const next of graph[flow] ?? []) {
      const below = walk(next);
      if (!Array.isArray(below)) return below;
      if (below.length + 1 > best.length) best = [flow, ...below];
    }
    open.pop();
    longest.set(flow, best);
    return best;
  };
  let chain: string[] = [];
  for (const flow of Object.keys(graph).sort()) {
    const found = walk(flow);
    if (!Array.isArray(found)) return found;
    if (found.length > chain.length) chain = found;
  }
  return { chain };
}

/** What the wall says of a set of flow files: nothing when they keep it. */
function breach(files: Record<string, string>): string | null {
  const found = longestChain(flowGraph(files));
  if ('circle' in found) return `flows import each other in a circle: ${found.circle.join(' → ')}`;
  if (found.chain.length <= LONGEST) return null;
  return (
    `a chain of ${found.chain.length} flows (at most ${LONGEST}): ${found.chain.join(' → ')}. ` +
    'Move the shared step into the module that owns it, or into one flow its callers share.'
  );
}

const flows = Object.fromEntries(
  readdirSync(join(ROOT, FLOWS))
    .filter((name) => /\.[jt]sx?$/.test(name) && !/\.test\.[jt]sx?$/.test(name))
    .map((name) => [`${FLOWS}/${name}`, readFileSync(join(ROOT, FLOWS, name), 'utf8')]),
);

describe('shallow flows', () => {
  it(`chain at most ${LONGEST} flows, with no circle`, () => {
    const graph = flowGraph(flows);
    expect(Object.keys(graph).length).toBeGreaterThan(30);
    // The reader sees the flows' imports of each other, or the wall would hold vacuously.
    expect(Object.values(graph).flat().length).toBeGreaterThan(20);
    expect(breach(flows)).toBeNull();
  });

  it('names a flow by its file, however another flow imports it', () => {
    const source = `import { a } from './order-changes.server';
import type { B } from '~/flows/place-order.server';
export { c } from './sample-store.ts';
type D = typeof import('./shipping-quote.server');
import { e } from '~/modules/orders/index.server';
`;
    expect(flowGraph({ 'app/flows/purchase.server.ts': source })).toEqual({
      'flows/purchase.server': [
        'flows/order-changes.server',
        'flows/place-order.server',
        'flows/sample-store',
        'flows/shipping-quote.server',
      ],
    });
  });

  it(`refuses a chain of ${LONGEST + 1}, and names it`, () => {
    const files = {
      'app/flows/jobs.server.ts': `import { labels } from './labels.server';\n`,
      'app/flows/labels.server.ts': `import type { Staff } from '~/flows/staff.server';\n`,
      'app/flows/staff.server.ts': `import { pay } from './payment.server';\n`,
      'app/flows/payment.server.ts': `import { enqueue } from '~/modules/jobs/index.server';\n`,
      'app/flows/cart.server.ts': `import { pay } from './payment.server';\n`,
    };
    expect(breach(files)).toBe(
      'a chain of 4 flows (at most 3): flows/jobs.server → flows/labels.server → ' +
        'flows/staff.server → flows/payment.server. Move the shared step into the module that ' +
        'owns it, or into one flow its callers share.',
    );
    // The shared step moved down to a module: three flows, kept.
    const kept = {
      ...files,
      'app/flows/staff.server.ts': `import { pay } from '~/modules/orders';\n`,
    };
    expect(breach(kept)).toBeNull();
  });

  it('refuses a circle, type-only imports included', () => {
    const files = {
      'app/flows/a.server.ts': `import { b } from './b.server';\n`,
      'app/flows/b.server.ts': `import type { C } from './c.server';\n`,
      'app/flows/c.server.ts': `export type C = typeof import('./b.server');\n`,
    };
    expect(breach(files)).toBe(
      'flows import each other in a circle: flows/b.server → flows/c.server → flows/b.server',
    );
  });
});
