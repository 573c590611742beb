import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { READINESS_TEXTS } from '~/flows/store-readiness.server';
import { STORE_NOT_SELLING } from '~/modules/payments';
import type { StoreSettings } from '~/modules/settings';
import { SETTINGS_FORM_FIELDS, settingsFormValues } from '~/modules/settings/index.admin';
import { readSettings } from '~/modules/settings/index.server';

import { adminVisitor, withAdmin } from '../support/admin';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { VALID_CHECKOUT, Visitor, visibleText, type Page } from '../support/visitor';

// Issue 35, 'Falta para vender': a live store that cannot take a payment (PIX chosen, without its
// key) says so at start, to staff, to shoppers where buying starts and to search engines; once
// staff fill in the PIX key, name and city, the next request of every page sells again.
const HEADPHONES = sampleProduct('Fone de Ouvido');
const PRODUCT_PATH = sampleProductPath(HEADPHONES.name);
const PAGES = ['/', '/products', PRODUCT_PATH, '/faq', '/cart', '/nao-existe'];
const PIX = {
  pix_key: 'contato@techstore.com.br',
  pix_merchant_name: 'TechStore',
  pix_merchant_city: 'Sao Paulo',
};

/** The product page's 'Comprar agora' and 'Adicionar ao carrinho'. */
const BUY_BUTTON = /<button[^>]*value="(buy|add)"/;

const robots = (page: Page) => /<meta name="robots" content="([^"]*)"/.exec(page.text)?.[1];

describe('a live store whose PIX has no key yet', () => {
  let server: TestServer;
  /** The settings the store started with: the settings form sends them back whole. */
  let started: StoreSettings;

  beforeAll(async () => {
    server = await startServer({
      mode: 'live',
      env: { PAYMENT_PROVIDER: 'pix' },
      prepare: withAdmin(async (db) => {
        started = await readSettings(db);
      }),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('warns at start that no payment can be taken, naming what is missing', () => {
    const line = server
      .output()
      .split('\n')
      .find((each) => each.includes('Nenhum pagamento pode ser recebido'));
    expect(line).toBeDefined();
    const logged = JSON.parse(line!) as { level: number; provider: string; missing: string[] };
    expect(logged.level).toBe(40);
    expect(logged.provider).toBe('pix');
    expect(logged.missing[0]).toBe('pix-details');
    expect(server.output()).not.toContain('Pagamentos prontos');
  });

  it('asks search engines to stay away from every page, robots.txt included', async () => {
    const visitor = new Visitor(server.url);
    for (const path of PAGES) {
      expect(robots(await visitor.get(path)), path).toMatch(/^noindex/);
    }
    const robotsTxt = await visitor.get('/robots.txt');
    expect(robotsTxt.text).toMatch(/^Disallow: \/$/m);
  });

  it('says it is not selling yet where buying starts, with its contacts, and refuses an order', async () => {
    const shopper = new Visitor(server.url);
    const product = await shopper.get(PRODUCT_PATH);
    expect(visibleText(product.text)).toContain(STORE_NOT_SELLING);
    expect(visibleText(product.text)).toContain('atendimento@techstore.com.br');
    expect(product.text).not.toMatch(BUY_BUTTON);
    // The cards lead to the product's page instead of adding to the cart.
    const home = await shopper.get('/');
    expect(home.text).not.toContain('data-testid="card-add"');
    expect(home.text).toContain('data-testid="card-view"');

    // A cart filled before (or by an old page) leads nowhere either.
    await shopper.addToCart(HEADPHONES.id);
    const cart = await shopper.get('/cart');
    expect(visibleText(cart.text)).toContain(STORE_NOT_SELLING);
    expect(cart.text).not.toContain('href="/checkout"');
    const checkout = await shopper.get('/checkout');
    expect(robots(checkout)).toMatch(/^noindex/);
    expect(visibleText(checkout.text)).toContain(STORE_NOT_SELLING);
    expect(checkout.text).not.toContain('name="idempotencyKey"');
    const refused = await shopper.post('/checkout', {
      ...VALID_CHECKOUT,
      customerCpf: shopper.cpf,
      idempotencyKey: randomUUID(),
    });
    expect(refused.status).toBe(409);
    expect(visibleText(refused.text)).toContain(STORE_NOT_SELLING);
  });

  it('lists on the dashboard what is missing, each a link to where it is fixed', async () => {
    const admin = await adminVisitor(server.url);
    const dashboard = await admin.get('/admin');
    const text = visibleText(dashboard.text);
    expect(text).toContain('Falta para vender');
    expect(text).toContain(READINESS_TEXTS.pixDetails);
    expect(dashboard.text).toContain('href="/admin/settings?aba=avancado#setting-pix_key"');
    expect(text).not.toContain(READINESS_TEXTS.legalName);
  });

  it('sells on the next request once the PIX key, name and city are saved', async () => {
    const shopper = new Visitor(server.url);
    await shopper.get(PRODUCT_PATH);
    // Kept by the page cache while nothing changes.
    expect((await shopper.get(PRODUCT_PATH)).headers.get('x-page-cache')).toBe('hit');

    const admin = await adminVisitor(server.url);
    const values: Record<string, string> = { ...settingsFormValues(started), ...PIX };
    const form = SETTINGS_FORM_FIELDS.filter(
      (spec) => spec.kind !== 'checkbox' || values[spec.key] !== '',
    ).map((spec): [string, string] => [spec.key, values[spec.key] ?? '']);
    expect((await admin.post('/admin/settings', form)).status).toBe(303);

    const product = await shopper.get(PRODUCT_PATH);
    expect(product.headers.get('x-page-cache')).not.toBe('hit');
    expect(visibleText(product.text)).not.toContain(STORE_NOT_SELLING);
    expect(product.text).toMatch(BUY_BUTTON);
    for (const path of ['/', '/products', PRODUCT_PATH, '/faq']) {
      expect(robots(await shopper.get(path)), path).toBe('index, follow');
    }
    expect((await shopper.get('/robots.txt')).text).not.toMatch(/^Disallow: \/$/m);
    await shopper.addToCart(HEADPHONES.id);
    expect((await shopper.get('/cart')).text).toContain('href="/checkout"');
    const order = await shopper.checkout();
    expect(order.paymentId).toBe(`pix-${order.orderId}`);
    const dashboard = visibleText((await admin.get('/admin')).text);
    expect(dashboard).not.toContain(READINESS_TEXTS.pixDetails);
  });
});
