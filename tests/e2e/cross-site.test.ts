import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { coupons } from '~/db/schema';

import { waitForHydration } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { sampleProduct } from '../support/sample';
import { VALID_CHECKOUT } from '../support/visitor';

const HEADSET = sampleProduct('Fone');
const SOME_ORDER = randomUUID();
const COUPON = 'METADE';

/**
 * An attacker's page: a form aimed at one of the store's actions, submitted as soon as the page
 * loads, the classic CSRF. It is served from localhost while the store is at 127.0.0.1, which
 * the browser treats as another site.
 */
function attackPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('');
  return (
    `<!doctype html><title>Promoção imperdível</title>` +
    `<form method="post" action="${action}">${inputs}</form>` +
    `<script>document.forms[0].submit()</script>`
  );
}

describe('posts from another site', () => {
  // With payments on, so a checkout that got through would place an order (and set cookies),
  // and a coupon, so one applied from the other site would be held (its cookie set).
  const store = useStoreAndBrowser({
    env: { PAYMENT_PROVIDER: 'sandbox' },
    prepare: async (db) => {
      await db.insert(coupons).values({ code: COUPON, kind: 'percent', value: 50 });
    },
  });
  let attacker: Server;
  let attackerUrl = '';
  let page = '';
  beforeAll(async () => {
    attacker = createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(page),
    );
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const address = attacker.address();
    attackerUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => attacker?.close(resolve));
  });

  const attacks: [string, string, Record<string, string>][] = [
    ['consent', '/preferences', { intent: 'consent', consent: 'granted', redirectTo: '/' }],
    ['theme', '/preferences', { intent: 'theme', theme: 'dark', redirectTo: '/' }],
    ['theme, as a fetcher would', '/preferences.data', { intent: 'theme', theme: 'dark' }],
    ['cart', '/cart', { intent: 'add', productId: HEADSET.id, quantity: '3' }],
    ['cart, as a fetcher would', '/cart.data', { intent: 'clear' }],
    ['a coupon on the cart', '/cart', { intent: 'coupon', couponCode: COUPON }],
    ['a coupon on the cart, as a fetcher would', '/cart.data', { intent: 'coupon-remove' }],
    ['a coupon on the checkout', '/checkout', { intent: 'coupon', couponCode: COUPON }],
    ['a coupon on the checkout, as a fetcher would', '/checkout.data', { intent: 'coupon-remove' }],
    ['checkout', '/checkout', { ...VALID_CHECKOUT, idempotencyKey: randomUUID() }],
    [
      'checkout, as a fetcher would',
      '/checkout.data',
      { ...VALID_CHECKOUT, idempotencyKey: randomUUID() },
    ],
    [
      'a new PIX for an order',
      `/order-confirmation?orderId=${SOME_ORDER}`,
      { intent: 'pay', orderId: SOME_ORDER },
    ],
    [
      'approving a sandbox payment',
      '/order-confirmation/sandbox',
      {
        intent: 'approve',
        orderId: SOME_ORDER,
      },
    ],
  ];

  it.each(attacks)('are refused and change nothing: %s', async (_name, path, fields) => {
    const context = await store.browser.newContext({ locale: 'pt-BR' });
    try {
      const shopper = await context.newPage();
      // The shopper has a cart and has answered nothing yet.
      await shopper.goto(`${store.server.url}/product/${HEADSET.id}`);
      // Before hydration the button posts plainly and navigates to /cart, which would then
      // interrupt the visit to the attacker's page.
      await waitForHydration(shopper);
      await shopper.getByRole('button', { name: 'Adicionar ao carrinho' }).first().click();
      await expect
        .poll(async () => (await context.cookies()).map((cookie) => cookie.name))
        .toContain('vitrine_cart');
      const before = await context.cookies(store.server.url);

      page = attackPage(`${store.server.url}${path}`, fields);
      // Only the attacker's post: the add-to-cart fetcher above also answered on /cart.data, and
      // its response event can arrive after the cart cookie is already visible.
      const attackerOrigin = new URL(attackerUrl).origin;
      const landed = shopper.waitForResponse(
        async (response) =>
          response.url().startsWith(`${store.server.url}${path}`) &&
          (await response.request().headerValue('origin')) === attackerOrigin,
      );
      await shopper.goto(attackerUrl);
      const response = await landed;
      expect(response.status()).toBe(403);
      await shopper.waitForLoadState();
      if (!path.endsWith('.data')) {
        expect(await shopper.locator('body').innerText()).toContain('veio de outro site');
      }
      expect(await context.cookies(store.server.url)).toEqual(before);
    } finally {
      await context.close();
    }
  });

  it('are refused when sent with fetch, too', async () => {
    const context = await store.browser.newContext();
    try {
      const shopper = await context.newPage();
      page = '<!doctype html><title>Promoção imperdível</title>';
      await shopper.goto(attackerUrl);
      const marker = `fetch-${Date.now()}`;
      await shopper.evaluate(
        async ({ url, marker }) => {
          const body = new URLSearchParams({ intent: 'consent', consent: 'granted' });
          // A no-cors post is the one cross-site fetch a browser sends without asking first; the
          // answer is unreadable to the page (and blocked outright by Cross-Origin-Resource-Policy).
          await fetch(`${url}/preferences?${marker}`, {
            method: 'POST',
            mode: 'no-cors',
            credentials: 'include',
            body,
          }).catch(() => undefined);
        },
        { url: store.server.url, marker },
      );
      await expect
        .poll(
          () =>
            store.server
              .output()
              .split('\n')
              .find((line) => line.includes(marker)) ?? '',
        )
        .toMatch(/"refused":"cross-site POST[^"]*".*"status":403/);
      expect(await context.cookies(store.server.url)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
