import { createHash, randomBytes, randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { orderItems, productVariants, restockRequests } from '~/db/schema';
import { RESTOCK_CONFIRM_PARAM, RESTOCK_CONFIRM_PATH } from '~/modules/catalog';
import type { OrderStatus } from '~/modules/orders';
import { orderTokenCookieHeader } from '~/modules/orders/index.server';

import { insertOrderRow } from '../support/orders';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { visibleText, Visitor, type Page } from '../support/visitor';

// Issue 36, points 1 and 6: an order's e-mailed key never stays in an address a tag could record,
// and no cache keeps a page that shows an order.

const HEADPHONES = sampleProduct('Fone de Ouvido');
const TRACKING = {
  google_analytics_id: 'G-TESTE12345',
  custom_head_scripts: '<script>window.customHeadRan = true;</script>',
};
/** The browser that placed the orders: its order token opens them without any key. */
const OWNER_TOKEN = randomBytes(32).toString('base64url');

interface Placed {
  id: string;
  key: string;
  number: string;
}
const placed = {} as Record<'pending' | 'confirmed' | 'delivered', Placed>;

async function place(db: Db, status: OrderStatus): Promise<Placed> {
  const order = await insertOrderRow(db, {
    cents: HEADPHONES.priceCents,
    status,
    orderToken: OWNER_TOKEN,
  });
  await db.insert(orderItems).values({
    orderId: order.id,
    productId: HEADPHONES.id,
    productName: HEADPHONES.name,
    productPriceCents: HEADPHONES.priceCents,
    quantity: 1,
    totalPriceCents: HEADPHONES.priceCents,
  });
  return { id: order.id, key: order.accessKey, number: `#${order.number}` };
}

/** Each page an e-mail links to (or could), with the order it opens and what it then shows. */
const LINKED_PAGES = [
  { path: '/order-confirmation', order: 'pending', shows: (o: Placed) => `Pedido ${o.number}` },
  { path: '/thank-you', order: 'confirmed', shows: () => 'Maria da Silva' },
  { path: '/avaliar', order: 'delivered', shows: () => HEADPHONES.name },
  { path: '/payment-callback', order: 'confirmed', shows: () => 'Pagamento aprovado' },
] as const;

const linkTo = (path: string, order: Placed, key = order.key) =>
  `${path}?${new URLSearchParams({ orderId: order.id, chave: key })}`;

/** A visitor with the browser's cookie of the one that placed the orders. */
async function owner(): Promise<Visitor> {
  const visitor = new Visitor(server.url);
  const { name, value } = parseCookie(await orderTokenCookieHeader(OWNER_TOKEN));
  visitor.cookies.set(name, value);
  return visitor;
}

/** The cookie's name, value and attributes, from a Set-Cookie header. */
function parseCookie(header: string) {
  const [pair = '', ...attributes] = header.split(/;\s*/);
  const at = pair.indexOf('=');
  return { name: pair.slice(0, at), value: pair.slice(at + 1), attributes };
}

/** Script elements that load the store's tags (the page's data names them too, as text). */
function tagElements(html: string): string[] {
  return [
    ...html.matchAll(/<script\b[^>]*src="(https:\/\/www\.googletagmanager\.com\/[^"]*)"/g),
    ...html.matchAll(/<script\b[^>]*>(window\.customHeadRan[^<]*)<\/script>/g),
  ].map((match) => match[1]!);
}

/** A restock alert's e-mailed confirmation link, whose page shows the shopper's e-mail. */
const RESTOCK_KEY = randomBytes(32).toString('base64url');
const restockLink = () => `${RESTOCK_CONFIRM_PATH}?${RESTOCK_CONFIRM_PARAM}=${RESTOCK_KEY}`;

async function askForRestock(db: Db): Promise<void> {
  const [variant] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, HEADPHONES.id))
    .limit(1);
  await db.insert(restockRequests).values({
    productId: HEADPHONES.id,
    variantId: variant!.id,
    email: 'avise@example.com',
    confirmTokenHash: createHash('sha256').update(RESTOCK_KEY).digest('hex'),
  });
}

let server: TestServer;

describe("an order's e-mailed key", () => {
  beforeAll(async () => {
    server = await startServer({
      settings: TRACKING,
      prepare: async (db) => {
        placed.pending = await place(db, 'pending');
        placed.confirmed = await place(db, 'confirmed');
        placed.delivered = await place(db, 'delivered');
        await askForRestock(db);
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('leaves the address for a cookie of that order before any page renders, and the page opens with it', async () => {
    for (const { path, order: which, shows } of LINKED_PAGES) {
      const order = placed[which];
      const phone = new Visitor(server.url);
      const moved = await phone.get(linkTo(path, order));
      expect(moved.status, path).toBe(303);
      expect(moved.location, path).toBe(`${path}?orderId=${order.id}`);
      expect(moved.text, path).not.toContain(order.key);
      expect(moved.headers.get('cache-control'), path).toBe('private, no-store');
      expect(moved.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      const [header, ...others] = moved.headers.getSetCookie();
      expect(others, path).toEqual([]);
      const cookie = parseCookie(header!);
      expect(cookie.name, path).toBe(`order_key_${order.id}`);
      expect(cookie.attributes.sort(), path).toEqual(
        ['HttpOnly', 'Max-Age=86400', 'Path=/', 'SameSite=Lax'].sort(),
      );

      // The page, at the address without the key, opens the order with the cookie alone.
      const page = await phone.get(moved.location!);
      expect(page.status, path).toBe(200);
      expect(visibleText(page.text), path).toContain(shows(order));
      expect(page.text, path).not.toContain(order.key);
      expect(page.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');

      // Without the cookie the same address opens nothing.
      const stranger = await new Visitor(server.url).get(moved.location!);
      expect(stranger.status, path).toBe(404);
      expect(visibleText(stranger.text), path).not.toContain('Maria da Silva');
    }
  });

  it('keeps the cookie to its own order, Secure over https, and a wrong key opens nothing', async () => {
    const { confirmed, pending } = placed;
    const overHttps = await new Visitor(server.url).get(linkTo('/thank-you', confirmed), {
      'X-Forwarded-Proto': 'https',
    });
    expect(overHttps.status).toBe(303);
    expect(parseCookie(overHttps.headers.getSetCookie()[0]!).attributes).toContain('Secure');

    // One order's key does not open another order.
    const phone = new Visitor(server.url);
    await phone.get(linkTo('/thank-you', confirmed));
    expect((await phone.get(`/thank-you?orderId=${confirmed.id}`)).status).toBe(200);
    expect((await phone.get(`/order-confirmation?orderId=${pending.id}`)).status).toBe(404);
    const crossed = await phone.get(linkTo('/order-confirmation', pending, confirmed.key));
    expect(crossed.status).toBe(303);
    expect((await phone.get(crossed.location!)).status).toBe(404);

    const guessed = new Visitor(server.url);
    const wrong = await guessed.get(linkTo('/thank-you', confirmed, randomUUID()));
    expect(wrong.status).toBe(303);
    const page = await guessed.get(wrong.location!);
    expect(page.status).toBe(404);
    expect(visibleText(page.text)).not.toContain('Maria da Silva');
  });

  it("moves the key on a client navigation's data request too, leaving no history entry", async () => {
    const { confirmed } = placed;
    const phone = new Visitor(server.url);
    const answer = await phone.get(
      `/thank-you.data?${new URLSearchParams({ orderId: confirmed.id, chave: confirmed.key })}`,
    );
    // React Router's single-fetch redirect: the client goes to the address without the key.
    expect(answer.status).toBe(202);
    expect(answer.text).toContain(`/thank-you?orderId=${confirmed.id}`);
    expect(answer.text).not.toContain(confirmed.key);
    expect(answer.headers.get('x-remix-replace')).toBe('true');
    expect(phone.cookies.has(`order_key_${confirmed.id}`)).toBe(true);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
  });

  it('pays from the page the link opened: the cookie is the proof, and a posted key still counts', async () => {
    const { pending } = placed;
    const phone = new Visitor(server.url);
    const moved = await phone.get(linkTo('/order-confirmation', pending));
    const page = await phone.get(moved.location!);
    expect(page.status).toBe(200);
    // The page carries the key nowhere: no hidden field, no link.
    expect(page.text).not.toContain(pending.key);
    const paid = await phone.post(`/order-confirmation?orderId=${pending.id}`, {
      intent: 'pay',
      orderId: pending.id,
    });
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(new RegExp(`^/order-confirmation\\?orderId=${pending.id}&`));
    expect(paid.location).not.toContain('chave');

    // A form of a page made before the key moved still posts it as `chave`.
    const older = await new Visitor(server.url).post('/order-confirmation', {
      intent: 'pay',
      orderId: pending.id,
      chave: pending.key,
    });
    expect(older.status).toBe(303);
    const nobody = await new Visitor(server.url).post('/order-confirmation', {
      intent: 'pay',
      orderId: pending.id,
    });
    expect(nobody.status).toBe(404);
  });

  it('loads none of the store’s tags on a document that opens on an order', async () => {
    const shopper = await owner();
    await shopper.post('/preferences', {
      intent: 'consent',
      consent: 'granted',
      redirectTo: '/products',
    });
    expect(shopper.cookies.has('vitrine_consent')).toBe(true);

    // The control: the catalogue carries them.
    const catalogue = await shopper.get('/products');
    expect(tagElements(catalogue.text)).toEqual([
      `https://www.googletagmanager.com/gtag/js?id=${TRACKING.google_analytics_id}`,
      'window.customHeadRan = true;',
    ]);
    for (const path of [
      `/thank-you?orderId=${placed.confirmed.id}`,
      `/order-confirmation?orderId=${placed.pending.id}`,
      `/avaliar?orderId=${placed.delivered.id}`,
      '/historico',
      '/purchasehistory',
    ]) {
      const page = await shopper.get(path);
      expect(page.status, path).toBe(200);
      expect(visibleText(page.text), path).toMatch(/#\d{4}/);
      expect(tagElements(page.text), path).toEqual([]);
    }
    // A restock alert's confirmation link carries its key too.
    const restock = await shopper.get(restockLink());
    expect(restock.status).toBe(200);
    expect(visibleText(restock.text)).toContain('avise@example.com');
    expect(tagElements(restock.text)).toEqual([]);
  });

  it('answers every page that shows an order, and its data, with private, no-store, never from the page cache', async () => {
    const visitor = await owner();
    const pages = [
      `/thank-you?orderId=${placed.confirmed.id}`,
      `/order-confirmation?orderId=${placed.pending.id}`,
      `/payment-callback?orderId=${placed.confirmed.id}`,
      `/avaliar?orderId=${placed.delivered.id}`,
      '/historico',
      '/purchasehistory',
      restockLink(),
    ];
    const answers: [string, Page][] = [];
    for (const page of pages) {
      const data = page.replace(/(\?|$)/, '.data$1');
      for (const path of [page, data, page, data]) answers.push([path, await visitor.get(path)]);
    }
    for (const [path, answer] of answers) {
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('cache-control'), path).toBe('private, no-store');
      expect(answer.headers.get('x-page-cache'), path).toBe('bypass');
    }
  });
});
