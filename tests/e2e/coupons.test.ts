import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { coupons } from '~/db/schema';
import { COUPON_MESSAGES, couponMissText } from '~/modules/coupons';

import { firstAdminVisitor, saveSampleSettings } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { startFakeCepServer, type FakeCepServer } from '../support/fake-cep';
import { attribute, element, elements, textsOf } from '../support/html';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { VALID_CHECKOUT, Visitor } from '../support/visitor';

// R$ 129,90, 120 in stock (Informática).
const MOUSE = sampleProduct('Mouse Sem Fio');
// R$ 299,90, 75 in stock (Áudio).
const HEADPHONES = sampleProduct('Fone de Ouvido');

const PAULISTA_CEP = '01310100';
const PAULISTA = {
  logradouro: 'Avenida Paulista',
  bairro: 'Bela Vista',
  localidade: 'São Paulo',
  uf: 'SP',
};
const CONFIRMATION_URL = /\/order-confirmation\?/;
const THANK_YOU_URL = /\/thank-you\?/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The coupons of the store under test, one per kind and one per reason to refuse. */
async function seedCoupons(db: Db) {
  const now = Date.now();
  await db.insert(coupons).values([
    { code: 'DEZPORCENTO', kind: 'percent', value: 10 },
    { code: 'VINTEREAIS', kind: 'fixed', value: 2000 },
    { code: 'SEMFRETE', kind: 'free_shipping', value: 0 },
    { code: 'FUTURO', kind: 'percent', value: 10, startsAt: new Date(now + 30 * DAY_MS) },
    { code: 'VENCIDO', kind: 'percent', value: 10, endsAt: new Date(now - DAY_MS) },
    { code: 'ACIMADE500', kind: 'percent', value: 5, minSubtotalCents: 50_000 },
    { code: 'ESGOTADO', kind: 'percent', value: 5, usageLimit: 1, usedCount: 1 },
    { code: 'UMAVEZ', kind: 'percent', value: 5, usageLimitPerCustomer: 1 },
    { code: 'SOFONES', kind: 'percent', value: 5, productIds: [HEADPHONES.id] },
    { code: 'PRIMEIRA', kind: 'percent', value: 5, firstPurchaseOnly: true },
    { code: 'CINCO', kind: 'percent', value: 5 },
  ]);
}

/** Whitespace squeezed, as a shopper reads it. */
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A shopper of their own: CPF, e-mail and client address (first purchases are by CPF or e-mail). */
function newShopper() {
  const cpf = shopperCpf();
  return {
    name: 'Joana Cupom',
    email: `joana.${cpf.replace(/\D/g, '')}@example.com`,
    cpf,
    phone: '(11) 98765-4321',
  };
}
type Shopper = ReturnType<typeof newShopper>;

function contextOptions(options: BrowserContextOptions = {}): BrowserContextOptions {
  return {
    viewport: VIEWPORTS.mobile,
    locale: 'pt-BR',
    extraHTTPHeaders: { 'X-Forwarded-For': shopperAddress() },
    ...options,
  };
}

/** A 360 px page of its own that records errors (a test expects none unless it says so). */
async function newPage(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(contextOptions(options));
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return { page, problems };
}

const couponField = (page: Page) => page.getByLabel('Cupom de desconto');
const applyButton = (page: Page) => page.getByRole('button', { name: 'Aplicar' });
const couponProblem = (page: Page) => page.locator('#coupon-problem');
const checkoutForm = (page: Page) => page.locator('form[action="/checkout"]');
const field = (page: Page, label: string) =>
  checkoutForm(page).getByLabel(label, { exact: label !== 'Complemento' });
const submitButton = (page: Page) =>
  checkoutForm(page).getByRole('button', { name: 'Finalizar pedido' });

/** The money rows of a summary (`dl`), as 'label: value' lines. */
async function summaryRows(page: Page, testIdPrefix: 'cart' | 'summary'): Promise<string[]> {
  const region =
    testIdPrefix === 'cart'
      ? page.locator('section[aria-labelledby="cart-summary-title"] dl')
      : page.getByRole('region', { name: 'Resumo do pedido' }).locator('dl');
  return region
    .locator(':scope > div')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [row.querySelector('dt'), row.querySelector('dd')]
          .map((cell) => (cell?.textContent ?? '').replace(/\s+/g, ' ').trim())
          .join(': '),
      ),
    );
}

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    VIEWPORTS.mobile.width,
  );
}

/** Puts a product in this page's cart through the storefront's own POST. */
async function addToCart(page: Page, serverUrl: string, productId: string) {
  const answer = await page.request.post(`${serverUrl}/cart`, {
    form: { intent: 'add', productId, quantity: '1' },
    maxRedirects: 0,
  });
  expect([200, 303]).toContain(answer.status());
}

/** The shopper's fields and the address, typed by hand (works with and without JavaScript). */
async function fillCheckout(page: Page, shopper: Shopper) {
  await field(page, 'Nome completo').fill(shopper.name);
  await field(page, 'E-mail').fill(shopper.email);
  await field(page, 'CPF').fill(shopper.cpf);
  await field(page, 'Telefone').fill(shopper.phone);
  await field(page, 'Rua').fill(PAULISTA.logradouro);
  await field(page, 'Número').fill('1578');
  await field(page, 'Bairro').fill(PAULISTA.bairro);
  await field(page, 'Cidade').fill(PAULISTA.localidade);
  await field(page, 'Estado').selectOption(PAULISTA.uf);
  // Last: its answer writes the same street, district and city, and cannot land in the middle
  // of the test's filling them (Playwright's fill then added its text to what the answer wrote).
  await field(page, 'CEP').fill('01310-100');
}

/** What the typed fields hold now: applying a coupon must keep them. */
async function expectCheckoutKept(page: Page, shopper: Shopper) {
  expect(await field(page, 'Nome completo').inputValue()).toBe(shopper.name);
  expect(await field(page, 'E-mail').inputValue()).toBe(shopper.email);
  expect(await field(page, 'CPF').inputValue()).toBe(shopper.cpf);
  expect(await field(page, 'Rua').inputValue()).toBe(PAULISTA.logradouro);
  expect(await field(page, 'Número').inputValue()).toBe('1578');
  expect(await field(page, 'Estado').inputValue()).toBe(PAULISTA.uf);
}

describe('coupons on the storefront (360 px, flat shipping R$ 15,00)', () => {
  let cep: FakeCepServer;
  let server: TestServer;
  let browser: Browser;
  /** The admin, for the last blocks' settings. */
  let staff: Visitor;

  beforeAll(async () => {
    cep = await startFakeCepServer({ [PAULISTA_CEP]: PAULISTA });
    [server, browser] = await Promise.all([
      startServer({
        env: { PAYMENT_PROVIDER: 'sandbox', CEP_SERVICE_URL: cep.url, CHECKOUT_RATE_LIMIT: '100' },
        settings: {
          shipping_mode: 'flat_rate',
          default_shipping_cost_cents: 1500,
          free_shipping_threshold_cents: 0,
        },
        prepare: seedCoupons,
      }),
      launchBrowser(),
    ]);
    staff = await firstAdminVisitor(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cep?.close();
  });

  // The mouse (R$ 129,90) and shipping (R$ 15,00) with each kind of coupon.
  const KINDS = [
    {
      kind: 'percent',
      code: 'DEZPORCENTO',
      line: 'Cupom DEZPORCENTO: − R$ 12,99',
      confirmation: 'Cupom DEZPORCENTO já aplicado: − R$ 12,99',
      total: 'R$ 131,91',
    },
    {
      kind: 'fixed',
      code: 'VINTEREAIS',
      line: 'Cupom VINTEREAIS: − R$ 20,00',
      confirmation: 'Cupom VINTEREAIS já aplicado: − R$ 20,00',
      total: 'R$ 124,90',
    },
    {
      kind: 'free_shipping',
      code: 'SEMFRETE',
      line: 'Cupom SEMFRETE (frete grátis): − R$ 15,00',
      confirmation: 'Cupom SEMFRETE (frete grátis) já aplicado: − R$ 15,00',
      total: 'R$ 129,90',
    },
  ] as const;

  /** The summary's rows with this coupon: subtotal, shipping, the coupon, the total. */
  const rowsWith = (line: string, total: string, subtotal = 'Subtotal') => [
    `${subtotal}: R$ 129,90`,
    'Frete: R$ 15,00',
    line,
    `Total: ${total}`,
  ];

  /** Places the order and checks the confirmation and, approved, the thank-you page. */
  async function placeAndCheck(page: Page, confirmation: string, total: string) {
    await submitButton(page).click();
    await page.waitForURL(CONFIRMATION_URL);
    await page.getByRole('heading', { level: 1, name: /^Pedido #/ }).waitFor();
    expect(await page.getByText(`Valor: ${total}`).isVisible()).toBe(true);
    const lines = await page.getByTestId('confirmation-discount').allInnerTexts();
    expect(lines.map(squeeze)).toEqual([confirmation]);
    await noHorizontalScroll(page);
    await page.getByRole('button', { name: 'Aprovar' }).click();
    await page.waitForURL(THANK_YOU_URL, { timeout: 10_000 });
    const items = page.getByRole('region', { name: 'Itens do pedido' });
    await items.waitFor({ timeout: 10_000 });
    expect(squeeze(await items.getByTestId('summary-discount').innerText())).toBe(
      confirmation.split(' já aplicado: ')[1],
    );
    expect(squeeze(await items.getByTestId('summary-total').innerText())).toBe(total);
  }

  describe.each(KINDS)('a $kind coupon ($code)', ({ code, line, confirmation, total }) => {
    it('with JavaScript: applied on the cart, shown at checkout, charged and shown on the order', async () => {
      const { page, problems } = await newPage(browser);
      await addToCart(page, server.url, MOUSE.id);
      await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
      await waitForHydration(page);
      await couponField(page).fill(code.toLowerCase());
      await applyButton(page).click();
      await page.getByTestId('coupon-applied').waitFor();
      expect(squeeze(await page.getByTestId('coupon-applied').innerText())).toBe(
        `Cupom ${code} aplicado. Remover cupom`,
      );
      await expect
        .poll(() => summaryRows(page, 'cart'))
        .toEqual(rowsWith(line, total, 'Subtotal (1 item)'));
      expect(await seriousAxeViolations(page)).toEqual([]);
      await noHorizontalScroll(page);

      await page.getByRole('link', { name: 'Finalizar compra' }).click();
      await page.waitForURL(`${server.url}/checkout`);
      await submitButton(page).waitFor();
      expect(await summaryRows(page, 'summary')).toEqual(rowsWith(line, total));
      expect(await couponField(page).inputValue()).toBe(code);
      expect(await page.getByTestId('coupon-applied').isVisible()).toBe(true);
      expect(squeeze(await page.getByTestId('checkout-submit-total').innerText())).toBe(
        `Total ${total}`,
      );
      expect(await seriousAxeViolations(page)).toEqual([]);
      await noHorizontalScroll(page);

      await fillCheckout(page, newShopper());
      await placeAndCheck(page, confirmation, total);
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('without JavaScript: applied on the cart, removed and applied again on the checkout keeping the typed fields', async () => {
      const { page, problems } = await newPage(browser, { javaScriptEnabled: false });
      await addToCart(page, server.url, MOUSE.id);
      await page.goto(`${server.url}/cart`);
      await couponField(page).fill(code);
      await applyButton(page).click();
      await page.waitForURL(`${server.url}/cart`);
      await page.getByTestId('coupon-applied').waitFor();
      expect(await summaryRows(page, 'cart')).toEqual(rowsWith(line, total, 'Subtotal (1 item)'));

      await page.getByRole('link', { name: 'Finalizar compra' }).click();
      await page.waitForURL(`${server.url}/checkout`);
      expect(await summaryRows(page, 'summary')).toEqual(rowsWith(line, total));
      const shopper = newShopper();
      await fillCheckout(page, shopper);

      // Removed, the total goes back to the full price; the typed fields stay.
      await page.getByRole('button', { name: 'Remover cupom' }).click();
      await page.waitForLoadState();
      expect(await page.getByTestId('coupon-applied').count()).toBe(0);
      expect(await summaryRows(page, 'summary')).toEqual([
        'Subtotal: R$ 129,90',
        'Frete: R$ 15,00',
        'Total: R$ 144,90',
      ]);
      await expectCheckoutKept(page, shopper);

      await couponField(page).fill(code.toLowerCase());
      await applyButton(page).click();
      await page.waitForLoadState();
      await page.getByTestId('coupon-applied').waitFor();
      expect(await summaryRows(page, 'summary')).toEqual(rowsWith(line, total));
      expect(await couponField(page).inputValue()).toBe(code);
      await expectCheckoutKept(page, shopper);
      // axe runs on these pages with JavaScript (it needs the page's timers).
      await noHorizontalScroll(page);

      await submitButton(page).click();
      await page.waitForURL(CONFIRMATION_URL);
      await page.getByRole('heading', { level: 1, name: /^Pedido #/ }).waitFor();
      expect(await page.getByText(`Valor: ${total}`).isVisible()).toBe(true);
      const lines = await page.getByTestId('confirmation-discount').allInnerTexts();
      expect(lines.map(squeeze)).toEqual([confirmation]);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  it("with JavaScript on the checkout: 'Aplicar' keeps the typed fields, and a code typed but not applied is applied instead of placing the order", async () => {
    const { page, problems } = await newPage(browser);
    await addToCart(page, server.url, MOUSE.id);
    await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
    await waitForHydration(page);
    const shopper = newShopper();
    await fillCheckout(page, shopper);

    await couponField(page).fill('vintereais');
    await applyButton(page).click();
    await page.getByTestId('coupon-applied').waitFor();
    await expect
      .poll(() => summaryRows(page, 'summary'))
      .toEqual(rowsWith('Cupom VINTEREAIS: − R$ 20,00', 'R$ 124,90'));
    await expectCheckoutKept(page, shopper);

    // Another code typed, then 'Finalizar pedido': the new price is shown first, no order yet.
    await couponField(page).fill('DEZPORCENTO');
    await submitButton(page).click();
    await expect
      .poll(() => summaryRows(page, 'summary'))
      .toEqual(rowsWith('Cupom DEZPORCENTO: − R$ 12,99', 'R$ 131,91'));
    expect(page.url()).toBe(`${server.url}/checkout`);
    await expectCheckoutKept(page, shopper);
    await placeAndCheck(page, 'Cupom DEZPORCENTO já aplicado: − R$ 12,99', 'R$ 131,91');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a /?cupom= link holds the coupon for the visit: the cart and the checkout show it applied', async () => {
    const { page, problems } = await newPage(browser);
    await page.goto(`${server.url}/?cupom=semfrete`, { waitUntil: 'networkidle' });
    await addToCart(page, server.url, MOUSE.id);
    await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
    expect(await couponField(page).inputValue()).toBe('SEMFRETE');
    expect(await page.getByTestId('coupon-applied').isVisible()).toBe(true);
    expect(await summaryRows(page, 'summary')).toEqual(
      rowsWith('Cupom SEMFRETE (frete grátis): − R$ 15,00', 'R$ 129,90'),
    );
    // Another shopper opening the same link's page gets no coupon of the first one's.
    const other = await newPage(browser);
    await other.page.goto(server.url, { waitUntil: 'networkidle' });
    await addToCart(other.page, server.url, MOUSE.id);
    await other.page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
    expect(await other.page.getByTestId('coupon-applied').count()).toBe(0);
    expect(problems).toEqual([]);
    await other.page.context().close();
    await page.context().close();
  });

  it('a link to the cart itself prices with its coupon at once; one that cannot be used says why and is forgotten', async () => {
    const { page, problems } = await newPage(browser);
    await addToCart(page, server.url, MOUSE.id);
    await page.goto(`${server.url}/cart?cupom=VINTEREAIS`, { waitUntil: 'networkidle' });
    await page.getByTestId('coupon-applied').waitFor();
    expect(await summaryRows(page, 'cart')).toEqual(
      rowsWith('Cupom VINTEREAIS: − R$ 20,00', 'R$ 124,90', 'Subtotal (1 item)'),
    );

    await page.goto(`${server.url}/cart?cupom=VENCIDO`, { waitUntil: 'networkidle' });
    expect(await couponProblem(page).textContent()).toBe(COUPON_MESSAGES.expired('VENCIDO'));
    expect(await page.getByTestId('coupon-applied').count()).toBe(0);
    expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 144,90');
    await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
    expect(await page.getByTestId('coupon-applied').count()).toBe(0);
    expect(await couponProblem(page).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  describe('refusals, each with its reason', () => {
    // With JavaScript in Chromium for one reason; every reason's text over HTTP below.
    const AT_APPLY = [['unknown', 'NAOEXISTE', COUPON_MESSAGES.unknown('NAOEXISTE')]] as const;

    it.each(AT_APPLY)(
      '%s (%s): said at the field, with JavaScript',
      async (_name, code, message) => {
        const { page, problems } = await newPage(browser);
        await addToCart(page, server.url, MOUSE.id);
        await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
        await waitForHydration(page);
        await couponField(page).fill(code);
        await applyButton(page).click();
        await expect.poll(() => couponProblem(page).textContent()).toBe(message);
        expect(await couponField(page).getAttribute('aria-invalid')).toBe('true');
        expect(await page.getByTestId('coupon-applied').count()).toBe(0);
        expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 144,90');
        expect(await seriousAxeViolations(page)).toEqual([]);
        await noHorizontalScroll(page);
        // The refusal is a 400 the page answered itself.
        expect(problems.filter((problem) => !/^HTTP 400: .*\/cart/.test(problem))).toEqual([]);
        await page.context().close();
      },
    );

    it.each([
      ['unknown', 'NAOEXISTE', 'NAOEXISTE', COUPON_MESSAGES.unknown('NAOEXISTE')],
      ['expired', 'VENCIDO', 'VENCIDO', COUPON_MESSAGES.expired('VENCIDO')],
      ['used up', 'ESGOTADO', 'ESGOTADO', COUPON_MESSAGES.usedUp('ESGOTADO')],
      ['malformed', 'A-1', 'A-1', COUPON_MESSAGES.invalidCode],
      // No campaign to come is told.
      ['not started yet', 'futuro', 'FUTURO', COUPON_MESSAGES.unknown('FUTURO')],
    ])(
      '%s (%s): said at the field without JavaScript, the code kept, the cart unchanged',
      async (_name, typed, kept, message) => {
        const visitor = new Visitor(server.url);
        await visitor.addToCart(MOUSE.id);
        const answer = await visitor.post('/cart', { intent: 'coupon', couponCode: typed });
        expect(answer.status).toBe(400);
        expect(textsOf(answer.text, '[id="coupon-problem"]')).toEqual([message]);
        const input = element(answer.text, 'input[name="couponCode"]');
        expect(attribute(input, 'aria-invalid')).toBe('true');
        expect(attribute(input, 'value')).toBe(kept);
        expect(elements(answer.text, '[data-testid="coupon-applied"]')).toEqual([]);
        expect(textsOf(answer.text, '[data-testid="cart-total"]')).toEqual(['R$ 144,90']);
        // Said once, at the field, not again above the cart.
        expect(textsOf(answer.text, '[data-testid="cart-notices"]')).toEqual(['']);
      },
    );

    it('the minimum (with what is missing) and products it is not valid for: applied, and the cart says why it changes nothing', async () => {
      const { page, problems } = await newPage(browser);
      await addToCart(page, server.url, MOUSE.id);
      await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
      await waitForHydration(page);
      await couponField(page).fill('ACIMADE500');
      await applyButton(page).click();
      await page.getByTestId('coupon-miss').waitFor();
      expect(await page.getByTestId('coupon-miss').innerText()).toBe(
        couponMissText('ACIMADE500', {
          reason: 'minimum',
          minimumCents: 50_000,
          missingCents: 50_000 - 12_990,
        }),
      );
      expect(await page.getByTestId('coupon-miss').innerText()).toContain('Faltam R$ 370,10');
      expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 144,90');

      await couponField(page).fill('SOFONES');
      await applyButton(page).click();
      await expect
        .poll(() => page.getByTestId('coupon-miss').innerText())
        .toBe(couponMissText('SOFONES', { reason: 'products' }));
      expect(await page.getByTestId('cart-total').innerText()).toBe('R$ 144,90');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await noHorizontalScroll(page);

      // At checkout too, and an order placed there carries no coupon.
      await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
      expect(await page.getByTestId('coupon-miss').innerText()).toBe(
        couponMissText('SOFONES', { reason: 'products' }),
      );
      expect(await summaryRows(page, 'summary')).toEqual([
        'Subtotal: R$ 129,90',
        'Frete: R$ 15,00',
        'Total: R$ 144,90',
      ]);
      expect(problems).toEqual([]);
      await page.context().close();
    });

    /** A shopper's order (without JavaScript, over HTTP), with a coupon when given. */
    async function orderAs(shopper: Shopper, couponCode = '') {
      const visitor = new Visitor(server.url);
      await visitor.addToCart(MOUSE.id);
      if (couponCode) {
        const applied = await visitor.post('/cart', { intent: 'coupon', couponCode });
        expect(applied.status).toBe(303);
      }
      await visitor.checkout({
        ...VALID_CHECKOUT,
        customerName: shopper.name,
        customerEmail: shopper.email,
        customerCpf: shopper.cpf,
        couponCode,
      });
    }

    it.each([
      ['already used by this shopper', 'UMAVEZ', COUPON_MESSAGES.usedByShopper('UMAVEZ')],
      ['first purchase only', 'PRIMEIRA', COUPON_MESSAGES.firstPurchase('PRIMEIRA')],
    ])(
      '%s (%s): said at the coupon field when the order is placed, everything typed kept',
      async (_name, code, message) => {
        const shopper = newShopper();
        await orderAs(shopper, code === 'UMAVEZ' ? code : '');

        const { page, problems } = await newPage(browser);
        await addToCart(page, server.url, MOUSE.id);
        await page.goto(`${server.url}/cart`, { waitUntil: 'networkidle' });
        await waitForHydration(page);
        await couponField(page).fill(code);
        await applyButton(page).click();
        await page.getByTestId('coupon-applied').waitFor();
        await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
        await waitForHydration(page);
        await fillCheckout(page, shopper);
        await submitButton(page).click();
        await expect.poll(() => couponProblem(page).textContent()).toBe(message);
        expect(page.url()).toBe(`${server.url}/checkout`);
        expect(await couponField(page).getAttribute('aria-invalid')).toBe('true');
        await expectCheckoutKept(page, shopper);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await noHorizontalScroll(page);
        expect(problems.filter((problem) => !/^HTTP 409: .*\/checkout/.test(problem))).toEqual([]);

        // Without the coupon, the same shopper buys.
        await page.getByRole('button', { name: 'Remover cupom' }).click();
        await expect.poll(() => page.getByTestId('coupon-applied').count()).toBe(0);
        await submitButton(page).click();
        await page.waitForURL(CONFIRMATION_URL);
        await page.getByRole('heading', { level: 1, name: /^Pedido #/ }).waitFor();
        expect(await page.getByText('Valor: R$ 144,90').isVisible()).toBe(true);
        await page.context().close();
      },
    );
  });

  describe.each([
    { stacks: false, outcome: 'the better of the two applies and the cart says which' },
    { stacks: true, outcome: 'both discounts show' },
  ])(
    'the PIX discount (10%) and a 5% coupon, coupon_stacks_with_pix $stacks: $outcome',
    ({ stacks }) => {
      // The same server: free shipping again (the sample store's), its PIX discount saved through
      // the admin (a server costs seconds of CPU to start).
      beforeAll(async () => {
        await saveSampleSettings(staff, {
          pix_discount_percent: 10,
          coupon_stacks_with_pix: stacks,
        });
      });

      it('on the cart and the checkout', async () => {
        const { page, problems } = await newPage(browser);
        // R$ 299,90: the coupon takes R$ 14,99 off, the PIX discount R$ 29,99 (alone).
        await addToCart(page, server.url, HEADPHONES.id);
        await page.goto(`${server.url}/cart?cupom=CINCO`, { waitUntil: 'networkidle' });
        await page.getByTestId('coupon-applied').waitFor();
        const miss = page.getByTestId('coupon-miss');
        const pixBetter = couponMissText('CINCO', { reason: 'pix_better' });
        if (stacks) expect(await miss.count()).toBe(0);
        else expect(await miss.innerText()).toBe(pixBetter);
        expect(await summaryRows(page, 'cart')).toEqual([
          'Subtotal (1 item): R$ 299,90',
          'Frete: Grátis',
          'Cupom CINCO: − R$ 14,99',
          'Total: R$ 284,91',
          // Stacked, 10% of R$ 284,91 (R$ 28,49) comes off too; not, the PIX discount alone.
          `Total no PIX: ${stacks ? 'R$ 256,42' : 'R$ 269,91'}`,
        ]);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await noHorizontalScroll(page);

        await page.goto(`${server.url}/checkout`, { waitUntil: 'networkidle' });
        expect(await summaryRows(page, 'summary')).toEqual(
          stacks
            ? [
                'Subtotal: R$ 299,90',
                'Frete: Grátis',
                'Cupom CINCO: − R$ 14,99',
                'Desconto PIX (10%): − R$ 28,49',
                'Total: R$ 256,42',
              ]
            : [
                'Subtotal: R$ 299,90',
                'Frete: Grátis',
                'Desconto PIX (10%): − R$ 29,99',
                'Total: R$ 269,91',
              ],
        );
        if (stacks) expect(await miss.count()).toBe(0);
        else expect(await miss.innerText()).toBe(pixBetter);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await noHorizontalScroll(page);

        await fillCheckout(page, newShopper());
        await submitButton(page).click();
        await page.waitForURL(CONFIRMATION_URL);
        await page.getByRole('heading', { level: 1, name: /^Pedido #/ }).waitFor();
        expect(
          await page.getByText(`Valor: ${stacks ? 'R$ 256,42' : 'R$ 269,91'}`).isVisible(),
        ).toBe(true);
        expect(
          (await page.getByTestId('confirmation-discount').allInnerTexts()).map(squeeze),
        ).toEqual(
          stacks
            ? ['Cupom CINCO já aplicado: − R$ 14,99', 'Desconto PIX (10%) já aplicado: − R$ 28,49']
            : ['Desconto PIX (10%) já aplicado: − R$ 29,99'],
        );
        expect(problems).toEqual([]);
        await page.context().close();
      });
    },
  );
});
