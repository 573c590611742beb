import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { formatCents } from '~/lib/money';
import { pixDiscountCents } from '~/modules/pricing';
import { cartCookieHeader } from '~/modules/cart/index.server';

import { firstAdminVisitor, saveSampleSettings } from '../support/admin';
import { launchBrowser, openPage, VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { elements, textsOf } from '../support/html';
import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { sampleProduct } from '../support/sample';
import { seriousAxeViolations } from '../support/axe';
import { startServer, type TestServer } from '../support/server';
import { Visitor } from '../support/visitor';

// R$ 299,90, 75 in stock.
const HEADPHONES = sampleProduct('Fone de Ouvido');
// R$ 249,90, 5 in stock.
const HEADSET = sampleProduct('Headset Gamer');
// R$ 129,90, 120 in stock.
const MOUSE = sampleProduct('Mouse Sem Fio');
// R$ 1.234,56, 12 in stock.
const MONITOR = sampleProduct('Monitor 27');
// Sold out.
const SMARTWATCH = sampleProduct('Smartwatch');

const badge = (page: Page) => page.getByTestId('cart-count');
/**
 * The next cart change the page sends, once the server has answered it and the page has read the
 * cart again (a reload before that would cut the second request off).
 */
const cartSaved = (page: Page) =>
  page.waitForResponse(
    (response) => response.url().includes('cart.data') && response.request().method() === 'GET',
  );
const lines = (page: Page) => page.getByTestId('cart-line');
const line = (page: Page, name: string) => lines(page).filter({ hasText: name });
const notices = (page: Page) => page.getByTestId('cart-notices');

// On PostgreSQL when there is one, so a test can change the catalogue while the server runs.
describe('cart', () => {
  const databaseName = uniqueDatabaseName('vitrine_cart');
  let server: TestServer;
  let browser: Browser;
  let client: pg.Client | undefined;

  beforeAll(async () => {
    const databaseUrl = TEST_DATABASE_URL
      ? await createDatabase(TEST_DATABASE_URL, databaseName)
      : undefined;
    [server, browser] = await Promise.all([
      startServer(databaseUrl ? { env: { DATABASE_URL: databaseUrl } } : {}),
      launchBrowser(),
    ]);
    if (databaseUrl) {
      client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
    }
  });
  afterAll(async () => {
    await client?.end();
    await browser?.close();
    await server?.stop();
    if (TEST_DATABASE_URL) await dropDatabase(TEST_DATABASE_URL, databaseName);
  });

  /** Puts a product in this page's cart through the same POST the storefront forms send. */
  async function add(page: Page, productId: string, quantity = 1) {
    const response = await page.request.post(`${server.url}/cart`, {
      form: { intent: 'add', productId, quantity: String(quantity) },
    });
    expect(response.status()).toBe(200);
  }

  it('adds from a product card on the home page and counts it in the header', async () => {
    const { page, problems } = await openPage(browser, server.url);
    expect(await badge(page).count()).toBe(0);
    const card = page.getByTestId('product-card').filter({ hasText: MONITOR.name });
    const addButton = card.getByRole('button', { name: /Adicionar ao carrinho/ });

    // After the add, only the layout (the badge) asks for fresh data; the catalogue's queries
    // and the root's settings are not run again.
    const revalidated = page.waitForRequest(
      (request) => request.method() === 'GET' && request.url().includes('.data'),
    );
    await addButton.click();
    await expect.poll(() => badge(page).textContent()).toBe('1');
    const request = await revalidated;
    const routes = new URL(request.url()).searchParams.get('_routes');
    expect(routes?.split(',')).toEqual(['routes/store/layout']);
    // The card ignores a click while its first add is still in flight (a double click adds one):
    // the second add waits for the first to be answered and the badge's data to be read again.
    await request.response();
    await expect
      .poll(() =>
        addButton.evaluate((button) =>
          (button as HTMLButtonElement).form?.getAttribute('aria-busy'),
        ),
      )
      .toBe('false');
    await addButton.click();
    await expect.poll(() => badge(page).textContent()).toBe('2');

    await page.getByRole('link', { name: /^Carrinho/ }).click();
    await page.waitForURL(`${server.url}/cart`);
    await expect.poll(() => page.title()).toBe('Carrinho | TechStore');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe(
      'noindex, nofollow',
    );
    expect(await lines(page).count()).toBe(1);
    const monitor = line(page, MONITOR.name);
    expect(await monitor.getByRole('spinbutton', { name: /Quantidade de/ }).inputValue()).toBe('2');
    expect(await monitor.getByTestId('cart-line-total').innerText()).toContain('R$ 2.469,12');
    expect(await page.getByTestId('cart-subtotal').innerText()).toBe('R$ 2.469,12');
    expect(await page.getByTestId('cart-shipping').innerText()).toBe('Grátis');
    expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 2.469,12');
    const checkout = page.getByRole('link', { name: 'Finalizar compra' });
    expect(await checkout.getAttribute('href')).toBe('/checkout');
    expect(await page.getByRole('link', { name: 'Continuar comprando' }).getAttribute('href')).toBe(
      '/products',
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('changes quantities with + and −, keeps them across reloads, removes, and empties (phone)', async () => {
    const { page, problems } = await openPage(browser, server.url, VIEWPORTS.mobile);
    await add(page, HEADSET.id);
    await add(page, HEADPHONES.id);
    await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
    const headset = line(page, HEADSET.name);
    const quantity = headset.getByRole('spinbutton', { name: `Quantidade de ${HEADSET.name}` });
    const plus = headset.getByRole('button', { name: `Aumentar quantidade de ${HEADSET.name}` });
    const minus = headset.getByRole('button', { name: `Diminuir quantidade de ${HEADSET.name}` });
    expect(await badge(page).textContent()).toBe('2');
    expect(await quantity.getAttribute('max')).toBe('5');

    // The line and the totals move while the server has not answered yet.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/cart.data*', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await plus.click();
    await expect.poll(() => quantity.inputValue()).toBe('2');
    expect(await headset.getByTestId('cart-line-total').innerText()).toContain('R$ 499,80');
    expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 799,70');
    expect(await badge(page).textContent()).toBe('3');
    const saved = cartSaved(page);
    answer();
    await page.unrouteAll({ behavior: 'wait' });
    await saved;
    await expect.poll(() => badge(page).textContent()).toBe('3');
    expect(await headset.getByTestId('cart-line-total').innerText()).toContain('R$ 499,80');
    expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 799,70');

    await page.reload({ waitUntil: 'networkidle' });
    expect(await quantity.inputValue()).toBe('2');

    // A typed quantity applies as the shopper leaves the field, with no button to press; past
    // the stock the server caps it and says so.
    expect(await headset.getByRole('button', { name: /Atualizar/ }).count()).toBe(0);
    await quantity.fill('9');
    await quantity.press('Tab');
    await expect.poll(() => quantity.inputValue()).toBe('5');
    await expect.poll(() => badge(page).textContent()).toBe('6');
    // The browser caps the line at once; the server's own words replace the hint when it answers.
    await expect
      .poll(() => headset.getByRole('status').innerText())
      .toBe(`Só temos 5 unidades de “${HEADSET.name}” em estoque; seu carrinho ficou com 5.`);
    // At the stock, + says it is the maximum.
    await page.reload({ waitUntil: 'networkidle' });
    expect(await plus.getAttribute('aria-disabled')).toBe('true');
    // Playwright will not click an aria-disabled button on its own; a shopper can.
    await plus.click({ force: true });
    expect(await headset.getByRole('status').innerText()).toBe('Quantidade máxima disponível: 5.');
    expect(await quantity.inputValue()).toBe('5');

    const lowered = cartSaved(page);
    await minus.click();
    await expect.poll(() => quantity.inputValue()).toBe('4');
    await expect.poll(() => badge(page).textContent()).toBe('5');
    await lowered;

    const removed = cartSaved(page);
    await headset.getByRole('button', { name: `Remover ${HEADSET.name} do carrinho` }).click();
    await expect.poll(() => lines(page).count()).toBe(1);
    expect(await notices(page).innerText()).toContain(
      `“${HEADSET.name}” foi removido do seu carrinho.`,
    );
    await expect.poll(() => badge(page).textContent()).toBe('1');
    await removed;

    // Nothing to scroll sideways on a 360 px phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );

    // The page empties at once; wait for the server before reloading.
    const cleared = cartSaved(page);
    await page.getByRole('button', { name: 'Esvaziar carrinho' }).click();
    await page.getByText('Seu carrinho está vazio').waitFor();
    await expect.poll(() => badge(page).count()).toBe(0);
    await cleared;
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.getByText('Seu carrinho está vazio').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Continuar comprando' }).getAttribute('href')).toBe(
      '/products',
    );
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("caps every quantity at the store's limit per order (10), a forged cookie's too", async () => {
    const { page, problems } = await openPage(browser, server.url);
    // 75 in stock: the limit, not the stock, stops it.
    const response = await page.request.post(`${server.url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '9999' },
    });
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain(
      `Cada pedido pode ter até 10 unidades de “${HEADPHONES.name}”; seu carrinho ficou com 10.`,
    );
    await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
    const headphones = line(page, HEADPHONES.name);
    const quantity = headphones.getByRole('spinbutton', {
      name: `Quantidade de ${HEADPHONES.name}`,
    });
    expect(await quantity.inputValue()).toBe('10');
    expect(await quantity.getAttribute('max')).toBe('10');
    const plus = headphones.getByRole('button', {
      name: `Aumentar quantidade de ${HEADPHONES.name}`,
    });
    expect(await plus.getAttribute('aria-disabled')).toBe('true');
    expect(await headphones.getByRole('status').innerText()).toBe(
      'Quantidade máxima disponível: 10.',
    );

    // A cart cookie written by hand with 9999 units (120 in stock) comes back as 10, and says so.
    const forged = await cartCookieHeader([
      {
        productId: MOUSE.id,
        variantId: null,
        quantity: 9999,
        seenPriceCents: MOUSE.priceCents,
        seenName: '',
      },
    ]);
    const [name, value] = forged.slice(0, forged.indexOf(';')).split(/=(.*)/s) as [string, string];
    await page.context().addCookies([{ name, value, url: server.url }]);
    await page.reload({ waitUntil: 'networkidle' });
    expect(await notices(page).innerText()).toContain(
      `Cada pedido pode ter até 10 unidades de “${MOUSE.name}”; a quantidade no seu carrinho ` +
        'foi ajustada.',
    );
    expect(
      await line(page, MOUSE.name)
        .getByRole('spinbutton', { name: `Quantidade de ${MOUSE.name}` })
        .inputValue(),
    ).toBe('10');
    // The correction was stored: the header, which counts the cookie, says 10 from now on.
    await page.reload({ waitUntil: 'networkidle' });
    expect(await badge(page).textContent()).toBe('10');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('works before JavaScript: add from a card, change, remove', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(server.url);
    await page
      .getByTestId('product-card')
      .filter({ hasText: HEADPHONES.name })
      .getByRole('button', { name: /Adicionar ao carrinho/ })
      .click();
    // Redirected, so the page and the header read the new cookie.
    await page.waitForURL(`${server.url}/cart`);
    expect(await line(page, HEADPHONES.name).count()).toBe(1);
    expect(await badge(page).textContent()).toBe('1');

    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: `Aumentar quantidade de ${HEADPHONES.name}` }).click(),
    ]);
    expect(await badge(page).textContent()).toBe('2');
    expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 599,80');

    // A typed quantity needs its button here.
    await page.getByRole('spinbutton', { name: `Quantidade de ${HEADPHONES.name}` }).fill('3');
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: `Atualizar a quantidade de ${HEADPHONES.name}` }).click(),
    ]);
    expect(await badge(page).textContent()).toBe('3');

    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: `Remover ${HEADPHONES.name} do carrinho` }).click(),
    ]);
    expect(await page.getByText('Seu carrinho está vazio').isVisible()).toBe(true);
    expect(await badge(page).count()).toBe(0);
    await context.close();
  });

  it('"Comprar agora" puts the product in the cart and goes to /checkout', async () => {
    const { page } = await openPage(browser, `${server.url}/product/${MOUSE.id}`);
    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.waitForURL(`${server.url}/checkout`);
    await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
    expect(await lines(page).count()).toBe(1);
    expect(await line(page, MOUSE.name).count()).toBe(1);
    await page.context().close();
  });

  it('answers bad input with a 4xx and a message in Portuguese, never a 500', async () => {
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/cart`, { method: 'POST', body, headers, redirect: 'manual' });
    const form = (fields: Record<string, string>) => new URLSearchParams(fields);
    const cases: [Response, number, string][] = [
      [await post(form({})), 400, 'Ação inválida no carrinho.'],
      [await post(form({ intent: 'add', productId: 'abc' })), 400, 'Produto inválido.'],
      [
        await post(form({ intent: 'add', productId: HEADSET.id, quantity: '-2' })),
        400,
        'Informe uma quantidade de 1 a 9999.',
      ],
      [
        await post(form({ intent: 'add', productId: '5a3b1e00-0000-4000-8000-0000000000ff' })),
        404,
        'Produto não encontrado.',
      ],
      [
        await post(form({ intent: 'buy', productId: SMARTWATCH.id })),
        409,
        `O produto “${SMARTWATCH.name}” está esgotado.`,
      ],
      [
        await post('{"intent":"clear"}', { 'Content-Type': 'application/json' }),
        400,
        'Envie os dados pelo formulário da loja.',
      ],
    ];
    for (const [response, status, message] of cases) {
      expect(response.status).toBe(status);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.text()).toContain(message.replaceAll('"', '&quot;'));
    }

    const bought = await post(form({ intent: 'buy', productId: HEADSET.id, quantity: '2' }));
    expect(bought.status).toBe(302);
    expect(bought.headers.get('location')).toBe('/checkout');
    expect(bought.headers.get('set-cookie')).toMatch(/^vitrine_cart=.+; Max-Age=2592000/);

    for (const cookie of [
      'vitrine_cart=lixo',
      'vitrine_cart=%E0%A4%A',
      `vitrine_cart=${btoa('[1')}`,
    ]) {
      for (const path of ['/', '/cart']) {
        const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
        expect(response.status).toBe(200);
      }
      const cart = await (await fetch(`${server.url}/cart`, { headers: { cookie } })).text();
      expect(cart).toContain('Seu carrinho está vazio');
    }
  });

  it.runIf(TEST_DATABASE_URL)(
    'removes a product deleted after it was added, says so, and corrects the badge',
    async () => {
      const { rows } = await client!.query<{ id: string }>(
        `insert into products (name, price_cents, stock_quantity)
         values ('Produto Temporário', 5000, 3) returning id`,
      );
      const temporary = rows[0]!.id;
      const { page, problems } = await openPage(browser, server.url);
      await add(page, temporary, 2);
      await add(page, HEADPHONES.id);
      await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
      expect(await lines(page).count()).toBe(2);
      expect(await badge(page).textContent()).toBe('3');

      await client!.query('delete from products where id = $1', [temporary]);
      await page.reload({ waitUntil: 'networkidle' });

      expect(await notices(page).innerText()).toBe(
        'O produto “Produto Temporário” não está mais disponível e foi removido do seu carrinho.',
      );
      expect(await lines(page).count()).toBe(1);
      expect(await line(page, HEADPHONES.name).count()).toBe(1);
      expect(await badge(page).textContent()).toBe('1');
      expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 299,90');
      await expect(seriousAxeViolations(page)).resolves.toEqual([]);
      // Said once: the cookie now holds the corrected cart.
      await page.reload({ waitUntil: 'networkidle' });
      expect(await notices(page).innerText()).toBe('');
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it.runIf(TEST_DATABASE_URL)(
    'charges a price changed after adding, showing the old and the new price',
    async () => {
      const { page, problems } = await openPage(browser, server.url);
      await add(page, MOUSE.id, 2);
      await client!.query('update products set price_cents = 9990 where id = $1', [MOUSE.id]);
      try {
        await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
        expect(await notices(page).innerText()).toBe(
          `O preço de “${MOUSE.name}” mudou de R$ 129,90 para R$ 99,90.`,
        );
        expect(await line(page, MOUSE.name).getByTestId('cart-line-total').innerText()).toContain(
          'R$ 199,80',
        );
        expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 199,80');
        await page.reload({ waitUntil: 'networkidle' });
        expect(await notices(page).innerText()).toBe('');
      } finally {
        await client!.query('update products set price_cents = $2 where id = $1', [
          MOUSE.id,
          MOUSE.priceCents,
        ]);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );

  it.runIf(TEST_DATABASE_URL)(
    'charges flat-rate shipping below the free threshold and holds checkout below the minimum order',
    async () => {
      const setSettings = (values: object) =>
        client!.query('update store_settings set values = values || $1::jsonb', [
          JSON.stringify(values),
        ]);
      await setSettings({
        shipping_mode: 'flat_rate',
        default_shipping_cost_cents: 1500,
        free_shipping_threshold_cents: 100_000,
        min_order_value_cents: 50_000,
      });
      try {
        const { page, problems } = await openPage(browser, server.url, VIEWPORTS.mobile);
        await add(page, MOUSE.id, 2);
        // Settings reach the server by NOTIFY; allow them a moment.
        await expect
          .poll(
            async () => {
              await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
              return page.getByTestId('cart-shipping').innerText();
            },
            { timeout: 5_000 },
          )
          .toBe('R$ 15,00');
        expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 274,80');
        expect(
          await page.getByText('Frete grátis em compras a partir de R$ 1.000,00.').count(),
        ).toBe(1);
        expect(
          await page
            .getByText('O pedido mínimo é de R$ 500,00. Faltam R$ 240,20 para finalizar a compra.')
            .count(),
        ).toBe(1);
        expect(await page.getByRole('link', { name: 'Finalizar compra' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Finalizar compra' }).isDisabled()).toBe(
          true,
        );
        await expect(seriousAxeViolations(page)).resolves.toEqual([]);

        // From the free threshold on, shipping is free; the minimum is met too.
        await page.getByRole('spinbutton', { name: `Quantidade de ${MOUSE.name}` }).fill('8');
        await page.getByRole('spinbutton', { name: `Quantidade de ${MOUSE.name}` }).press('Enter');
        await expect.poll(() => page.getByTestId('cart-shipping').innerText()).toBe('Grátis');
        expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 1.039,20');
        expect(await page.getByRole('link', { name: 'Finalizar compra' }).count()).toBe(1);
        expect(problems).toEqual([]);
        await page.context().close();
      } finally {
        await client!.query(
          `update store_settings set values = values - 'shipping_mode' - 'default_shipping_cost_cents'
             - 'free_shipping_threshold_cents' - 'min_order_value_cents'`,
        );
      }
    },
  );
});

// One server for the store's offers: first without any, then with the settings saved through the
// admin (a server costs seconds of CPU to start).
describe('cart offers', () => {
  const store = useStoreAndBrowser();

  it('shows neither a PIX total nor instalments without offers', async () => {
    const shopper = new Visitor(store.server.url);
    await shopper.addToCart(HEADPHONES.id);
    const cart = await shopper.get('/cart');
    expect(cart.status).toBe(200);
    expect(textsOf(cart.text, '[data-testid="cart-total"]')).toEqual(['R$ 299,90']);
    expect(elements(cart.text, '[data-testid="cart-pix-total"]')).toEqual([]);
    expect(elements(cart.text, '[data-testid="cart-offers"]')).toEqual([]);
  });

  describe('with a PIX discount and instalments', () => {
    beforeAll(async () => {
      await saveSampleSettings(await firstAdminVisitor(store.server), {
        pix_discount_percent: 10,
        max_installments: 12,
        min_installment_cents: 500,
        shipping_mode: 'flat_rate',
        default_shipping_cost_cents: 1000,
        free_shipping_threshold_cents: 50000,
      });
    });

    it('writes the PIX total into the cart page the server renders', async () => {
      const shopper = new Visitor(store.server.url);
      await shopper.addToCart(HEADPHONES.id);
      const cart = await shopper.get('/cart');
      // R$ 299,90 − 10% (R$ 29,99) + R$ 10,00 of shipping.
      expect(textsOf(cart.text, '[data-testid="cart-pix-total"]')).toEqual(['R$ 279,91']);
      expect(elements(cart.text, '[data-testid="cart-offers"]')).toHaveLength(1);
    });
    it.each(Object.entries(VIEWPORTS))(
      'shows the total paid with PIX and the instalments, as the checkout charges (%s)',
      async (_name, viewport) => {
        const { page, problems } = await openPage(store.browser, store.server.url, viewport);
        for (const product of [HEADPHONES, MOUSE]) {
          const response = await page.request.post(`${store.server.url}/cart`, {
            form: { intent: 'add', productId: product.id, quantity: '1' },
          });
          expect(response.status()).toBe(200);
        }
        await page.goto(`${store.server.url}/cart`, { waitUntil: 'networkidle' });
        // R$ 299,90 + R$ 129,90 = R$ 429,80, shipping R$ 10,00: R$ 439,80. PIX takes 10% off the
        // products only: R$ 429,80 − R$ 42,98 + R$ 10,00 = R$ 396,82.
        const subtotal = HEADPHONES.priceCents + MOUSE.priceCents;
        const pixTotal = subtotal - pixDiscountCents(subtotal, { pix_discount_percent: 10 }) + 1000;
        expect(formatCents(pixTotal)).toBe('R$ 396,82');
        expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 439,80');
        expect(await page.getByTestId('cart-pix-total').innerText()).toBe('R$ 396,82');
        expect(await page.getByTestId('cart-pix-saving').innerText()).toBe(
          '10% de desconto no PIX: você economiza R$ 42,98.',
        );
        // Card and 12 instalments are switched on, and the sandbox takes cards: R$ 439,80 / 12.
        expect(await page.getByTestId('cart-installments').innerText()).toBe(
          'ou 12x de R$ 36,65 sem juros',
        );
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        await expect(seriousAxeViolations(page)).resolves.toEqual([]);

        // The checkout's total for PIX is the cart's.
        await page.goto(`${store.server.url}/checkout`, { waitUntil: 'networkidle' });
        expect(await page.getByTestId('summary-total').innerText()).toBe('R$ 396,82');
        expect(problems).toEqual([]);
        await page.context().close();
      },
    );
  });
});
