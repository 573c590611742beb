import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX_PAYMENT_PATH } from '~/components/store/order-payment';

import { adminVisitor, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { startFakeCepServer, type FakeCepServer } from '../support/fake-cep';
import { startFakeMelhorEnvio, type FakeMelhorEnvio } from '../support/fake-melhorenvio';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { VALID_CHECKOUT, visibleText, Visitor } from '../support/visitor';

// Issue 26's shopper side: a store with SHIPPING_PROVIDER=melhorenvio quoting through the fake
// Melhor Envio. The shopper sees each service with its price and date, picks SEDEX and pays
// that; when the carrier is slow, the store's own rule answers within its deadline and says so.
const TOKEN = 'me-e2e-token-4c2b';
const ORIGIN_CEP = '01310100';
const MANAUS = {
  cep: '69005040',
  address: {
    logradouro: 'Avenida Eduardo Ribeiro',
    bairro: 'Centro',
    localidade: 'Manaus',
    uf: 'AM',
  },
};
const PORTO_ALEGRE = {
  cep: '90010150',
  address: {
    logradouro: 'Rua dos Andradas',
    bairro: 'Centro Histórico',
    localidade: 'Porto Alegre',
    uf: 'RS',
  },
};
const HEADPHONES = sampleProduct('Fone de Ouvido');
const MOUSE = sampleProduct('Mouse Sem Fio');
const FLAT_RATE_CENTS = 1_500;
// The carrier's 3 s, and the page's own work around it on a busy machine.
const FALLBACK_BUDGET_MS = 3_500;

/** The cents of the first 'R$ 1.234,56' in a text. */
function centsIn(text: string): number {
  const match = /R\$\s*([\d.]+),(\d{2})/.exec(text);
  if (!match) throw new Error(`No amount in ${JSON.stringify(text)}`);
  return Number(match[1]!.replaceAll('.', '')) * 100 + Number(match[2]);
}

/** The checkout form of a shopper in Manaus, as posted without JavaScript. */
function manausCheckout(visitor: Visitor): Record<string, string> {
  return {
    ...VALID_CHECKOUT,
    customerCpf: visitor.cpf,
    zipCode: '69005-040',
    street: MANAUS.address.logradouro,
    neighborhood: MANAUS.address.bairro,
    city: MANAUS.address.localidade,
    state: 'AM',
  };
}

/** The `shippingOption` values a checkout page offers. */
function shippingValues(html: string): string[] {
  return (html.match(/<input[^>]*name="shippingOption"[^>]*>/g) ?? []).map(
    (input) => /value="([^"]+)"/.exec(input)![1]!,
  );
}

describe('carrier shipping at checkout (Melhor Envio)', () => {
  let fake: FakeMelhorEnvio;
  let cep: FakeCepServer;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [fake, cep] = await Promise.all([
      startFakeMelhorEnvio({ token: TOKEN }),
      startFakeCepServer({
        [MANAUS.cep]: MANAUS.address,
        [PORTO_ALEGRE.cep]: PORTO_ALEGRE.address,
      }),
    ]);
    [server, browser] = await Promise.all([
      startServer({
        settings: {
          shipping_mode: 'flat_rate',
          default_shipping_cost_cents: FLAT_RATE_CENTS,
          free_shipping_threshold_cents: 0,
          shipping_origin_cep: ORIGIN_CEP,
          // Who sends the parcels, for the label the last test buys.
          legal_name: 'Loja Frete Ltda.',
          cnpj: '11.222.333/0001-81',
          contact_phone: '(11) 4000-1234',
          contact_email: 'contato@loja-frete.test',
          shipping_origin_street: 'Avenida Paulista',
          shipping_origin_number: '1000',
          shipping_origin_district: 'Bela Vista',
          shipping_origin_city: 'São Paulo',
          shipping_origin_state: 'SP',
        },
        prepare: withAdmin(),
        env: {
          PAYMENT_PROVIDER: 'sandbox',
          SHIPPING_PROVIDER: 'melhorenvio',
          MELHOR_ENVIO_TOKEN: TOKEN,
          MELHOR_ENVIO_API_URL: fake.url,
          MELHOR_ENVIO_USER_AGENT: 'Vitrine Teste (contato@loja.test)',
          CEP_SERVICE_URL: cep.url,
          CHECKOUT_RATE_LIMIT: '100',
        },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([fake?.close(), cep?.close()]);
  });

  async function phonePage(): Promise<Page> {
    const context = await browser.newContext({
      viewport: VIEWPORTS.mobile,
      locale: 'pt-BR',
      extraHTTPHeaders: { 'X-Forwarded-For': shopperAddress() },
    });
    return context.newPage();
  }

  const checkoutForm = (page: Page) => page.locator('form[action="/checkout"]');
  const field = (page: Page, label: string) =>
    checkoutForm(page).getByLabel(label, { exact: true });

  async function fillShopper(page: Page): Promise<void> {
    await field(page, 'Nome completo').fill(VALID_CHECKOUT.customerName);
    await field(page, 'E-mail').fill(VALID_CHECKOUT.customerEmail);
    await field(page, 'CPF').pressSequentially(shopperCpf().replace(/\D/g, ''));
    await field(page, 'Telefone').pressSequentially(
      VALID_CHECKOUT.customerPhone.replace(/\D/g, ''),
    );
  }

  it('a shopper on a phone sees three services with prices and dates, picks SEDEX and pays its price', async () => {
    const page = await phonePage();
    await page.goto(`${server.url}${sampleProductPath(HEADPHONES.name)}`, {
      waitUntil: 'networkidle',
    });
    await waitForHydration(page);
    const estimate = page.getByTestId('shipping-estimate');
    await estimate.getByLabel('CEP').pressSequentially(MANAUS.cep);
    await estimate.getByRole('button', { name: 'Calcular' }).click();
    const listed = estimate.getByTestId('shipping-option');
    await expect.poll(() => listed.count()).toBe(3);
    const texts = await listed.allInnerTexts();
    expect(texts.map((text) => text.split(':')[0]).sort()).toEqual([
      'Correios PAC',
      'Correios SEDEX',
      'Jadlog .Package',
    ]);
    for (const text of texts) expect(text).toMatch(/R\$\s*[\d.]+,\d{2}, chega até \w/);
    const sedexCents = centsIn(texts.find((text) => text.startsWith('Correios SEDEX'))!);
    // The product's page priced one unit: the checkout prices the same parcel.

    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.waitForURL(`${server.url}/checkout`);
    await waitForHydration(page);
    // The CEP of the estimate starts the address, and its services are offered at once.
    await expect.poll(() => field(page, 'Rua').inputValue()).toBe(MANAUS.address.logradouro);
    const choice = page.getByTestId('shipping-choice');
    await expect.poll(() => choice.getByRole('radio').count()).toBe(3);
    await fillShopper(page);
    await field(page, 'Número').fill('520');
    await choice.getByRole('radio', { name: /Correios SEDEX/ }).check();
    await expect
      .poll(async () => centsIn(await page.getByTestId('summary-shipping').innerText()))
      .toBe(sedexCents);
    const total = centsIn(await page.getByTestId('summary-total').innerText());
    expect(await seriousAxeViolations(page)).toEqual([]);

    await checkoutForm(page).getByRole('button', { name: 'Finalizar pedido' }).click();
    await page.waitForURL(/\/order-confirmation\?/);
    const shipping = await page.getByTestId('confirmation-shipping').innerText();
    expect(shipping).toContain('Frete (Correios SEDEX)');
    expect(centsIn(shipping)).toBe(sedexCents);
    expect(centsIn(await page.locator('h1 + p').innerText())).toBe(total);
    await page.context().close();
  });

  it('without JavaScript: a post without a service is refused with the form and the services for its CEP', async () => {
    const visitor = new Visitor(server.url);
    await visitor.addToCart(MOUSE.id);
    const fields = manausCheckout(visitor);
    const refused = await visitor.post('/checkout', {
      ...fields,
      idempotencyKey: await visitor.checkoutKey(),
    });
    expect(refused.status).toBe(400);
    expect(visibleText(refused.text)).toContain('Escolha uma forma de envio');
    expect(refused.text).toContain(`value="${VALID_CHECKOUT.customerName}"`);
    const values = shippingValues(refused.text);
    expect(values).toHaveLength(3);
    // A service the carrier did not offer is refused the same way.
    const unknown = await visitor.post('/checkout', {
      ...fields,
      shippingOption: '999:100',
      idempotencyKey: await visitor.checkoutKey(),
    });
    expect(unknown.status).toBe(400);
    const placed = await visitor.checkout({ ...fields, shippingOption: values[0]! });
    expect(placed.orderId).toBeTruthy();
  });

  it("with the carrier too slow, checkout works on the store's rule within 3.5 s and says it is approximate", async () => {
    fake.setDelay(20_000);
    try {
      const page = await phonePage();
      const visitor = page.context().request;
      await visitor.post(`${server.url}/cart`, {
        form: { intent: 'add', productId: MOUSE.id, quantity: '1' },
      });
      await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
      await waitForHydration(page);
      await fillShopper(page);
      const asked = page.waitForResponse((response) => response.url().includes('/frete'));
      await field(page, 'CEP').pressSequentially(PORTO_ALEGRE.cep);
      // The CEP's services were asked for, and the store's rule answered within its deadline.
      const answer = await asked;
      expect(answer.request().timing().responseEnd).toBeLessThan(FALLBACK_BUDGET_MS);
      const choice = page.getByTestId('shipping-choice');
      await choice.getByText('Prazo e valor aproximados').waitFor();
      await expect
        .poll(() => field(page, 'Rua').inputValue())
        .toBe(PORTO_ALEGRE.address.logradouro);
      await field(page, 'Número').fill('100');
      await expect
        .poll(async () => centsIn(await page.getByTestId('summary-shipping').innerText()))
        .toBe(FLAT_RATE_CENTS);

      // The server's answer to the order, timed by the browser: the page drawn after it is not
      // the carrier's wait.
      const placed = page.waitForResponse(
        (response) =>
          response.request().method() === 'POST' && response.url().includes('/checkout'),
      );
      await checkoutForm(page).getByRole('button', { name: 'Finalizar pedido' }).click();
      expect((await placed).request().timing().responseEnd).toBeLessThan(FALLBACK_BUDGET_MS);
      await page.waitForURL(/\/order-confirmation\?/);
      const shipping = await page.getByTestId('confirmation-shipping').innerText();
      expect(shipping).toContain('prazo e valor aproximados');
      expect(centsIn(shipping)).toBe(FLAT_RATE_CENTS);
      await page.context().close();
    } finally {
      fake.setDelay(0);
    }
  });

  it('buys the label for the service the shopper chose once the order is paid', async () => {
    fake.setBalance(500);
    const shopper = new Visitor(server.url);
    await shopper.addToCart(HEADPHONES.id);
    const fields = manausCheckout(shopper);
    const refused = await shopper.post('/checkout', {
      ...fields,
      idempotencyKey: await shopper.checkoutKey(),
    });
    const sedex = shippingValues(refused.text).find((value) => value.startsWith('2:'))!;
    const { orderId } = await shopper.checkout({ ...fields, shippingOption: sedex });
    const approved = await shopper.post(SANDBOX_PAYMENT_PATH, { intent: 'approve', orderId });
    expect(approved.status).toBe(303);

    const admin = await adminVisitor(server.url);
    const before = fake.purchaseCalls();
    const label = await admin.post(`/admin/orders/${orderId}`, { intent: 'label' });
    expect(label.status).toBeLessThan(400);
    expect(fake.purchaseCalls() - before).toBe(1);
    const bought = [...fake.orders.values()].at(-1)!;
    expect(bought.service_id).toBe(2);
    const page = visibleText((await admin.get(`/admin/orders/${orderId}`)).text);
    expect(page).toContain('Correios SEDEX');
    expect(page).toContain('Enviado');
  });
});
