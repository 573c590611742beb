import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { adminVisitor, withAdmin } from '../support/admin';
import { launchBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { startFakeCepServer, type FakeCepServer } from '../support/fake-cep';
import {
  makeTestPki,
  startFakePixApi,
  type FakePixApi,
  type TestPki,
} from '../support/fake-pix-api';
import { freePort } from '../support/ports';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { orderNumberIn, VALID_CHECKOUT, visibleText } from '../support/visitor';

// Issue 40 end to end: a live store with PAYMENT_PROVIDER=pix-api, the API Pix simulator on
// mutual TLS (its certificates made in this file), and a shopper on a phone. Orders confirm
// with no staff action: by the bank's webhook; with the webhook off, by the reconciliation job;
// a PIX of the wrong amount is flagged to staff and the order waits. Rules and refusals are
// proved in tests/db/pix-api.test.ts.
const CLIENT_ID = 'Client_Id_e2e_40';
const CLIENT_SECRET = 'Client_Secret_e2e_40_7f3c9a1b2d';
const PIX_KEY = 'financeiro@loja.test';
const BUILD_DIR = process.env.VITRINE_BUILD_DIR || 'build';
// The job's interval, short for the test; the journey waits a few of them at most.
const RECONCILE_SECONDS = 3;
const CONFIRMATION_URL = /\/order-confirmation\?/;
const THANK_YOU_URL = /\/thank-you\?/;
// The page polls every 5 s: one poll and its answer, with room for a busy machine.
const ONE_POLL_MS = 10_000;

const HEADPHONES = sampleProduct('Fone de Ouvido');
const PAULISTA_CEP = '01310100';
const PAULISTA = {
  logradouro: 'Avenida Paulista',
  bairro: 'Bela Vista',
  localidade: 'São Paulo',
  uf: 'SP',
};

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('PIX through the bank’s API Pix (live store)', () => {
  let pki: TestPki;
  let bank: FakePixApi;
  let cep: FakeCepServer;
  let server: TestServer;
  let browser: Browser;
  const answers: string[] = [];
  const reads: Promise<void>[] = [];

  beforeAll(async () => {
    pki = await makeTestPki();
    [bank, cep] = await Promise.all([
      startFakePixApi({ pki, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
      startFakeCepServer({ [PAULISTA_CEP]: PAULISTA }),
    ]);
    const port = await freePort();
    [server, browser] = await Promise.all([
      startServer({
        mode: 'live',
        settings: { pix_key: PIX_KEY },
        prepare: withAdmin(),
        env: {
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          PAYMENT_PROVIDER: 'pix-api',
          PIX_API_URL: bank.url,
          PIX_API_TOKEN_URL: bank.tokenUrl,
          PIX_API_CLIENT_ID: CLIENT_ID,
          PIX_API_CLIENT_SECRET: CLIENT_SECRET,
          // Efí's way: one PKCS#12 file and its password.
          PIX_API_CERT: pki.clientP12,
          PIX_API_CERT_PASSWORD: pki.p12Password,
          PIX_API_CA: pki.caCert,
          PIX_API_RECONCILE_SECONDS: String(RECONCILE_SECONDS),
          SMTP_URL: '',
          CEP_SERVICE_URL: cep.url,
          CHECKOUT_RATE_LIMIT: '1000',
        },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([bank?.close(), cep?.close()]);
    await pki?.remove();
  });

  /** A phone's page whose same-origin answers are all kept, for the final look for secrets. */
  async function phonePage(): Promise<Page> {
    const context = await browser.newContext({
      viewport: VIEWPORTS.mobile,
      locale: 'pt-BR',
      extraHTTPHeaders: { 'X-Forwarded-For': shopperAddress() },
    });
    const page = await context.newPage();
    page.on('response', (response) => {
      if (!response.url().startsWith(server.url)) return;
      if (response.status() >= 300 && response.status() < 400) return;
      reads.push(
        response.text().then(
          (text) => void answers.push(text),
          () => undefined,
        ),
      );
    });
    return page;
  }

  /** Buys the headphones with PIX; answers the order and its txid, the page on its confirmation. */
  async function buy(page: Page): Promise<{ orderId: string; txid: string; number: string }> {
    const form = page.locator('form[action="/checkout"]');
    const field = (label: string) => form.getByLabel(label, { exact: label !== 'Complemento' });
    await page.goto(`${server.url}/product/${HEADPHONES.id}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.waitForURL(`${server.url}/checkout`);
    await form.getByRole('button', { name: 'Finalizar pedido' }).waitFor();
    await waitForHydration(page);
    await field('Nome completo').fill(VALID_CHECKOUT.customerName);
    await field('E-mail').fill(VALID_CHECKOUT.customerEmail);
    await field('CPF').pressSequentially(shopperCpf().replace(/\D/g, ''));
    await field('Telefone').pressSequentially(VALID_CHECKOUT.customerPhone.replace(/\D/g, ''));
    await field('CEP').pressSequentially(PAULISTA_CEP);
    await expect.poll(() => field('Rua').inputValue()).toBe(PAULISTA.logradouro);
    await field('Número').fill(VALID_CHECKOUT.number);
    await form.getByRole('button', { name: 'Finalizar pedido' }).click();
    await page.waitForURL(CONFIRMATION_URL);
    const heading = page.getByRole('heading', { level: 1, name: /^Pedido #/ });
    await heading.waitFor();
    const url = new URL(page.url());
    const orderId = url.searchParams.get('orderId')!;
    const txid = url.searchParams.get('paymentId')!;
    // The bank's charge for this order, shown as copia e cola and as a QR drawn from it.
    expect(txid).toMatch(/^[0-9a-z]{35}$/);
    expect(bank.charges.get(txid)).toMatchObject({ status: 'ATIVA', chave: PIX_KEY });
    expect(await page.getByTestId('pix-code').inputValue()).toContain(txid);
    expect(await page.getByTestId('pix-qr').locator('svg').count()).toBe(1);
    return { orderId, txid, number: orderNumberIn(await heading.innerText()) };
  }

  async function adminOrder(orderId: string): Promise<string> {
    const admin = await adminVisitor(server.url);
    const page = await admin.get(`/admin/orders/${orderId}`);
    expect(page.status).toBe(200);
    answers.push(page.text);
    return visibleText(page.text);
  }

  it('the bank’s webhook confirms a paid order and the shopper’s page moves on by itself', async () => {
    // Registered at start (after the server listens): the bank knows where to call.
    await expect
      .poll(() => bank.webhookUrl(), { timeout: 10_000 })
      .toBe(`${server.url}/api/payments/pix-api`);
    const page = await phonePage();
    const { orderId, txid, number } = await buy(page);
    // The shopper's page already polls: it goes, so only the webhook can confirm. The callback
    // is answered once the charge was read back and the order settled, so the order is paid as
    // soon as the bank hears 200 (before the job's next round, every few seconds).
    const confirmation = page.url();
    await page.close();
    bank.setWebhookOn(true);
    expect(await bank.pay(txid)).toBe(200);
    expect(await adminOrder(orderId)).toContain('Pagamento aprovado.');
    const again = await page.context().newPage();
    await again.goto(confirmation);
    await again.waitForURL(THANK_YOU_URL, { timeout: ONE_POLL_MS });
    expect(await again.getByText(`Pedido #${number} — pagamento confirmado.`).isVisible()).toBe(
      true,
    );
    await again.context().close();
  });

  it('with the webhook off, the reconciliation job confirms the order within its interval', async () => {
    const page = await phonePage();
    const { orderId, txid } = await buy(page);
    // No page polls now: only the job can find the PIX.
    await page.context().close();
    bank.setWebhookOn(false);
    expect(await bank.pay(txid)).toBeNull();
    await expect
      .poll(() => adminOrder(orderId), { timeout: 6 * RECONCILE_SECONDS * 1000, interval: 1_000 })
      .toContain('Pagamento aprovado.');
    expect(bank.requests.some((request) => request.path === '/v2/pix')).toBe(true);
  });

  it('a PIX of the wrong amount is flagged to staff and the order stays pending', async () => {
    const page = await phonePage();
    const { orderId, txid } = await buy(page);
    bank.setWebhookOn(true);
    expect(await bank.pay(txid, { amountCents: 100 })).toBe(200);
    const admin = await adminOrder(orderId);
    expect(admin).toContain('recebido de R$ 1,00, diferente do valor cobrado');
    expect(admin).toContain('Pendente');
    expect(page.url()).toMatch(CONFIRMATION_URL);
    await page.context().close();
  });

  it('keeps the client secret and the key out of pages, answers, the bundle and the log; every call kept to the spec', async () => {
    await Promise.all(reads);
    const p12 = (await readFile(pki.clientP12)).toString('base64').slice(0, 40);
    const secrets = [CLIENT_SECRET, pki.p12Password, p12];
    for (const file of await filesUnder(join(BUILD_DIR, 'client'))) {
      const content = await readFile(file, 'utf8');
      for (const secret of secrets) expect(content.includes(secret), file).toBe(false);
    }
    const admin = await adminVisitor(server.url);
    const payments = await admin.get('/admin/payments');
    answers.push(payments.text);
    // 'Pagamentos' says the provider is active and shows the webhook the bank has.
    expect(visibleText(payments.text)).toContain('banco (API Pix)');
    expect(visibleText(payments.text)).toContain(
      `Webhook cadastrado no banco: ${server.url}/api/payments/pix-api`,
    );
    // 'Testar conexão': a token and the bank's charges of the last hour.
    const listed = bank.requests.filter((request) => request.path === '/v2/cob').length;
    const tested = await admin.post('/admin/payments', { intent: 'pix-api-test' });
    answers.push(tested.text);
    expect(tested.status).toBeLessThan(400);
    expect(bank.requests.filter((request) => request.path === '/v2/cob').length).toBe(listed + 1);
    for (const answer of answers) {
      for (const secret of secrets) expect(answer).not.toContain(secret);
    }
    for (const secret of secrets) expect(server.output()).not.toContain(secret);
    expect(bank.violations).toEqual([]);
  });
});
