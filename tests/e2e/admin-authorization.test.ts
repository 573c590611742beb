import { randomBytes, randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { adminUsers, sessions } from '~/db/schema';
import { hashSessionToken, sessionCookie } from '~/modules/auth/index.server';

import { readManifest, routeTargets, type RouteTarget } from '../fuzz/discovery';
import { buildDirectory } from '../fuzz/fuzzer';
import { ADMIN, adminVisitor, withAdmin } from '../support/admin';
import { startServer, type TestServer } from '../support/server';
import { VALID_CHECKOUT, Visitor } from '../support/visitor';

/**
 * Walks every route under /admin that the build has (taken from its route manifest, so a screen
 * added later is covered without being listed), as a stranger, as a deactivated admin and as a
 * signed-in admin posting from another site: each gets a redirect to the sign-in page or a 403,
 * never a page or data.
 */

const INACTIVE_TOKEN = randomBytes(32).toString('hex');
// What the admin screens show and nobody else may see.
const PRIVATE = [
  VALID_CHECKOUT.customerName,
  VALID_CHECKOUT.customerEmail,
  '52998224725',
  ADMIN.email,
  ADMIN.fullName,
  'inativo@loja.com.br',
];

const adminTargets = (): RouteTarget[] =>
  routeTargets(readManifest(buildDirectory())).filter(
    (target) =>
      target.pattern.startsWith('/admin') &&
      // The pages a signed-out admin must reach: signing in, and getting a forgotten password back.
      !['/admin/login', '/admin/logout', '/admin/esqueci-senha', '/admin/redefinir-senha'].includes(
        target.pattern,
      ),
  );

/** A concrete path for a pattern: a real-looking uuid for every dynamic segment. */
function pathOf(target: RouteTarget): string {
  return target.pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? randomUUID() : segment === '*' ? 'x' : segment))
    .join('/');
}

/** The URLs a browser would use for a route: the page, its single-fetch data, its action. */
function urlsOf(target: RouteTarget): { get: string[]; post: string[] } {
  const path = pathOf(target);
  const data = target.index ? `${path}.data?index` : `${path}.data`;
  const page = target.index ? `${path}?index` : path;
  return { get: [path, data], post: target.hasAction ? [page, data] : [page] };
}

const FORM = {
  intent: 'delete',
  id: randomUUID(),
  status: 'cancelled',
  name: 'Produto X',
  store_name: 'Loja Hackeada',
  email: 'novo@x.com',
  password: 'senha-qualquer-1',
};

function expectRefused(
  url: string,
  answer: { status: number; text: string; location: string | null },
) {
  const refused =
    ([302, 303].includes(answer.status) && answer.location?.startsWith('/admin/login')) ||
    // Single-fetch (.data) requests get their redirect in the body of a 202.
    (answer.status === 202 && answer.text.includes('/admin/login')) ||
    answer.status === 403 ||
    answer.status === 405;
  expect(refused, `${url} answered ${answer.status} ${answer.location ?? ''}`).toBe(true);
  for (const secret of PRIVATE) {
    expect(answer.text, `${url} showed ${secret}`).not.toContain(secret);
  }
}

describe('the admin, to anyone who is not a signed-in active admin', () => {
  let server: TestServer;
  let targets: RouteTarget[];

  beforeAll(async () => {
    server = await startServer({
      env: { PAYMENT_PROVIDER: 'sandbox' },
      prepare: withAdmin(async (db) => {
        const [inactive] = await db
          .insert(adminUsers)
          .values({
            email: 'inativo@loja.com.br',
            fullName: 'Inativo',
            passwordHash: 'x',
            isActive: false,
          })
          .returning();
        await db.insert(sessions).values({
          id: hashSessionToken(INACTIVE_TOKEN),
          adminUserId: inactive!.id,
          expiresAt: new Date(Date.now() + 3_600_000),
        });
      }),
    });
    // An order with a shopper's personal data for the screens to (not) show.
    const shopper = new Visitor(server.url);
    const home = await shopper.get('/products');
    const productId = /name="productId" value="([0-9a-f-]{36})"/.exec(home.text)![1]!;
    await shopper.addToCart(productId);
    await shopper.checkout();
    targets = adminTargets();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('finds every admin screen in the build', () => {
    const patterns = targets.map((target) => target.pattern);
    for (const screen of [
      '/admin',
      '/admin/products',
      '/admin/categories',
      '/admin/orders',
      '/admin/coupons',
      '/admin/abandoned',
      '/admin/reviews',
      '/admin/users',
      '/admin/settings',
    ]) {
      expect(patterns).toContain(screen);
    }
    expect(targets.filter((target) => target.hasAction).length).toBeGreaterThanOrEqual(6);
  });

  it('sends a stranger to the sign-in page from every page, data request and action', async () => {
    const stranger = new Visitor(server.url);
    for (const target of targets) {
      const { get, post } = urlsOf(target);
      for (const url of get) expectRefused(url, await stranger.get(url));
      for (const url of post) expectRefused(url, await stranger.post(url, FORM));
    }
  });

  it('signs a deactivated admin out on their next request, whatever it is', async () => {
    const cookie = (await sessionCookie.serialize(INACTIVE_TOKEN)).split(';')[0]!;
    for (const target of targets) {
      const { get, post } = urlsOf(target);
      for (const url of get) {
        const visitor = new Visitor(server.url);
        const answer = await visitor.get(url, { Cookie: cookie });
        expectRefused(url, answer);
      }
      for (const url of post) {
        const visitor = new Visitor(server.url);
        expectRefused(url, await visitor.post(url, FORM, { Cookie: cookie }));
      }
    }
  });

  it('refuses every action posted from another site, even with a valid session', async () => {
    const admin = await adminVisitor(server.url);
    for (const target of targets.filter((t) => t.hasAction)) {
      for (const url of urlsOf(target).post) {
        for (const headers of [
          { Origin: 'https://evil.example' } as Record<string, string>,
          { 'Sec-Fetch-Site': 'cross-site' },
          { Origin: 'null' },
        ]) {
          const answer = await admin.post(url, FORM, headers);
          expect(answer.status, `${url} from ${JSON.stringify(headers)}`).toBe(403);
        }
      }
    }
    // The session itself still works: the refusals changed nothing.
    expect((await admin.get('/admin')).status).toBe(200);
  });
});
