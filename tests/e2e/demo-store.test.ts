import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX_PAYMENT_PATH } from '~/components/store/order-payment';
import { openDatabase } from '~/db/database.server';
import { products } from '~/db/schema';
import { readSettings, readStoreMode } from '~/modules/settings/index.server';
import { DEMO_NOTICE } from '~/modules/settings';
import { READINESS_TEXTS } from '~/flows/store-readiness.server';
import { STORE_NOT_SELLING } from '~/modules/payments';

import { signIn, withAdmin } from '../support/admin';
import { launchBrowser, openPage, VIEWPORTS } from '../support/browser';
import { queryRows } from '../support/db';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { spawnServer, startServer, type TestServer } from '../support/server';
import { prepareStoreFolder } from '../support/store';
import { VALID_CHECKOUT, Visitor, visibleText } from '../support/visitor';

const HEADPHONES = sampleProduct('Fone de Ouvido');
const OWN_PRODUCT = { id: randomUUID(), name: 'Caneca da Loja', priceCents: 4990 };

/** Pages of every kind: storefront, content, cart, a missing page and the admin's sign-in. */
const PAGES = [
  '/',
  '/products',
  sampleProductPath(HEADPHONES.name),
  '/faq',
  '/sobre',
  '/contato',
  '/cart',
  '/nao-existe',
  '/admin/login',
];

/** What a page may promise about paying, in lower case: the sandbox takes neither of these. */
const NOT_TAKEN = ['paypal', 'débito'];

describe('a fresh production start with the sample data (npm start)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // No PAYMENT_PROVIDER: what the README's first command gives.
    server = await startServer({ firstStart: true });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is a demo: every page says so and asks search engines to stay away', async () => {
    for (const path of PAGES) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('x-robots-tag'), path).toMatch(/noindex/);
      const html = await response.text();
      expect(visibleText(html), path).toContain(DEMO_NOTICE);
      expect(html, path).toMatch(/<meta name="robots" content="noindex[^"]*"/);
    }
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toMatch(/^Disallow: \/$/m);
  });

  it('takes a purchase end to end with the sandbox', async () => {
    const shopper = new Visitor(server.url);
    await shopper.addToCart(HEADPHONES.id);
    const order = await shopper.checkout();
    expect(order.paymentId).toBeTruthy();
    const confirmation = await shopper.get(order.location);
    expect(visibleText(confirmation.text)).toContain('Modo de teste');
    const approved = await shopper.post(SANDBOX_PAYMENT_PATH, {
      intent: 'approve',
      orderId: order.orderId,
    });
    expect(approved.status).toBe(303);
    const paid = await shopper.get(approved.location!);
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/thank-you\?/);
  });
});

describe('a demo whose admin starts the real store', () => {
  let dataDir: string;
  let server: TestServer | undefined;
  let browser: Browser;
  beforeAll(async () => {
    // Every payment switch on and 12 instalments: the sandbox takes PIX, cards and boleto.
    dataDir = await prepareStoreFolder(
      { max_installments: 12, enable_paypal: true },
      withAdmin(async (db) => {
        await db.insert(products).values({ ...OWN_PRODUCT, stockQuantity: 10 });
      }),
    );
    [server, browser] = await Promise.all([startServer({ dataDir }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('names the cards, boleto and instalments the sandbox takes, never PayPal or a debit card', async () => {
    for (const path of ['/', '/faq', '/sobre', sampleProductPath('Monitor')]) {
      const text = visibleText(await (await fetch(`${server!.url}${path}`)).text()).toLowerCase();
      for (const word of NOT_TAKEN) expect(text, `${path}: ${word}`).not.toContain(word);
      expect(text, path).toContain('12x');
    }
    const { page } = await openPage(browser, `${server!.url}/`);
    expect(await page.getByTestId('footer-payments').getByRole('listitem').allInnerTexts()).toEqual(
      ['PIX', 'Cartão de crédito', 'Boleto'],
    );
    await page.context().close();
  });

  it('takes a card in instalments and a boleto, each tried on the order page in test mode', async () => {
    const cardBuyer = new Visitor(server!.url);
    await cardBuyer.addToCart(HEADPHONES.id);
    // R$ 299,90: 12 instalments of at least R$ 5,00, tried without any card.
    const offered = visibleText((await cardBuyer.get('/checkout')).text);
    expect(offered).toMatch(/Cartão de crédito\s*:\s*R\$\s*299,90 em até 12x/);
    expect(offered).toContain('Modo de teste: nenhum cartão é pedido');
    const card = await cardBuyer.checkout({
      ...VALID_CHECKOUT,
      customerCpf: cardBuyer.cpf,
      paymentMethod: 'credit_card',
    });
    const cardPage = await cardBuyer.get(card.location);
    expect(visibleText(cardPage.text)).toContain('Pagamento com cartão');
    expect(visibleText(cardPage.text)).toContain('Modo de teste');
    expect(cardPage.text.match(/<option value="\d+"/g)).toHaveLength(12);
    const approved = await cardBuyer.post(SANDBOX_PAYMENT_PATH, {
      intent: 'approve',
      orderId: card.orderId,
      parcelas: '12',
    });
    expect(approved.status).toBe(303);
    expect((await cardBuyer.get(approved.location!)).location).toMatch(/^\/thank-you\?/);

    const boletoBuyer = new Visitor(server!.url);
    await boletoBuyer.addToCart(HEADPHONES.id);
    const boleto = await boletoBuyer.checkout({
      ...VALID_CHECKOUT,
      customerCpf: boletoBuyer.cpf,
      paymentMethod: 'boleto',
    });
    const boletoPage = visibleText((await boletoBuyer.get(boleto.location)).text);
    expect(boletoPage).toContain('Pagamento com boleto');
    expect(boletoPage).toContain('O pedido fica reservado até');
    const paid = await boletoBuyer.post(SANDBOX_PAYMENT_PATH, {
      intent: 'approve',
      orderId: boleto.orderId,
    });
    expect((await boletoBuyer.get(paid.location!)).location).toMatch(/^\/thank-you\?/);
  });

  it('deletes the sample data for good, shows no notice, and stops the sandbox', async () => {
    const url = server!.url;
    // A test order, with its e-mail waiting in the outbox.
    const shopper = new Visitor(url);
    await shopper.addToCart(HEADPHONES.id);
    await shopper.checkout();

    const { page } = await openPage(browser, `${url}/admin`);
    await signIn(page, url);
    expect(await page.getByTestId('demo-notice').innerText()).toBe(DEMO_NOTICE);
    await page.getByRole('button', { name: 'Começar loja real' }).click();
    const dialog = page.getByRole('dialog', { name: 'Começar loja real?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Começar loja real' }).click();
    await page.getByText('Loja real começada').waitFor();
    await page.getByRole('button', { name: 'Começar loja real' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('demo-notice').count()).toBe(0);
    // At the dashboard's top, on a phone too, what is missing for a real sale, each item a link
    // to where it is fixed: first a payment provider, then the identity the samples took away.
    await page.setViewportSize(VIEWPORTS.mobile);
    const missing = page.getByRole('region', { name: 'Falta para vender' });
    const links = missing.getByRole('listitem').getByRole('link');
    expect(await links.first().innerText()).toBe(READINESS_TEXTS.chooseProvider);
    expect(await links.first().getAttribute('href')).toBe('/admin/payments');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );
    await missing.getByRole('link', { name: READINESS_TEXTS.legalName }).click();
    await page.waitForURL(`${url}/admin/settings?aba=contato#setting-legal_name`);
    await page.getByLabel('Razão social', { exact: true }).waitFor();
    await page.context().close();

    // The storefront at once: no notice; with no payment to take, it says it is not selling yet
    // and keeps search engines away.
    const home = await fetch(url);
    expect(home.headers.get('x-robots-tag')).toBeNull();
    const html = await home.text();
    expect(visibleText(html)).not.toContain(DEMO_NOTICE);
    expect(html).toMatch(/<meta name="robots" content="noindex/);
    const buyer = new Visitor(url);
    await buyer.addToCart(OWN_PRODUCT.id);
    expect(visibleText((await buyer.get('/checkout')).text)).toContain(STORE_NOT_SELLING);
    const refused = await buyer.post('/checkout', {
      ...VALID_CHECKOUT,
      idempotencyKey: randomUUID(),
    });
    expect(refused.status).toBe(409);

    // The tables, once the server let go of the folder.
    expect(await server!.stop()).toBe(0);
    server = undefined;
    const database = await openDatabase({ dataDir });
    try {
      const [left] = await queryRows<Record<string, number>>(
        database.db,
        sql`select (select count(*)::int from categories) as categories,
                   (select count(*)::int from products) as products,
                   (select count(*)::int from reviews) as reviews,
                   (select count(*)::int from orders) as orders,
                   (select count(*)::int from sandbox_payments) as sandbox_payments,
                   (select count(*)::int from outbox where payload ? 'orderId') as order_jobs,
                   (select count(*)::int from admin_users) as admins`,
      );
      expect(left).toEqual({
        categories: 0,
        products: 1,
        reviews: 0,
        orders: 0,
        sandbox_payments: 0,
        order_jobs: 0,
        admins: 1,
      });
      expect(await readStoreMode(database.db)).toBe('live');
      const settings = await readSettings(database.db);
      expect([settings.legal_name, settings.cnpj, settings.contact_email]).toEqual(['', '', '']);
    } finally {
      await database.close();
    }

    // A live store never starts with the sandbox in production.
    const refusedStart = spawnServer({ dataDir, env: { PAYMENT_PROVIDER: 'sandbox' } });
    expect(await refusedStart.exited).not.toBe(0);
    expect(refusedStart.output()).toContain('PAYMENT_PROVIDER');
  });
});

describe('a live store created without the sample data', () => {
  it('refuses to start in production with PAYMENT_PROVIDER=sandbox, naming the variable', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'vitrine-e2e-'));
    try {
      const started = spawnServer({
        dataDir: folder,
        env: { SEED: 'false', NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' },
      });
      expect(await started.exited).not.toBe(0);
      expect(started.output()).toMatch(/"level":60[^\n]*PAYMENT_PROVIDER/);
      expect(started.output()).not.toContain('Vitrine no ar em');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
