// The walls between the app's layers and domains (ADR 021), checked by `npm run lint`.
// Paths are relative to the folder the cruise starts in: the repository root.

/** A module's doors: browser-safe, server, and the admin's own two. */
const DOOR = '^app/modules/[^/]+/index(\\.admin)?(\\.server)?\\.ts$';
/** What a shopper's page is built from: it must never reach the admin's code. */
const STOREFRONT = '^app/(routes/store/|components/store/|root\\.tsx$)';
const ADMIN =
  '^app/(routes/admin/|components/admin/|modules/[^/]+/index\\.admin(\\.server)?\\.ts$|modules/auth/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import circle (type-only imports count): a layer or a domain that needs its own ' +
        'caller. Move the shared piece down to the module or lib that owns it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'module-through-its-doors',
      severity: 'error',
      comment:
        'Another module is entered only through its doors (index.ts, index.server.ts, ' +
        'index.admin.ts, index.admin.server.ts), so it can change its inner files freely.',
      from: { path: '^app/modules/([^/]+)/', pathNot: '^app/modules/[^/]+/schema\\.ts$' },
      to: { path: '^app/modules/', pathNot: ['^app/modules/$1/', DOOR] },
    },
    {
      name: 'tables-through-their-doors',
      severity: 'error',
      comment:
        "A module's tables may name another module's table for a foreign key (schema.ts to " +
        'schema.ts: the database links them, and db/schema.ts gathers them), nothing else ' +
        'of it: a service reading it goes through that module.',
      from: { path: '^app/modules/([^/]+)/schema\\.ts$' },
      to: {
        path: '^app/modules/',
        pathNot: ['^app/modules/$1/', DOOR, '^app/modules/[^/]+/schema\\.ts$'],
      },
    },
    {
      name: 'cross-domain-writes-in-flows',
      severity: 'error',
      comment:
        "A module does not call another module's services: work that spans domains is a flow " +
        '(app/flows, one transaction). The exceptions below only read, or keep a counter that ' +
        'belongs to no domain.',
      from: {
        path: '^app/modules/([^/]+)/',
        pathNot: [
          // Prices and stock of the cart's lines: lookupProducts reads the catalogue.
          '^app/modules/cart/(pricing|update)\\.server\\.ts$',
          // The review list shows each review's product name: a read join on products.
          '^app/modules/reviews/admin-reviews\\.server\\.ts$',
          // Sign-in attempts are throttled with the shared rate-limit counters (ADR 017).
          '^app/modules/auth/sign-in\\.server\\.ts$',
        ],
      },
      to: {
        path: '^app/modules/[^/]+/index(\\.admin)?\\.server\\.ts$',
        pathNot: [
          '^app/modules/$1/',
          // Pricing's server door holds no service and no table: only its price rule as SQL,
          // for the catalogue's queries.
          '^app/modules/pricing/index\\.server\\.ts$',
          // The outbox belongs to no domain: a module queues its own side effects (the order's
          // e-mails and reports, the restock e-mails) in its caller's transaction, as Medusa's
          // modules emit events on the event bus, so flows call one step, not a flow (ADR 043).
          '^app/modules/jobs/index\\.server\\.ts$',
        ],
      },
    },
    {
      name: 'outside-through-the-doors',
      severity: 'error',
      comment:
        'Routes, flows, components, lib and the server enter a module only through its doors ' +
        '(db/schema.ts gathers the tables for drizzle and the query builder).',
      from: {
        path: '^(app|server|scripts|bench)/',
        pathNot: ['^app/modules/', '^app/db/schema\\.ts$'],
      },
      to: { path: '^app/modules/', pathNot: DOOR },
    },
    {
      name: 'lib-below-the-domains',
      severity: 'error',
      comment:
        'app/lib is below everything domain-specific: it imports no module, flow, route, ' +
        'store or admin component, nor the database layer.',
      from: { path: '^app/lib/' },
      to: {
        path: [
          '^app/(modules|flows|routes|components/(store|admin)|db|styles)/',
          '^app/(root|entry\\.server|load-context)\\.tsx?$',
          '^server/',
        ],
      },
    },
    {
      name: 'ui-below-the-domains',
      severity: 'error',
      comment: 'app/components/ui holds primitives: no module, flow, route or store/admin part.',
      from: { path: '^app/components/ui/' },
      to: {
        path: ['^app/(modules|flows|routes|components/(store|admin)|db)/', '^app/root\\.tsx$'],
      },
    },
    {
      name: 'components-below-routes-and-flows',
      severity: 'error',
      comment:
        'Components render what a route hands them: they import no route, flow or database ' +
        'code (a type they share with one lives in the module or lib that owns it).',
      from: { path: '^app/components/' },
      to: { path: ['^app/(routes|flows|db)/', '^app/root\\.tsx$', '^server/'] },
    },
    {
      name: 'modules-below-flows',
      severity: 'error',
      comment: 'Modules sit below flows and routes: they never call up into them.',
      from: { path: '^app/modules/' },
      to: { path: ['^app/(routes|flows|components)/', '^app/root\\.tsx$', '^server/'] },
    },
    {
      name: 'flows-below-routes',
      severity: 'error',
      comment: 'Flows are called by routes and the server; they import no route or component.',
      from: { path: '^app/flows/' },
      to: { path: ['^app/(routes|components)/', '^app/root\\.tsx$', '^server/'] },
    },
    {
      name: 'db-at-the-bottom',
      severity: 'error',
      comment: 'The database layer imports only the tables it gathers, lib and its libraries.',
      from: { path: '^app/db/' },
      to: {
        path: ['^app/(routes|flows|components)/', '^app/modules/', '^app/root\\.tsx$'],
        pathNot: '^app/modules/[^/]+/schema\\.ts$',
      },
    },
    {
      name: 'routes-through-modules',
      severity: 'error',
      comment: 'Routes reach the database only through a module or a flow.',
      from: { path: ['^app/routes/', '^app/root\\.tsx$'] },
      to: { path: '^app/db/' },
    },
    {
      name: 'tables-gathered-in-db',
      severity: 'error',
      comment:
        'db/schema.ts gathers every table for drizzle (and the tests and benches that fill ' +
        "them); a module reads its own tables from its schema.ts, another module's only " +
        "through that module's door.",
      from: { pathNot: ['^app/db/', '^(tests|bench)/'] },
      to: { path: '^app/db/schema\\.ts$' },
    },
    {
      name: 'storefront-without-admin',
      severity: 'error',
      comment:
        "A shopper's page never imports the admin's code (routes/admin, components/admin, a " +
        "module's admin doors, auth): not only the bundle check keeps it out of their JavaScript.",
      from: { path: STOREFRONT },
      to: { path: ADMIN },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '^app/routes/[^/]+/\\+types/', '\\.react-router/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    cache: false,
  },
};
