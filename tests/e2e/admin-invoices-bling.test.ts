import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { productVariants } from '~/db/schema';
import { changeOrderStatusBy } from '~/flows/order-changes.server';
import { placeOrder } from '~/flows/place-order.server';
import { getOrder } from '~/modules/orders/index.server';
import { defaultSettings } from '~/modules/settings';

import { ADMIN, adminVisitor, signedInPage, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser } from '../support/browser';
import { startFakeBling, type FakeBling } from '../support/fake-bling';
import { sampleProduct } from '../support/sample';
import { START_BUDGET_MS, startServer, type TestServer } from '../support/server';
import { shopperAddress } from '../support/shoppers';
import { until } from '../support/until';
import { shopperCheckout } from '../support/visitor';

const CLIENT_ID = 'e2e-bling-client-5107';
const CLIENT_SECRET = 'e2e-bling-secret-4d1f9a0c77';
const HEADPHONES = sampleProduct('Fone de Ouvido');
const REJECTION = 'Rejeição 778: Informado NCM inexistente';

interface Placed {
  orderId: string;
  number: string;
}

/** A shopper's order through checkout's own flow; paid (by the provider) when asked. */
async function order(db: Db, paid: boolean): Promise<Placed> {
  const placed = await placeOrder(
    db,
    {
      form: shopperCheckout({ customerCpf: '52998224725' }),
      cart: [
        {
          productId: HEADPHONES.id,
          variantId: null,
          quantity: 1,
          seenPriceCents: HEADPHONES.priceCents,
          seenName: HEADPHONES.name,
        },
      ],
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      settings: defaultSettings(),
    },
    { tracking: false },
  );
  if (!placed.ok) throw new Error(`Order refused: ${JSON.stringify(placed)}`);
  if (paid) {
    const confirmed = await changeOrderStatusBy(
      db,
      { orderId: placed.orderId, to: 'confirmed', trackingCode: null, by: { actor: 'Pagamento' } },
      { tracking: false },
    );
    if (!confirmed.ok) throw new Error(confirmed.error);
  }
  const view = await getOrder(db, placed.orderId);
  return { orderId: placed.orderId, number: view!.number };
}

/** The first .eml in the server's mail folder holding every needle, soft line breaks undone. */
function emailWith(server: TestServer, ...needles: string[]) {
  return until(
    async () => {
      const folder = join(server.dataDir, 'mail');
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names) {
        const text = (await readFile(join(folder, name), 'utf8')).replace(/=\r?\n/g, '');
        if (needles.every((needle) => text.includes(needle))) return text;
      }
      return undefined;
    },
    `an e-mail containing ${needles.join(', ')}`,
  );
}

describe('admin: notas fiscais through Bling', () => {
  let fake: FakeBling;
  let server: TestServer;
  let browser: Browser;
  let sku = '';
  let pending: Placed;
  let rejected: Placed;
  const batch: Placed[] = [];

  beforeAll(async () => {
    fake = await startFakeBling({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      rateLimitPerSecond: 200,
    });
    [server, browser] = await Promise.all([
      startServer({
        env: { PAYMENT_PROVIDER: 'sandbox', BLING_API_URL: fake.url },
        prepare: withAdmin(async (db) => {
          const [variant] = await db
            .select({ sku: productVariants.sku })
            .from(productVariants)
            .where(eq(productVariants.productId, HEADPHONES.id));
          sku = variant!.sku;
          for (let i = 0; i < 20; i++) batch.push(await order(db, true));
          // The newest, first on the list's first page.
          pending = await order(db, false);
          rejected = await order(db, true);
        }),
        settings: { store_name: 'Loja Notas' },
      }),
      launchBrowser(),
    ]);
    fake.addProduct(sku, HEADPHONES.name);
    fake.redirectUri = `${server.url}/admin/integrations/bling/callback`;
  }, START_BUDGET_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  /** The order's page, read again until its NF-e box says `text`. */
  async function orderSays(page: Page, orderId: string, testId: string, text: string) {
    await until(
      async () => {
        await page.goto(`${server.url}/admin/orders/${orderId}`, { waitUntil: 'networkidle' });
        const box = page.getByTestId(testId);
        return (await box.count()) && ((await box.textContent()) ?? '').includes(text)
          ? true
          : undefined;
        // A job retried by the outbox comes back after its first backoff (10 s).
      },
      `order ${orderId} showing ${text}`,
      40_000,
    );
  }

  it('connects, sends a paid order once, issues, rejects and retries notas, renews the token once', async () => {
    // Signed in over HTTP: the form's journey is admin-auth.test.ts's.
    const { page, problems } = await signedInPage(browser, server.url, '/admin/integrations');
    await page.getByLabel('Client Id').fill(CLIENT_ID);
    await page.getByLabel('Client Secret').fill(CLIENT_SECRET);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByTestId('bling-status').getByText('Bling não conectado.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Authorize at Bling and come back.
    await page.getByRole('link', { name: 'Conectar ao Bling' }).click();
    await page.getByRole('link', { name: 'Autorizar' }).click();
    await page.waitForURL(`${server.url}/admin/integrations`);
    await page
      .getByTestId('bling-status')
      .getByText(/Bling conectado/)
      .waitFor();
    expect(fake.tokenGrants.authorization_code).toBe(1);
    // The secret and the tokens never reach a page or its data.
    const admin = await adminVisitor(server.url, ADMIN);
    for (const path of ['/admin/integrations', '/admin/integrations.data']) {
      const text = (await admin.get(path)).text;
      expect(text).not.toContain(CLIENT_SECRET);
    }

    // Paid now, with Bling's first answer lost: one sales order all the same.
    fake.dropNextOrderAnswer();
    await page.goto(`${server.url}/admin/orders/${pending.orderId}`, { waitUntil: 'networkidle' });
    await page.getByLabel('Novo status').selectOption('confirmed');
    await page.getByRole('button', { name: 'Atualizar status' }).click();
    await orderSays(page, pending.orderId, 'order-invoice', 'Enviado (nº');
    expect(fake.orders.filter((each) => `#${each.numeroLoja}` === pending.number)).toHaveLength(1);

    // 'Emitir NF-e': authorized, with its number, key and DANFE, and the shopper's e-mail.
    await page.getByRole('button', { name: 'Emitir NF-e' }).click();
    await orderSays(page, pending.orderId, 'invoice-state', 'Autorizada');
    const key = ((await page.getByTestId('invoice-key').textContent()) ?? '').replace(/\s/g, '');
    expect(key).toMatch(/^\d{44}$/);
    expect(await page.getByTestId('danfe-link').getAttribute('href')).toMatch(/\/danfe\/\d+\.pdf$/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await emailWith(server, `Nota fiscal do pedido ${pending.number}`, key.slice(0, 4));

    // A rejected note: SEFAZ's reason on the order and the dashboard, then 'Tentar de novo'.
    await admin.post(`/admin/orders/${rejected.orderId}`, { intent: 'erp-send' });
    await orderSays(page, rejected.orderId, 'order-invoice', 'Enviado (nº');
    // Asked for from the list, the order ticked there.
    fake.rejectNextInvoice(REJECTION);
    await page.goto(`${server.url}/admin/orders`, { waitUntil: 'networkidle' });
    await page
      .getByRole('checkbox', { name: `Selecionar pedido ${rejected.number} para gerar etiqueta` })
      .check();
    await page.getByRole('button', { name: 'Emitir NF-e' }).click();
    await page.getByText('Emissão da NF-e solicitada.').first().waitFor();
    await orderSays(page, rejected.orderId, 'invoice-reason', REJECTION);
    await page.goto(`${server.url}/admin`, { waitUntil: 'networkidle' });
    expect(await page.getByTestId('invoice-alerts').textContent()).toContain(REJECTION);
    await page.goto(`${server.url}/admin/orders/${rejected.orderId}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Tentar de novo' }).click();
    await orderSays(page, rejected.orderId, 'invoice-state', 'Autorizada');

    // Twenty orders sent at once after Bling let the token go: it is renewed once.
    fake.expireAccessTokens();
    const refreshes = fake.tokenGrants.refresh_token;
    const sent = await Promise.all(
      batch.map((each) => admin.post(`/admin/orders/${each.orderId}`, { intent: 'erp-send' })),
    );
    expect(sent.every((answer) => answer.status === 303 || answer.status === 200)).toBe(true);
    await until(
      async () =>
        batch.every((each) => fake.orders.some((made) => `#${made.numeroLoja}` === each.number))
          ? true
          : undefined,
      'the twenty orders at Bling',
      40_000,
    );
    expect(fake.tokenGrants.refresh_token - refreshes).toBe(1);
    expect(problems).toEqual([]);

    // Neither the client secret nor any token Bling handed out, in a page, its data or the log.
    const secrets = [CLIENT_SECRET, ...fake.issuedTokens];
    expect(fake.issuedTokens.length).toBeGreaterThanOrEqual(4);
    for (const path of [
      '/admin/integrations',
      '/admin/integrations.data',
      `/admin/orders/${rejected.orderId}`,
      '/admin',
    ]) {
      const text = (await admin.get(path)).text;
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    for (const secret of secrets) expect(server.output()).not.toContain(secret);
  }, 150_000);
});
