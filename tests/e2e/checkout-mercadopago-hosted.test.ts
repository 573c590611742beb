import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

import { launchBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { startFakeMercadoPago, type FakeMercadoPago } from '../support/fake-mercadopago';
import { freePort } from '../support/ports';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { Visitor } from '../support/visitor';

const TOKEN = 'APP_USR-hosted-e2e-7c41d9';
const SECRET = 'whsec-hosted-e2e-2b8f60';

// R$ 299,90 each; flat shipping R$ 15,00; 10% off by PIX only.
const HEADPHONES = sampleProduct('Fone de Ouvido');
// R$ 249,90, 5 in stock: only the boleto below holds some, so its stock reads exactly.
const HEADSET = sampleProduct('Headset Gamer');
const HEADSET_STOCK = HEADSET.stockQuantity ?? 0;

const CALLBACK_URL = /\/payment-callback\?/;
const THANK_YOU_URL = /\/thank-you\?/;
const CONFIRMATION_URL = /\/order-confirmation\?/;

const brl = (cents: number) =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })
    .format(cents / 100)
    .replace(/\s/g, ' ');
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('cards and boleto on Mercado Pago’s checkout (360 px)', () => {
  let fake: FakeMercadoPago;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    fake = await startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: SECRET });
    // Notifications go to PUBLIC_URL: the server listens where the fake can reach it.
    const port = await freePort();
    [server, browser] = await Promise.all([
      startServer({
        mode: 'live',
        env: {
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          PAYMENT_PROVIDER: 'mercadopago',
          MERCADOPAGO_API_URL: fake.url,
          MERCADOPAGO_ACCESS_TOKEN: TOKEN,
          MERCADOPAGO_WEBHOOK_SECRET: SECRET,
          CEP_SERVICE_URL: 'http://127.0.0.1:9',
          CHECKOUT_RATE_LIMIT: '100',
        },
        settings: {
          shipping_mode: 'flat_rate',
          default_shipping_cost_cents: 1500,
          free_shipping_threshold_cents: 0,
          pix_discount_percent: 10,
          max_installments: 6,
          min_installment_cents: 1000,
          enable_credit_card: true,
          enable_boleto: true,
        },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  function contextOptions(options: BrowserContextOptions = {}): BrowserContextOptions {
    return {
      viewport: VIEWPORTS.mobile,
      locale: 'pt-BR',
      extraHTTPHeaders: { 'X-Forwarded-For': shopperAddress() },
      ...options,
    };
  }

  /** A shopper's page with this product in the cart, on the checkout, the form filled in. */
  async function atCheckout(productId: string, options: BrowserContextOptions = {}) {
    const context = await browser.newContext(contextOptions(options));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    const added = await page.request.post(`${server.url}/cart`, {
      form: { intent: 'add', productId, quantity: '1' },
      maxRedirects: 0,
    });
    expect([200, 303]).toContain(added.status());
    await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
    if (options.javaScriptEnabled !== false) await waitForHydration(page);
    const form = page.locator('form[action="/checkout"]');
    const field = (label: string) => form.getByLabel(label, { exact: true });
    const cpf = shopperCpf();
    await field('Nome completo').fill('Ana Maria Souza');
    await field('E-mail').fill(`ana.${cpf.replace(/\D/g, '')}@example.com`);
    await field('CPF').fill(cpf);
    await field('Telefone').fill('(11) 98765-4321');
    await field('Rua').fill('Avenida Paulista');
    await field('Número').fill('1578');
    await field('Bairro').fill('Bela Vista');
    await field('Cidade').fill('São Paulo');
    await field('Estado').selectOption('SP');
    await field('CEP').fill('01310-100');
    return { page, form, problems };
  }

  /** Mercado Pago's checkout page, where the store's checkout sends the shopper. */
  async function atMercadoPago(page: Page, problems: string[]) {
    await page
      .waitForURL((url) => url.href.startsWith(`${fake.url}/checkout/v1/redirect`))
      .catch(async (error: unknown) => {
        const said = await page.getByRole('alert').allInnerTexts();
        throw new Error(`Still at ${page.url()}: ${[...said, ...problems].join(' | ')}`, {
          cause: error,
        });
      });
  }

  const summaryTotal = (page: Page) =>
    page.getByRole('region', { name: 'Resumo do pedido' }).getByTestId('summary-total');

  it('pays by card in 6 instalments on Mercado Pago and comes back to the thank-you page', async () => {
    const { page, form, problems } = await atCheckout(HEADPHONES.id);
    const pixTotal = Math.round(HEADPHONES.priceCents * 0.9) + 1500;
    const cardTotal = HEADPHONES.priceCents + 1500;
    // Each way to pay says what the order costs paid that way; the summary follows the choice.
    const card = form.getByRole('radio', { name: /Cartão de crédito/ });
    expect(
      squeeze(await form.locator('label').filter({ hasText: 'Cartão de crédito' }).innerText()),
    ).toContain(`${brl(cardTotal)} em até 6x`);
    expect(squeeze(await summaryTotal(page).innerText())).toBe(brl(pixTotal));
    await card.check();
    await expect
      .poll(async () => squeeze(await summaryTotal(page).innerText()))
      .toBe(brl(cardTotal));

    await form.getByRole('button', { name: 'Finalizar pedido' }).click();
    await atMercadoPago(page, problems);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );
    await page.getByLabel('Parcelas').selectOption('6');
    await page.getByRole('button', { name: 'Pagar com cartão' }).click();
    await page.waitForURL(CALLBACK_URL);
    await page.waitForURL(THANK_YOU_URL, { timeout: 15_000 });
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toMatch(/Obrigad/);

    const orderId = new URL(page.url()).searchParams.get('orderId')!;
    const [payment] = [...fake.payments.values()].filter(
      (one) => one.external_reference === orderId,
    );
    expect(payment).toMatchObject({ status: 'approved', installments: 6 });
    // Mercado Pago was asked for the card price, without the PIX discount.
    const preference = [...fake.preferences.values()].find(
      (one) => one.external_reference === orderId,
    );
    expect(Math.round(preference!.items[0]!.unit_price * 100)).toBe(cardTotal);
    expect(preference!.payment_methods.installments).toBe(6);
    // The order is paid: the shopper's history says so.
    const history = await page.request.get(`${server.url}/historico`);
    expect(squeeze(await history.text())).toContain('Pago');
    expect(problems).toEqual([]);
  });

  it('issues a boleto without JavaScript; when it expires unpaid, the order is cancelled and its stock returns', async () => {
    const visitor = new Visitor(server.url);
    expect(await visitor.stockOf(HEADSET.id)).toBe(HEADSET_STOCK);
    const { page, form, problems } = await atCheckout(HEADSET.id, { javaScriptEnabled: false });
    await form.getByRole('radio', { name: /Boleto/ }).check();
    await form.getByRole('button', { name: 'Finalizar pedido' }).click();
    await atMercadoPago(page, problems);
    expect(await page.getByLabel('Parcelas').count()).toBe(0);
    await page.getByRole('button', { name: 'Gerar boleto' }).click();
    await page.waitForURL(CALLBACK_URL);
    const orderId = new URL(page.url()).searchParams.get('orderId')!;
    // Waiting for the bank: the callback sends the shopper to the order, with the boleto.
    await page.waitForURL(CONFIRMATION_URL, { timeout: 15_000 });
    await expect.poll(() => page.getByTestId('offsite-payment').innerText()).toBe('Abrir boleto');
    expect(await visitor.stockOf(HEADSET.id)).toBe(HEADSET_STOCK - 1);

    const [boleto] = [...fake.payments.values()].filter(
      (one) => one.external_reference === orderId,
    );
    expect(boleto).toMatchObject({ status: 'pending', payment_type_id: 'ticket' });
    // Its page is the one the shopper's button opens.
    expect(await page.getByTestId('offsite-payment').getAttribute('href')).toBe(
      boleto!.transaction_details.external_resource_url,
    );

    await fake.expire(String(boleto!.id));
    await expect.poll(() => visitor.stockOf(HEADSET.id)).toBe(HEADSET_STOCK);
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.getByRole('heading', { name: 'Pedido cancelado' }).count()).toBe(1);
  });
});
