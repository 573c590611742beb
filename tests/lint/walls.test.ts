import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The walls of ADR 021, proven on a small tree made for the purpose: the same command and
// configuration as `npm run lint`, run over files that keep the rules and files that break them.
const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022',
    module: 'ES2022',
    moduleResolution: 'bundler',
    jsx: 'react-jsx',
    verbatimModuleSyntax: true,
    paths: { '~/*': ['./app/*'] },
  },
});

/** Files that keep every wall: the shapes the app is built of. */
const KEPT: Record<string, string> = {
  'app/db/database.server.ts': `export type Db = { name: string };\n`,
  'app/lib/money.ts': `export const cents = (value: number) => Math.round(value * 100);\n`,
  'app/components/ui/money.tsx': `import { cents } from '~/lib/money';\nexport const Money = () => cents(1);\n`,
  'app/modules/catalog/paths.ts': `export const productPath = (slug: string) => '/p/' + slug;\n`,
  'app/modules/catalog/index.ts': `export { productPath } from './paths';\n`,
  'app/modules/catalog/stock.server.ts': `import type { Db } from '~/db/database.server';\nexport const reserve = (db: Db) => db.name;\n`,
  'app/modules/catalog/index.server.ts': `export { reserve } from './stock.server';\n`,
  'app/modules/catalog/product-form.ts': `export const PRODUCT_FORM = 'form';\n`,
  'app/modules/catalog/index.admin.ts': `export { PRODUCT_FORM } from './product-form';\n`,
  'app/modules/reviews/display.ts': `import { productPath } from '~/modules/catalog';\nexport const link = productPath('a');\n`,
  'app/modules/reviews/index.ts': `export { link } from './display';\n`,
  // A module queues its own side effects in the outbox, which belongs to no domain (ADR 043).
  'app/modules/jobs/outbox.server.ts': `import type { Db } from '~/db/database.server';\nexport const enqueue = (db: Db, topic: string) => [db, topic];\n`,
  'app/modules/jobs/index.server.ts': `export { enqueue } from './outbox.server';\n`,
  'app/modules/reviews/mail.server.ts': `import type { Db } from '~/db/database.server';\nimport { enqueue } from '~/modules/jobs/index.server';\nexport const mailReview = (db: Db) => enqueue(db, 'email.review');\n`,
  'app/flows/place-order.server.ts': `import { reserve } from '~/modules/catalog/index.server';\nimport { link } from '~/modules/reviews';\nexport const place = () => [reserve, link];\n`,
  'app/components/store/card.tsx': `import { Money } from '~/components/ui/money';\nimport { productPath } from '~/modules/catalog';\nexport const Card = () => [Money, productPath];\n`,
  'app/components/admin/form.tsx': `import { PRODUCT_FORM } from '~/modules/catalog/index.admin';\nimport { Card } from '~/components/store/card';\nexport const Form = () => [PRODUCT_FORM, Card];\n`,
  'app/routes/store/product.tsx': `import { Card } from '~/components/store/card';\nimport { place } from '~/flows/place-order.server';\nexport const loader = () => [Card, place];\n`,
  'app/routes/admin/products.tsx': `import { Form } from '~/components/admin/form';\nexport const loader = () => Form;\n`,
};

/** One file per breach, each with the rule that must refuse it. */
const BROKEN: Record<string, { source: string; rule: string; to: string }> = {
  // (a) A module reaching into another module's inner file.
  'app/modules/reviews/ratings.ts': {
    source: `import { productPath } from '~/modules/catalog/paths';\nexport const ratings = productPath;\n`,
    rule: 'module-through-its-doors',
    to: 'app/modules/catalog/paths.ts',
  },
  // (b) A storefront file importing the admin's code: a module's admin door, and an admin part.
  'app/routes/store/cart.tsx': {
    source: `import { PRODUCT_FORM } from '~/modules/catalog/index.admin';\nexport const loader = () => PRODUCT_FORM;\n`,
    rule: 'storefront-without-admin',
    to: 'app/modules/catalog/index.admin.ts',
  },
  'app/components/store/header.tsx': {
    source: `import type { Form } from '~/components/admin/form';\nexport type Header = typeof Form;\n`,
    rule: 'storefront-without-admin',
    to: 'app/components/admin/form.tsx',
  },
  // (c) lib importing a route, if only for a type.
  'app/lib/store-data.ts': {
    source: `import type { loader } from '~/routes/store/product';\nexport type Data = ReturnType<typeof loader>;\n`,
    rule: 'lib-below-the-domains',
    to: 'app/routes/store/product.tsx',
  },
  // A module calling another module's services: a write across domains outside a flow.
  'app/modules/reviews/stock.server.ts': {
    source: `import { reserve } from '~/modules/catalog/index.server';\nexport const hold = reserve;\n`,
    rule: 'cross-domain-writes-in-flows',
    to: 'app/modules/catalog/index.server.ts',
  },
  // A component importing a flow; a route importing the database layer.
  'app/components/store/estimate.tsx': {
    source: `import type { place } from '~/flows/place-order.server';\nexport type Estimate = typeof place;\n`,
    rule: 'components-below-routes-and-flows',
    to: 'app/flows/place-order.server.ts',
  },
  'app/routes/store/callback.tsx': {
    source: `import { Db } from '~/db/database.server';\nexport const loader = (db: Db) => db;\n`,
    rule: 'routes-through-modules',
    to: 'app/db/database.server.ts',
  },
};

/** (d) An import circle made of type-only imports, which the bundle never shows. */
const CIRCLE: Record<string, string> = {
  'app/modules/cart/lines.ts': `import type { Total } from './totals';\nexport type Line = { total: Total };\n`,
  'app/modules/cart/totals.ts': `import type { Line } from './lines';\nexport type Total = { lines: Line[] };\n`,
};

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** `npm run lint`'s cruise over a folder: its exit status and the violations it printed. */
function lint(folder: string): { status: number | null; violations: Violation[] } {
  const run = spawnSync(process.execPath, [DEPCRUISE, 'app', '--config', CONFIG], {
    cwd: folder,
    encoding: 'utf8',
  });
  // "  error rule: from → to", a circle's further steps on the lines below.
  const violations = [...run.stdout.matchAll(/error ([\w-]+): (\S+) →\s+(\S+)/g)].map(
    ([, rule, from, to]) => ({ rule: rule!, from: from!, to: to! }),
  );
  return { status: run.status, violations };
}

function writeTree(folder: string, files: Record<string, string>) {
  writeFileSync(join(folder, 'tsconfig.json'), TSCONFIG);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), source);
  }
}

const byRule = (list: Violation[]) =>
  [...list].sort((a, b) => `${a.rule} ${a.from}`.localeCompare(`${b.rule} ${b.from}`));

describe('the walls lint keeps (ADR 021)', () => {
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'walls-'));
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  // One cruise over both kinds of files (each costs seconds): the violations must be exactly
  // the breaches, so the files that keep the walls are shown to pass beside them.
  it('fails on each breach, naming the rule and the import, and on nothing else', () => {
    writeTree(folder, {
      ...KEPT,
      ...CIRCLE,
      ...Object.fromEntries(Object.entries(BROKEN).map(([path, file]) => [path, file.source])),
    });
    const { status, violations } = lint(folder);
    expect(byRule(violations)).toEqual(
      byRule([
        ...Object.entries(BROKEN).map(([from, { rule, to }]) => ({ rule, from, to })),
        // A circle is told once, from its first file.
        {
          rule: 'no-circular',
          from: 'app/modules/cart/lines.ts',
          to: 'app/modules/cart/totals.ts',
        },
      ]),
    );
    expect(status).toBe(violations.length);
  }, 60_000);
});
