import { execFileSync } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { openDatabase } from '~/db/database.server';
import { orderItems, orders, products } from '~/db/schema';

import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor } from '../support/visitor';
import { prepareStoreFolder } from '../support/store';

const ROOT = new URL('../../', import.meta.url).pathname;
// R$ 299,90.
const HEADPHONES = sampleProduct('Fone de Ouvido');
const STOCK = 100_000;
const SHOPPERS = 20;

describe('orders survive kill -9', () => {
  let dataDir: string | undefined;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every order the server acknowledged, with its items and its stock reserved', async () => {
    dataDir = await prepareStoreFolder({}, async (db) => {
      await db.update(products).set({ stockQuantity: STOCK }).where(eq(products.id, HEADPHONES.id));
    });
    const env = { PAYMENT_PROVIDER: 'sandbox', CHECKOUT_RATE_LIMIT: '1000000' };
    const server = await startServer({ dataDir, env });

    // Shoppers buy as fast as they can; each acknowledged order (a 303 to its page) is noted.
    const acknowledged: string[] = [];
    let stop = false;
    const shop = async () => {
      while (!stop) {
        const shopper = new Visitor(server.url);
        try {
          await shopper.addToCart(HEADPHONES.id, 1);
          acknowledged.push((await shopper.checkout()).orderId);
        } catch {
          // The server died under this request: nothing was acknowledged.
          return;
        }
      }
    };
    const shoppers = Array.from({ length: SHOPPERS }, shop);
    while (acknowledged.length < 30) await new Promise((resolve) => setTimeout(resolve, 50));
    server.child.kill('SIGKILL');
    await server.exited;
    stop = true;
    await Promise.all(shoppers);

    // The same data folder starts again at once: the dead process's lock is taken over.
    const restarted: TestServer = await startServer({ dataDir, env });
    expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200);
    await restarted.stop();

    const database = await openDatabase({ dataDir });
    try {
      const found = await database.db
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .where(inArray(orders.id, acknowledged));
      expect(found.map((order) => order.id).sort()).toEqual([...acknowledged].sort());
      const items = await database.db
        .select({ orderId: orderItems.orderId, quantity: orderItems.quantity })
        .from(orderItems)
        .where(inArray(orderItems.orderId, acknowledged));
      expect(new Set(items.map((item) => item.orderId)).size).toBe(acknowledged.length);
      // Every unit in an order that survived is out of stock, and no other unit is.
      const [sold] = await database.db
        .select({ units: sql<number>`coalesce(sum(${orderItems.quantity}), 0)::int` })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .where(eq(orders.status, 'pending'));
      const [product] = await database.db
        .select({ stock: products.stockQuantity })
        .from(products)
        .where(eq(products.id, HEADPHONES.id));
      expect(product!.stock).toBe(STOCK - sold!.units);
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('secrets', () => {
  const SECRETS = {
    PAYMENT_GATEWAY_SECRET_KEY: 'sk_live_canary_3f9a1c77e2',
    UTMIFY_API_TOKEN: 'utm_canary_token_8d21b0',
    SMTP_URL: 'smtp://loja:smtp_canary_pass_55e1@127.0.0.1:2525',
  };
  const needles = ['sk_live_canary_3f9a1c77e2', 'utm_canary_token_8d21b0', 'smtp_canary_pass_55e1'];
  let buildDir: string | undefined;
  afterAll(async () => {
    if (buildDir) await rm(join(ROOT, buildDir), { recursive: true, force: true });
  });

  async function filesUnder(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  }

  it('never reach the browser build, even when the build runs with them set', async () => {
    buildDir = `build-secrets-${process.pid}`;
    execFileSync(process.execPath, ['node_modules/@react-router/dev/bin.js', 'build'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...SECRETS,
        PAYMENT_PROVIDER: 'gateway',
        PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9',
        VITRINE_BUILD_DIR: buildDir,
      },
      stdio: 'pipe',
    });
    const files = await filesUnder(join(ROOT, buildDir, 'client'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = await readFile(file, 'latin1');
      for (const needle of needles)
        expect(text.includes(needle), `${needle} in ${file}`).toBe(false);
    }
  }, 180_000);

  it('never reach a page, the checkout or its data requests', async () => {
    const server = await startServer({
      env: {
        ...SECRETS,
        PAYMENT_PROVIDER: 'gateway',
        PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9',
        PUBLIC_URL: 'https://loja.test',
      },
    });
    try {
      const shopper = new Visitor(server.url);
      await shopper.addToCart(HEADPHONES.id, 1);
      const pages = [
        '/',
        '/products',
        `/product/${HEADPHONES.id}`,
        '/checkout',
        '/cart',
        '/historico',
      ];
      for (const path of pages) {
        for (const url of [path, `${path === '/' ? '/_root' : path}.data`]) {
          const text = await (await fetch(new URL(url, server.url))).text();
          for (const needle of needles)
            expect(text.includes(needle), `${needle} in ${url}`).toBe(false);
        }
      }
      // The gateway is unreachable: the order stays pending and the answer carries no key.
      await expect(shopper.checkout()).resolves.toMatchObject({ paymentId: null });
    } finally {
      await server.stop();
    }
    for (const needle of needles) expect(server.output()).not.toContain(needle);
  }, 60_000);
});
