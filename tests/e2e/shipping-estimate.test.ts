import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { deliveryEstimate } from '~/flows/delivery-estimate.server';

import { firstAdminVisitor, saveSampleSettings } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, openPage, VIEWPORTS } from '../support/browser';
import { startFakeCepServer, type FakeCepServer } from '../support/fake-cep';
import { attribute, element, textsOf } from '../support/html';
import { sampleProduct } from '../support/sample';
import { startServer, type ServerOptions, type TestServer } from '../support/server';
import { Visitor } from '../support/visitor';

// R$ 299,90, 75 in stock.
const HEADPHONES = sampleProduct('Fone de Ouvido');
// R$ 1.234,56.
const MONITOR = sampleProduct('Monitor 27');

const PAULISTA = {
  logradouro: 'Avenida Paulista',
  bairro: 'Bela Vista',
  localidade: 'São Paulo',
  uf: 'SP',
};
const CEP_INVALID = 'CEP inválido: use 8 números, como 01310-100.';

/**
 * What the page may say about delivery to this CEP, by the module's own rule: the server computed
 * it moments ago, on its own clock, which may still have been on the day before if midnight in
 * São Paulo has just passed (a run with the clock moved to 23:50 found it), so the day of two
 * minutes ago is allowed too.
 */
function expectedDeliveries(cep: string, days: number): string[] {
  const now = Date.now();
  const texts = [now - 2 * 60_000, now].map((at) => {
    const estimate = deliveryEstimate(
      cep,
      { estimated_delivery_days: days, timezone: 'America/Sao_Paulo' },
      new Date(at),
    );
    if (!estimate.ok) throw new Error(`Bad CEP in the test: ${cep}`);
    return estimate.text;
  });
  return [...new Set(texts)];
}

/** A server (with a fake ViaCEP for the checkout's address lookup) and Chromium. */
function useShippingStore(options: ServerOptions) {
  const started = {} as { server: TestServer; browser: Browser; cep: FakeCepServer };
  beforeAll(async () => {
    started.cep = await startFakeCepServer({ '01310100': PAULISTA });
    [started.server, started.browser] = await Promise.all([
      startServer({
        ...options,
        env: { CEP_SERVICE_URL: started.cep.url, PAYMENT_PROVIDER: 'sandbox' },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.stop();
    await started.cep?.close();
  });
  return started;
}

const result = (page: Page) => page.getByTestId('shipping-estimate-result');
const cepField = (page: Page) => page.getByTestId('shipping-estimate').getByLabel('CEP');

async function savedCep(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === 'vitrine_cep');
}

// One server for the file: free shipping first, then flat rate saved through the admin (a server
// costs seconds of CPU to start).
const store = useShippingStore({ settings: { estimated_delivery_days: 7 } });

describe('shipping estimate, free shipping', () => {
  // The product's address by its slug (old id links answer 301 to it).
  const productUrl = () => `${store.server.url}/product/fone-de-ouvido-bluetooth-pro`;

  it.each(Object.entries(VIEWPORTS))(
    'estimates on the product page without reloading, and pre-fills the checkout (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(store.browser, productUrl(), viewport);
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      const field = cepField(page);
      expect(await field.getAttribute('inputmode')).toBe('numeric');
      expect(await field.getAttribute('autocomplete')).toBe('postal-code');
      await field.pressSequentially('01310100');
      expect(await field.inputValue()).toBe('01310-100');
      const answer = page.waitForResponse((response) => response.url().includes('/frete'));
      await page.getByRole('button', { name: 'Calcular' }).click();
      expect((await answer).status()).toBe(200);

      await expect.poll(() => result(page).innerText()).toContain('São Paulo (SP)');
      expect(await page.getByTestId('shipping-cost').innerText()).toBe('Frete grátis');
      expect(await page.getByTestId('free-shipping-from').count()).toBe(0);
      expect(expectedDeliveries('01310100', 7)).toContain(
        await page.getByTestId('delivery-estimate').innerText(),
      );
      expect(await page.getByTestId('delivery-estimate').innerText()).toMatch(
        /^Entrega em até 7 dias úteis para SP: chega até \p{L}+(-feira)?, \d{1,2} de \p{L}+, se o pagamento for confirmado hoje\.$/u,
      );
      // No navigation happened: the same document answered.
      expect(page.url()).toBe(productUrl());
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
      expect((await savedCep(page.context()))?.value).toBe('01310100');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(await seriousAxeViolations(page)).toEqual([]);

      // The next page remembers the CEP, and the checkout starts from it, address filled in.
      await page.request.post(`${store.server.url}/cart`, {
        form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
      });
      await page.goto(`${store.server.url}/checkout`, { waitUntil: 'networkidle' });
      expect(await page.getByLabel('CEP').inputValue()).toBe('01310-100');
      await expect.poll(() => page.getByLabel('Rua').inputValue()).toBe('Avenida Paulista');
      expect(await page.getByLabel('Cidade').inputValue()).toBe('São Paulo');
      expect(await page.getByLabel('Estado').inputValue()).toBe('SP');
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('estimates in the cart too, and shows the remembered CEP there', async () => {
    const { page, problems } = await openPage(store.browser, productUrl(), VIEWPORTS.mobile);
    await page.request.post(`${store.server.url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
    });
    await page.goto(`${store.server.url}/cart`, { waitUntil: 'networkidle' });
    await cepField(page).fill('90010-150');
    await page.getByRole('button', { name: 'Calcular' }).click();
    await expect.poll(() => result(page).innerText()).toContain('Rio Grande do Sul (RS)');
    expect(await page.getByTestId('shipping-cost').innerText()).toBe('Frete grátis');
    expect(expectedDeliveries('90010150', 7)).toContain(
      await page.getByTestId('delivery-estimate').innerText(),
    );

    await page.goto(productUrl(), { waitUntil: 'networkidle' });
    expect(await cepField(page).inputValue()).toBe('90010-150');
    expect(await result(page).innerText()).toContain('Rio Grande do Sul (RS)');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says when a CEP is invalid, with and without JavaScript, never a 500', async () => {
    const { page, problems } = await openPage(store.browser, productUrl(), VIEWPORTS.mobile);
    await cepField(page).fill('0131');
    await page.getByRole('button', { name: 'Calcular' }).click();
    await expect.poll(() => result(page).innerText()).toBe(CEP_INVALID);
    expect(await cepField(page).getAttribute('aria-invalid')).toBe('true');
    expect(await savedCep(page.context())).toBeUndefined();
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The resource answered the bad CEP with a 400, and nothing else failed.
    expect(problems).toEqual([
      expect.stringMatching(/^HTTP 400: .*\/frete\.data\?(?:.*&)?cep=0131&/),
      'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    await page.context().close();

    const context = await store.browser.newContext({ javaScriptEnabled: false, locale: 'pt-BR' });
    const plain = await context.newPage();
    const response = await plain.goto(`${productUrl()}?cep=abc`);
    expect(response?.status()).toBe(200);
    expect(await result(plain).innerText()).toBe(CEP_INVALID);
    expect(await cepField(plain).inputValue()).toBe('abc');
    await context.close();
  });

  it('answers the /frete resource in JSON, 400 for a bad CEP, 405 for other methods', async () => {
    const good = await fetch(`${store.server.url}/frete?cep=01310-100`);
    expect(good.status).toBe(200);
    expect(good.headers.get('cache-control')).toBe('no-store');
    expect(good.headers.get('set-cookie')).toMatch(
      /^vitrine_cep=01310100; Path=\/; .*SameSite=Lax/,
    );
    expect(await good.json()).toMatchObject({ ok: true, cep: '01310-100', state: 'SP' });

    for (const query of ['', '?cep=', '?cep=abc', '?cep=00500000', `?cep=${'9'.repeat(500)}`]) {
      const bad = await fetch(`${store.server.url}/frete${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.headers.get('set-cookie')).toBeNull();
      expect(((await bad.json()) as { error: string }).error).toMatch(
        /^(CEP inválido|Não encontramos)/,
      );
    }
    expect((await fetch(`${store.server.url}/frete`, { method: 'POST' })).status).toBe(405);
  });

  it('ignores a remembered CEP that is garbage', async () => {
    for (const value of ['abc', '0131010', '00500000', '%22x%22']) {
      const visitor = new Visitor(store.server.url);
      visitor.cookies.set('vitrine_cep', value);
      let page = await visitor.get('/product/fone-de-ouvido-bluetooth-pro');
      expect(page.status, value).toBe(200);
      const estimate = element(page.text, '[data-testid="shipping-estimate"]');
      expect(attribute(element(estimate, 'input[name="cep"]'), 'value'), value).toBe('');
      expect(textsOf(page.text, '[data-testid="shipping-estimate-result"]'), value).toEqual(['']);
      await visitor.addToCart(HEADPHONES.id);
      page = await visitor.get('/checkout');
      expect(page.status, value).toBe(200);
      const form = element(page.text, 'form[action="/checkout"]');
      expect(attribute(element(form, 'input[name="zipCode"]'), 'value'), value).toBe('');
    }
  });
});

describe('shipping estimate, flat rate with a free-shipping threshold', () => {
  beforeAll(async () => {
    await saveSampleSettings(await firstAdminVisitor(store.server), {
      shipping_mode: 'flat_rate',
      default_shipping_cost_cents: 1000,
      free_shipping_threshold_cents: 50000,
      estimated_delivery_days: 3,
    });
  });

  it.each(Object.entries(VIEWPORTS))(
    'charges the flat rate below the threshold on the product page and the cart (%s)',
    async (_name, viewport) => {
      const { page, problems } = await openPage(
        store.browser,
        `${store.server.url}/product/${HEADPHONES.id}`,
        viewport,
      );
      await cepField(page).fill('30130010');
      await page.getByRole('button', { name: 'Calcular' }).click();
      await expect.poll(() => result(page).innerText()).toContain('Minas Gerais (MG)');
      expect(await page.getByTestId('shipping-cost').innerText()).toBe('Frete: R$ 10,00');
      expect(await page.getByTestId('free-shipping-from').innerText()).toBe(
        'Frete grátis a partir de R$ 500,00',
      );
      expect(expectedDeliveries('30130010', 3)).toContain(
        await page.getByTestId('delivery-estimate').innerText(),
      );

      // Above the threshold, the same CEP ships free.
      await page.goto(`${store.server.url}/product/${MONITOR.id}`, { waitUntil: 'networkidle' });
      expect(await cepField(page).inputValue()).toBe('30130-010');
      expect(await page.getByTestId('shipping-cost').innerText()).toBe('Frete grátis');

      // The cart estimates for its subtotal, and follows it as quantities change.
      await page.request.post(`${store.server.url}/cart`, {
        form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
      });
      await page.goto(`${store.server.url}/cart`, { waitUntil: 'networkidle' });
      expect(await page.getByTestId('shipping-cost').innerText()).toBe('Frete: R$ 10,00');
      expect(await page.getByTestId('cart-shipping').innerText()).toBe('R$ 10,00');
      await page.getByRole('button', { name: `Aumentar quantidade de ${HEADPHONES.name}` }).click();
      await expect.poll(() => page.getByTestId('shipping-cost').innerText()).toBe('Frete grátis');
      expect(await page.getByTestId('cart-shipping').innerText()).toBe('Grátis');
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it('works without JavaScript on the product page and the cart', async () => {
    const context = await store.browser.newContext({ javaScriptEnabled: false, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(`${store.server.url}/product/${HEADPHONES.id}`);
    await cepField(page).fill('20040-020');
    await page.getByRole('button', { name: 'Calcular' }).click();
    await page.waitForURL(/\?cep=20040-020$/);
    expect(await result(page).innerText()).toContain('Rio de Janeiro (RJ)');
    expect(await page.getByTestId('shipping-cost').innerText()).toBe('Frete: R$ 10,00');
    expect(expectedDeliveries('20040020', 3)).toContain(
      await page.getByTestId('delivery-estimate').innerText(),
    );
    expect((await savedCep(context))?.value).toBe('20040020');

    await page.request.post(`${store.server.url}/cart`, {
      form: { intent: 'add', productId: MONITOR.id, quantity: '1' },
    });
    await page.goto(`${store.server.url}/cart`);
    expect(await result(page).innerText()).toContain('Rio de Janeiro (RJ)');
    await cepField(page).fill('69900062');
    await page.getByRole('button', { name: 'Calcular' }).click();
    await page.waitForURL(`${store.server.url}/cart?cep=69900062`);
    expect(await result(page).innerText()).toContain('Acre (AC)');
    expect(await page.getByTestId('shipping-cost').innerText()).toBe('Frete grátis');
    expect((await savedCep(context))?.value).toBe('69900062');

    await page.goto(`${store.server.url}/checkout`);
    expect(await page.getByLabel('CEP').inputValue()).toBe('69900-062');
    await context.close();
  });
});
