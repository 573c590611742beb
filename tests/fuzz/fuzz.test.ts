import { createHash } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { openDatabase } from '~/db/database.server';
import {
  coupons,
  erpOrders,
  orderAdjustments,
  orders,
  shopperAddresses,
  shoppers,
  shopperSessions,
} from '~/db/schema';
import { SAMPLE_COUPONS } from '~/flows/sample-store';
import { loadSecretsKey, secretsVault } from '~/modules/connections/index.server';
import { saveAuthorization } from '~/modules/erp/index.server';

import { adminVisitor, withAdmin } from '../support/admin';
import { insertOrderRow } from '../support/orders';
import { startServer, type TestServer } from '../support/server';
import { startFakeBling, type FakeBling } from '../support/fake-bling';
import { startFakeMelhorEnvio, type FakeMelhorEnvio } from '../support/fake-melhorenvio';
import {
  FUZZ_BLING,
  FUZZ_COUPON,
  FUZZ_MELHOR_ENVIO_TOKEN,
  FUZZ_REDIRECT_ORIGINS,
  FUZZ_SECRETS_KEY,
  FUZZ_SERVER_ENV,
} from './server-env';

import {
  buildDirectory,
  MEMORY_TOLERANCE,
  runFuzz,
  settingsFromEnv,
  type FailureKind,
  type FuzzReport,
} from './fuzzer';
import { describeRequest, formatReport, serverErrors } from './report';

// CI runs the fixed seed, up to its count or its time; FUZZ_SEED, FUZZ_REQUESTS and FUZZ_SECONDS
// (or `npm run fuzz`) ask for more.
const { seed, requests, seconds } = settingsFromEnv();
// The default run takes about two minutes here; the bound allows a slow machine, or more requests.
const RUN_TIMEOUT_MS = Math.max(15 * 60_000, requests * 20);

const print = (text: string) => process.stdout.write(`${text}\n`);

/**
 * After the whole store's run, one signed in as the admin and aimed only at the admin's routes
 * and intents: bounded on its own, so it adds at most about this long to CI.
 */
const ADMIN_LIMITS = { requests: 4_000, seconds: 20 };
const adminRoutes = (pattern: string) => pattern === '/admin' || pattern.startsWith('/admin/');

/**
 * The fuzzed store: the test admin, and an order in each status staff act on, so the crawl finds
 * the order page's forms (status, tracking code, payment, notes) and the list's ('Excluir' for
 * the pending one, 'Cancelar pedido' for the paid one) and the fuzzer posts to them. The paid
 * order used the sample's first coupon, so the coupons screen shows one that can only be
 * deactivated beside one that can be deleted.
 */
let bling: FakeBling | undefined;

const prepareStore = withAdmin(async (db) => {
  const used = SAMPLE_COUPONS[0]!;
  // Connected to (a fake) Bling: the order page offers 'Enviar ao Bling', 'Emitir NF-e' and, on
  // the shipped order whose note SEFAZ rejected, 'Tentar de novo'.
  const grant = bling?.grant() ?? {
    access_token: 'fuzz-access-token',
    refresh_token: 'fuzz-refresh-token',
    expires_in: 21_600,
  };
  await saveAuthorization(
    db,
    secretsVault((await loadSecretsKey({ secretsKey: FUZZ_SECRETS_KEY }))!),
    'bling',
    {
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
      expiresInSeconds: grant.expires_in,
    },
    new Date(),
  );
  for (const status of ['pending', 'confirmed', 'shipped', 'delivered'] as const) {
    const order = await insertOrderRow(db, { cents: 10_000, status });
    if (status !== 'pending') {
      await db.update(orders).set({ paidAt: new Date() }).where(eq(orders.id, order.id));
    }
    if (status === 'shipped') {
      await db.insert(erpOrders).values({
        orderId: order.id,
        provider: 'bling',
        sendState: 'sent',
        erpOrderId: '9000001',
        invoiceRequested: true,
        invoiceId: '9000002',
        invoiceState: 'rejected',
        invoiceReason: 'Rejeição 778: Informado NCM inexistente',
      });
    }
    if (status !== 'confirmed') continue;
    // Paid and shipping by a Melhor Envio service: the list and the order offer its label.
    await db
      .update(orders)
      .set({
        shippingMethod: {
          provider: 'melhorenvio',
          serviceId: '2',
          carrier: 'Correios',
          service: 'SEDEX',
          businessDays: 2,
          approximate: false,
        },
      })
      .where(eq(orders.id, order.id));
    await db.insert(orderAdjustments).values({
      orderId: order.id,
      position: 0,
      kind: 'coupon',
      label: `Cupom ${used.code}`,
      amountCents: -1_000,
      couponId: used.id,
      couponCode: used.code,
    });
    await db.update(coupons).set({ usedCount: 1 }).where(eq(coupons.id, used.id));
  }
  // A shopper signed in (FUZZ_SHOPPER_TOKEN) with an address, a favourite and the pending order's
  // e-mail: '/conta''s forms are found and posted to, not only refused.
  const [shopper] = await db
    .insert(shoppers)
    .values({ email: 'maria@example.com' })
    .returning({ id: shoppers.id });
  await db.insert(shopperSessions).values({
    id: createHash('sha256').update(FUZZ_SHOPPER_TOKEN).digest('hex'),
    shopperId: shopper!.id,
    expiresAt: new Date(Date.now() + 24 * 60 * 60_000),
  });
  await db.insert(shopperAddresses).values({
    shopperId: shopper!.id,
    zipCode: '01310100',
    street: 'Avenida Paulista',
    number: '1000',
    neighborhood: 'Bela Vista',
    city: 'São Paulo',
    state: 'SP',
    isDefault: true,
  });
});

// The fuzzed shopper's session token, as the cookie carries it.
const FUZZ_SHOPPER_TOKEN = 'fuzz-shopper-session-token-0123456789abcdef';

/** Prepares a PostgreSQL store that its server has already migrated. */
async function prepareStoreOn(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ databaseUrl, poolMax: 1 });
  try {
    await prepareStore(database.db);
  } finally {
    await database.close();
  }
}

/**
 * The fuzzed store has an admin and a shopper, signed in, so admin and account actions are
 * reached and not only refused.
 */
async function adminCookie(server: TestServer): Promise<string> {
  const admin = await adminVisitor(server.url);
  const shopper = encodeURIComponent(
    Buffer.from(JSON.stringify(FUZZ_SHOPPER_TOKEN)).toString('base64'),
  );
  return `vitrine_session=${admin.cookies.get('vitrine_session')}; vitrine_conta=${shopper}`;
}

async function fuzzServer(
  server: TestServer,
  limits: { requests: number; seconds: number },
  options: { checkMemory: boolean; only?: (pattern: string) => boolean },
): Promise<FuzzReport> {
  const url = new URL(server.url);
  const report = await runFuzz({
    host: url.hostname,
    port: Number(url.port),
    buildDir: buildDirectory(),
    seed,
    ...limits,
    pid: options.checkMemory ? server.child.pid : undefined,
    log: print,
    adminCookie: await adminCookie(server),
    only: options.only,
    // 'Conectar ao Bling' sends staff to Bling's authorization page (its fake here).
    redirectOrigins: [...FUZZ_REDIRECT_ORIGINS, ...(bling ? [bling.url] : [])],
  });
  print(formatReport(report));
  const errors = serverErrors(server.output());
  if (errors.length > 0)
    print(`The server logged ${errors.length} errors; the first:\n${errors[0]}`);
  return report;
}

/** One line per failure group, so an assertion's diff names causes and a request to replay. */
function failures(report: FuzzReport, ...kinds: FailureKind[]): string[] {
  return report.failures
    .filter((group) => kinds.includes(group.kind))
    .map((group) => {
      const example = group.examples[0];
      const request = example ? describeRequest(example).slice(0, 300) : '';
      const cause = group.cause.join(' ') || group.note || 'no hostile part';
      return `${group.kind} ×${group.count} (${cause}): ${request}`;
    });
}

describe('the HTTP server under fuzzing', () => {
  let melhorEnvio: FakeMelhorEnvio | undefined;
  let server: TestServer;
  let report: FuzzReport;
  let adminReport: FuzzReport;

  beforeAll(async () => {
    // Carriers quote through a fake Melhor Envio, so the checkout's shipping choice is fuzzed too.
    melhorEnvio = await startFakeMelhorEnvio({ token: FUZZ_MELHOR_ENVIO_TOKEN });
    // Bling's calls (orders and notes the fuzzer asks for) go to a fake too.
    bling = await startFakeBling({ ...FUZZ_BLING, rateLimitPerSecond: 1000 });
    server = await startServer({
      env: { ...FUZZ_SERVER_ENV, MELHOR_ENVIO_API_URL: melhorEnvio.url, BLING_API_URL: bling.url },
      settings: { shipping_origin_cep: '01310100' },
      prepare: prepareStore,
    });
    report = await fuzzServer(server, { requests, seconds }, { checkMemory: true });
    adminReport = await fuzzServer(server, ADMIN_LIMITS, {
      checkMemory: false,
      only: adminRoutes,
    });
  }, RUN_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await melhorEnvio?.close();
    await bling?.close();
  });

  it('sends every request, to every route and action in the manifest', () => {
    expect(report.aborted).toBeUndefined();
    // Every request, or as many as its time allowed: never fewer than two rounds of the plan.
    if (report.stoppedBy === 'requests') expect(report.requests).toBe(requests);
    else expect(report.requests).toBeGreaterThanOrEqual(2 * report.planLength);
    const targets = [...report.byTarget.keys()];
    for (const route of report.routes) {
      expect(targets).toContain(`${route.pattern} (${route.id})`);
      if (route.hasAction) expect(targets).toContain(`${route.pattern} action`);
    }
    expect(report.routes.filter((route) => route.hasAction).length).toBeGreaterThan(0);
  });

  it('reaches the admin actions signed in, not only their sign-in redirect', () => {
    const reached = [...report.byTarget]
      .filter(([target]) => target.startsWith('/admin') && target.endsWith(' action'))
      .filter(([, stats]) =>
        [...stats.byStatus.keys()].some((status) => /^(200|400|404|409|413|422)/.test(status)),
      );
    expect(reached.length).toBeGreaterThanOrEqual(5);
  });

  it("reaches the coupon: 'Cupom de desconto' on the cart and the checkout, and the links' cupom", () => {
    const route = (pattern: string) => report.routes.find((target) => target.pattern === pattern);
    for (const pattern of ['/cart', '/checkout']) {
      const fields = route(pattern)?.postFields;
      expect([...(fields?.get('couponCode') ?? [])]).toContain(FUZZ_COUPON.toLowerCase());
      expect([...(fields?.get('intent') ?? [])]).toEqual(
        expect.arrayContaining(['coupon', 'coupon-remove']),
      );
    }
    for (const pattern of ['/', '/cart', '/checkout']) {
      expect([...(route(pattern)?.queryFields.get('cupom') ?? [])]).toContain(FUZZ_COUPON);
    }
  });

  it("reaches 'Gerar etiqueta' on the order, 'Gerar etiquetas' on the list and Melhor Envio's notifications", () => {
    const route = (pattern: string) => report.routes.find((target) => target.pattern === pattern);
    expect([...(route('/admin/orders/:id')?.postFields.get('intent') ?? [])]).toContain('label');
    expect([...(route('/admin/orders')?.postFields.get('intent') ?? [])]).toContain('labels');
    expect(route('/admin/orders')?.postFields.get('ids')?.size).toBeGreaterThan(0);
    const hook = report.byTarget.get('/api/shipping/melhorenvio action');
    // The fuzzer cannot sign: every notification it sends is refused, none fails.
    expect([...(hook?.byStatus.keys() ?? [])].some((status) => status.startsWith('401'))).toBe(
      true,
    );
  });

  it("reaches 'Enviar ao Bling', 'Emitir NF-e', 'Tentar de novo', the integrations and Bling's notifications", () => {
    const route = (pattern: string) => report.routes.find((target) => target.pattern === pattern);
    expect([...(route('/admin/orders/:id')?.postFields.get('intent') ?? [])]).toEqual(
      expect.arrayContaining(['erp-send', 'invoice', 'invoice-retry']),
    );
    expect([...(route('/admin/integrations')?.postFields.get('intent') ?? [])]).toEqual(
      expect.arrayContaining(['save', 'remove']),
    );
    expect(
      report.byTarget.has(
        '/admin/integrations/bling/callback (routes/admin/integrations-callback)',
      ),
    ).toBe(true);
    const hook = report.byTarget.get('/api/invoices/bling action');
    // The fuzzer cannot sign: every notification it sends is refused, none fails.
    expect([...(hook?.byStatus.keys() ?? [])].some((status) => status.startsWith('401'))).toBe(
      true,
    );
  });

  it("searches the admin's product picker with what a merchant types", () => {
    const picker = adminReport.routes.find((route) => route.pattern === '/admin/products/options');
    expect([...(picker?.queryFields.get('q') ?? [])]).toContain('fone');
    const stats = [...adminReport.byTarget].find(([target]) =>
      target.startsWith('/admin/products/options '),
    )?.[1];
    expect([...(stats?.byStatus.keys() ?? [])].some((status) => status.startsWith('200'))).toBe(
      true,
    );
  });

  it('answers no request with a 5xx', () => {
    expect(failures(report, '5xx')).toEqual([]);
  });

  it("answers in pt-BR: no English of React Router's or Node's, no JavaScript insides", () => {
    expect(failures(report, 'foreign-text')).toEqual([]);
  });

  it('fuzzes every admin route and action signed in, each past its sign-in redirect', () => {
    expect(adminReport.aborted).toBeUndefined();
    const admin = adminReport.routes.filter((route) => adminRoutes(route.pattern));
    expect(admin.length).toBeGreaterThan(10);
    const targets = new Set(adminReport.byTarget.keys());
    expect([...targets].filter((target) => !target.startsWith('/admin'))).toEqual([]);
    for (const route of admin) {
      expect(targets).toContain(`${route.pattern} (${route.id})`);
      if (route.hasAction) expect(targets).toContain(`${route.pattern} action`);
    }
    // Each action answered something other than the sign-in redirect: the session held.
    const actions = admin.filter((route) => route.hasAction && route.pattern !== '/admin/logout');
    const unreached = actions.filter((route) => {
      const stats = adminReport.byTarget.get(`${route.pattern} action`);
      return ![...(stats?.byStatus.keys() ?? [])].some((status) => /^(200|4\d\d)$/.test(status));
    });
    expect(unreached.map((route) => route.pattern)).toEqual([]);
  });

  it('answers no admin request with a 5xx, English or JavaScript text, or any other failure', () => {
    expect(
      failures(adminReport, ...new Set(adminReport.failures.map((group) => group.kind))),
    ).toEqual([]);
  });

  it('answers every request within 2 s', () => {
    expect(failures(report, 'slow', 'timeout')).toEqual([]);
  });

  it('never puts a spoofed host (Host, X-Forwarded-Host, Origin…) in an answer', () => {
    expect(failures(report, 'echoed-evil-host')).toEqual([]);
  });

  it('answers well-formed requests whole, redirects only to itself, serves no file outside its folders', () => {
    expect(
      failures(
        report,
        'no-answer',
        'truncated-answer',
        'bad-encoding',
        'open-redirect',
        'path-traversal',
        'connection-error',
      ),
    ).toEqual([]);
  });

  it('gives its memory back: RSS at the end within 20% of after the warm-up', () => {
    // Only Linux has /proc; elsewhere the check cannot run.
    if (process.platform !== 'linux') return;
    expect(report.memory).toBeDefined();
    expect(report.memory!.endKb).toBeLessThanOrEqual(report.memory!.warmupKb * MEMORY_TOLERANCE);
  });

  it('still answers /healthz with 200 at the end', () => {
    expect(report.healthz?.status).toBe(200);
  });
});

// The same fuzzer, shorter, on PostgreSQL: its errors (bad bytes in a query, a lost connection)
// are not PGlite's.
describe.runIf(TEST_DATABASE_URL)('the HTTP server under fuzzing, on PostgreSQL', () => {
  const name = uniqueDatabaseName('vitrine_fuzz');
  let server: TestServer;
  let report: FuzzReport;

  beforeAll(async () => {
    const url = await createDatabase(TEST_DATABASE_URL!, name);
    server = await startServer({ env: { ...FUZZ_SERVER_ENV, DATABASE_URL: url } });
    await prepareStoreOn(url);
    // The memory check belongs to the long run; this one is too short to say much.
    report = await fuzzServer(
      server,
      { requests: Math.min(requests, 2_000), seconds: Math.ceil(seconds / 4) },
      { checkMemory: false },
    );
  }, RUN_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await dropDatabase(TEST_DATABASE_URL!, name);
  });

  it('fails no check and still answers /healthz with 200', () => {
    expect(report.aborted).toBeUndefined();
    expect(failures(report, ...new Set(report.failures.map((group) => group.kind)))).toEqual([]);
    expect(report.healthz?.status).toBe(200);
  });
});
