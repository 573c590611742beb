import { randomUUID } from 'node:crypto';

import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { SANDBOX_PAYMENT_PATH } from '~/components/store/order-payment';

import { firstAdminVisitor, saveSampleSettings } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { startFakeCepServer, type FakeCepServer } from '../support/fake-cep';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { orderNumberIn, VALID_CHECKOUT, visibleText, Visitor } from '../support/visitor';

// R$ 299,90, 75 in stock.
const HEADPHONES = sampleProduct('Fone de Ouvido');
// R$ 249,90, 5 in stock: only the rejected payment buys it, so its stock reads exactly.
const HEADSET = sampleProduct('Headset Gamer');

// The fake ViaCEP knows one CEP; two others stand for the service failing and not answering.
const PAULISTA_CEP = '01310100';
const PAULISTA = {
  logradouro: 'Avenida Paulista',
  bairro: 'Bela Vista',
  localidade: 'São Paulo',
  uf: 'SP',
};
const FAILING_CEP = '20040002';
const SILENT_CEP = '30130010';

const CUSTOMER = {
  name: 'Maria Aparecida Teste',
  email: 'maria.teste@example.com',
  // Each test's own (beforeEach): the store allows few unpaid orders per CPF.
  cpf: '',
  cpfMasked: '',
  phone: '11987654321',
  phoneMasked: '(11) 98765-4321',
  number: '1578',
  complement: 'Apto 42',
};
const BAD_CPF = '12345678900';

const CEP_FAILED = 'Não foi possível buscar o CEP agora. Preencha o endereço manualmente.';
const CEP_FOUND = 'Endereço encontrado. Confira e informe o número.';
const MISSING_PAYMENT = 'Não foi possível encontrar os dados de pagamento';
const TEST_MODE = 'Modo de teste: nenhum pagamento real é feito nesta loja.';
const CONFIRMATION_URL = /\/order-confirmation\?/;
const THANK_YOU_URL = /\/thank-you\?/;
// One poll (every 5 s) and its answer, with room for a busy machine; two polls would be 10 s.
const ONE_POLL_MS = 7_500;

const checkoutForm = (page: Page) => page.locator('form[action="/checkout"]');
const field = (page: Page, label: string) =>
  checkoutForm(page).getByLabel(label, { exact: label !== 'Complemento' });
const submitButton = (page: Page) =>
  checkoutForm(page).getByRole('button', { name: 'Finalizar pedido' });
const orderCard = (page: Page, number: string) =>
  page.getByTestId('order-card').filter({ hasText: `Pedido #${number}` });
const noHorizontalScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    VIEWPORTS.mobile.width,
  );

beforeEach(() => {
  CUSTOMER.cpfMasked = shopperCpf();
  CUSTOMER.cpf = CUSTOMER.cpfMasked.replace(/\D/g, '');
});

describe('checkout with the sandbox provider', () => {
  let cep: FakeCepServer;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    cep = await startFakeCepServer({
      [PAULISTA_CEP]: PAULISTA,
      [FAILING_CEP]: 'error',
      [SILENT_CEP]: 'hang',
    });
    [server, browser] = await Promise.all([
      startServer({
        env: {
          PAYMENT_PROVIDER: 'sandbox',
          CEP_SERVICE_URL: cep.url,
          // The file places about a dozen orders from one address within a minute.
          CHECKOUT_RATE_LIMIT: '100',
        },
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cep?.close();
  });

  /**
   * A page in a context of its own (its own cookies and client address), recording console
   * errors, failed requests and HTTP errors as `openPage` does, with extra context options
   * (clipboard, no JavaScript).
   */
  async function newPage(
    viewport: { width: number; height: number } = VIEWPORTS.desktop,
    options: BrowserContextOptions = {},
  ): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({
      viewport,
      locale: 'pt-BR',
      extraHTTPHeaders: { 'X-Forwarded-For': shopperAddress() },
      ...options,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    watch(page, problems);
    return { page, problems };
  }

  function watch(page: Page, problems: string[]) {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      // Leaving a page cancels what it was still fetching: the confirmation page's poll, the
      // thank-you page's look-ups again (a slow one is also cancelled by the next), route
      // discovery, the scripts a storefront page starts after its load event. A cancelled read
      // is the browser's doing; a cancelled form post would be lost work, so it still counts.
      const error = request.failure()?.errorText;
      const superseded = error === 'net::ERR_ABORTED' && request.method() === 'GET';
      if (!superseded) problems.push(`request failed: ${request.url()} (${error})`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
  }

  /** 'Comprar agora' on the product page: the product goes in the cart and the page to /checkout. */
  async function buyNow(page: Page, product = HEADPHONES) {
    await page.goto(`${server.url}/product/${product.id}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.waitForURL(`${server.url}/checkout`);
    await submitButton(page).waitFor();
    // On a busy machine the checkout may arrive as a new document (the product page was not yet
    // hydrated): a click before React takes over would post the form natively.
    await waitForHydration(page);
  }

  /** Name, e-mail, CPF and phone, the masked ones typed key by key as a shopper would. */
  async function fillCustomer(page: Page, cpf = CUSTOMER.cpf) {
    await field(page, 'Nome completo').fill(CUSTOMER.name);
    await field(page, 'E-mail').fill(CUSTOMER.email);
    await field(page, 'CPF').fill('');
    await field(page, 'CPF').pressSequentially(cpf);
    await field(page, 'Telefone').pressSequentially(CUSTOMER.phone);
  }

  /** Types the CEP the fake service knows, checks what it filled in, adds number and complement. */
  async function fillAddressByCep(page: Page) {
    await field(page, 'CEP').pressSequentially(PAULISTA_CEP);
    expect(await field(page, 'CEP').inputValue()).toBe('01310-100');
    await expect
      .poll(() => checkoutForm(page).getByTestId('cep-status').innerText())
      .toBe(CEP_FOUND);
    expect(await field(page, 'Rua').inputValue()).toBe(PAULISTA.logradouro);
    expect(await field(page, 'Bairro').inputValue()).toBe(PAULISTA.bairro);
    expect(await field(page, 'Cidade').inputValue()).toBe(PAULISTA.localidade);
    expect(await field(page, 'Estado').inputValue()).toBe(PAULISTA.uf);
    // With the street known, the shopper is taken to the number.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe('checkout-number');
    await field(page, 'Número').fill(CUSTOMER.number);
    await field(page, 'Complemento').fill(CUSTOMER.complement);
  }

  /** The address typed by hand (no JavaScript, or no CEP service). */
  async function fillAddressByHand(page: Page, zipCode: string) {
    const zip = field(page, 'CEP');
    if (!(await zip.inputValue())) await zip.fill(zipCode);
    await field(page, 'Rua').fill(PAULISTA.logradouro);
    await field(page, 'Número').fill(CUSTOMER.number);
    await field(page, 'Bairro').fill(PAULISTA.bairro);
    await field(page, 'Cidade').fill(PAULISTA.localidade);
    await field(page, 'Estado').selectOption(PAULISTA.uf);
  }

  /** Submits the form and waits for the confirmation page; returns what its address names. */
  async function placeOrder(page: Page) {
    await submitButton(page).click();
    await page.waitForURL(CONFIRMATION_URL);
    // The address changes as the new page renders: wait for the page itself.
    const heading = page.getByRole('heading', { level: 1, name: /^Pedido #/ });
    await heading.waitFor();
    const url = new URL(page.url());
    const orderId = url.searchParams.get('orderId')!;
    const paymentId = url.searchParams.get('paymentId')!;
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(paymentId).toBeTruthy();
    return {
      orderId,
      paymentId,
      number: orderNumberIn(await heading.innerText()),
      url: page.url(),
    };
  }

  /** buyNow, the whole form and the submission, without the checks along the way. */
  async function quickOrder(page: Page, product = HEADPHONES) {
    await buyNow(page, product);
    await fillCustomer(page);
    await fillAddressByCep(page);
    return placeOrder(page);
  }

  /**
   * An order placed through the same POSTs the forms send, for tests about what comes after. The
   * form goes twice, as a double click or a resend would: the second finds the first order.
   */
  async function orderByRequest(page: Page) {
    const added = await page.request.post(`${server.url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
    });
    expect(added.status()).toBe(200);
    const idempotencyKey = randomUUID();
    const submit = () =>
      page.request.post(`${server.url}/checkout`, {
        form: {
          customerName: CUSTOMER.name,
          customerEmail: CUSTOMER.email,
          customerCpf: CUSTOMER.cpfMasked,
          customerPhone: CUSTOMER.phoneMasked,
          zipCode: '01310-100',
          street: PAULISTA.logradouro,
          number: CUSTOMER.number,
          complement: '',
          neighborhood: PAULISTA.bairro,
          city: PAULISTA.localidade,
          state: PAULISTA.uf,
          paymentMethod: 'pix',
          idempotencyKey,
        },
        maxRedirects: 0,
      });
    const placed = await submit();
    expect(placed.status()).toBe(303);
    const location = new URL(placed.headers().location!, server.url);
    expect(location.pathname).toBe('/order-confirmation');
    const resent = await submit();
    expect(resent.status()).toBe(303);
    expect(resent.headers().location).toBe(placed.headers().location);
    const confirmation = await page.request.get(location.href);
    return orderNumberIn(await confirmation.text());
  }

  /** Waits (one poll at most) for the thank-you page, rendered. */
  async function reachThankYou(page: Page) {
    await page.waitForURL(THANK_YOU_URL, { timeout: ONE_POLL_MS });
    await page.getByTestId('delivery-estimate').waitFor({ timeout: ONE_POLL_MS });
  }

  /** The PIX as the confirmation page shows it: QR, code, countdown; returns the code. */
  async function expectLivePix(page: Page): Promise<string> {
    expect(await page.getByTestId('pix-qr').locator('svg').count()).toBe(1);
    const code = await page.getByTestId('pix-code').inputValue();
    // A BR Code: payload format 01, PIX's GUI, BRL, ending in its CRC16.
    expect(code).toMatch(/^000201.*br\.gov\.bcb\.pix.*5303986.*6304[0-9A-F]{4}$/);
    const countdown = page.getByTestId('pix-countdown');
    expect(await countdown.innerText()).toMatch(/^Este código expira em (29:[0-5]\d|30:00)$/);
    return code;
  }

  describe.each([
    ['phone, 360 px', VIEWPORTS.mobile],
    ['desktop', VIEWPORTS.desktop],
  ])('a full purchase (%s)', (_name, viewport) => {
    it('buys now, corrects the CPF, fills the address from the CEP, pays with PIX and sees it in the history', async () => {
      const { page, problems } = await newPage(viewport, {
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      await buyNow(page);
      expect(await page.getByText(TEST_MODE).isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: 'Resumo do pedido' }).isVisible()).toBe(true);
      expect(await page.getByText(HEADPHONES.name).first().isVisible()).toBe(true);

      // A CPF with wrong check digits: refused beside the field, which gets the focus.
      await fillCustomer(page, BAD_CPF);
      expect(await field(page, 'CPF').inputValue()).toBe('123.456.789-00');
      await submitButton(page).click();
      const cpfError = checkoutForm(page).locator('#checkout-customerCpf-error');
      await expect.poll(() => cpfError.innerText()).toBe('CPF inválido');
      expect(await field(page, 'CPF').getAttribute('aria-invalid')).toBe('true');
      expect(await field(page, 'CPF').getAttribute('aria-describedby')).toBe(
        'checkout-customerCpf-error',
      );
      // The focus moves in an effect, after the errors are drawn.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id))
        .toBe('checkout-customerCpf');
      expect(await page.getByRole('alert').first().innerText()).toBe(
        'Confira os campos destacados.',
      );
      expect(page.url()).toBe(`${server.url}/checkout`);

      // Typed digit by digit, the mask punctuates it.
      await field(page, 'CPF').fill('');
      await field(page, 'CPF').pressSequentially(CUSTOMER.cpf);
      expect(await field(page, 'CPF').inputValue()).toBe(CUSTOMER.cpfMasked);
      expect(await field(page, 'Telefone').inputValue()).toBe(CUSTOMER.phoneMasked);
      await fillAddressByCep(page);
      expect(cep.requests).toContain(PAULISTA_CEP);
      const { number, orderId, paymentId } = await placeOrder(page);

      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Pedido #${number}`);
      expect(await page.getByText('Valor: R$ 299,90').isVisible()).toBe(true);
      const code = await expectLivePix(page);
      const countdown = page.getByTestId('pix-countdown');
      const shown = await countdown.innerText();
      await expect.poll(() => countdown.innerText(), { timeout: 3_000 }).not.toBe(shown);

      await page.getByRole('button', { name: 'Copiar' }).click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Código copiado!' }).count())
        .toBe(1);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

      // The cart was emptied by the order.
      expect(await page.getByTestId('cart-count').count()).toBe(0);

      expect(await page.getByText(TEST_MODE).isVisible()).toBe(true);
      expect(await page.getByText('Modo de teste: simule a resposta do banco.').isVisible()).toBe(
        true,
      );
      await page.getByRole('button', { name: 'Aprovar' }).click();
      await reachThankYou(page);
      const thanks = new URL(page.url()).searchParams;
      expect(thanks.get('orderId')).toBe(orderId);
      expect(thanks.get('paymentId')).toBe(paymentId);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
        'Obrigado pela sua compra!',
      );
      expect(await page.getByText(`Pedido #${number} — pagamento confirmado.`).isVisible()).toBe(
        true,
      );
      expect(await page.getByTestId('delivery-estimate').innerText()).toMatch(
        /^Previsão de entrega: até .+ \(7 dias úteis após o pagamento\)\.$/,
      );
      expect(await page.getByText(CUSTOMER.name).isVisible()).toBe(true);
      expect(
        await page
          .getByText('Avenida Paulista, 1578, Apto 42, Bela Vista, São Paulo - SP, CEP 01310-100')
          .isVisible(),
      ).toBe(true);

      await page.getByRole('link', { name: 'Ver meus pedidos' }).click();
      await page.waitForURL(`${server.url}/historico`);
      const card = orderCard(page, number);
      await expect.poll(() => card.getByTestId('order-status').innerText()).toBe('Pago');
      expect(await card.innerText()).toContain('Preparando o pedido para envio');
      expect(await card.innerText()).toContain(`${HEADPHONES.name} × 1`);
      expect(await card.getByRole('button', { name: 'Pagar agora' }).count()).toBe(0);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  it("on a phone (360×740): the coupon before 'Finalizar pedido'; on the confirmation the amount, the deadline and 'Copiar código PIX' in the first screen, then the QR, the items and the address; on a desktop the QR first", async () => {
    const { page, problems } = await newPage(VIEWPORTS.mobile, {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await buyNow(page);
    const top = async (locator: Locator) => (await locator.boundingBox())!.y;
    const coupon = page.getByLabel('Cupom de desconto');
    expect(await top(coupon)).toBeLessThan(await top(submitButton(page)));

    await fillCustomer(page);
    await fillAddressByCep(page);
    await placeOrder(page);
    const copy = page.getByRole('button', { name: 'Copiar código PIX' });
    await page.evaluate(() => window.scrollTo(0, 0));
    const firstScreen = VIEWPORTS.mobile.height;
    for (const shown of [
      page.getByText('Valor: R$ 299,90'),
      page.getByTestId('pix-countdown'),
      copy,
    ]) {
      const box = (await shown.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(firstScreen);
    }
    const qr = page.getByTestId('pix-qr');
    expect(await top(qr)).toBeGreaterThan(await top(copy));
    const items = page.getByRole('region', { name: 'Itens do pedido' });
    expect(await top(items)).toBeGreaterThan(await top(qr));
    expect(await items.innerText()).toContain(HEADPHONES.name);
    expect(await items.getByTestId('summary-total').innerText()).toBe('R$ 299,90');
    expect(await page.getByTestId('confirmation-address').innerText()).toContain(
      'Avenida Paulista, 1578, Apto 42, Bela Vista, São Paulo - SP, CEP 01310-100',
    );

    const code = await page.getByTestId('pix-code').inputValue();
    await copy.click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Código copiado!' }).count())
      .toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

    // At a computer the QR, read with the phone, comes first.
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(await top(qr)).toBeLessThan(await top(copy));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('moves the confirmation page to /thank-you by itself once the payment is approved elsewhere', async () => {
    const { page, problems } = await newPage();
    const { url, number } = await quickOrder(page);
    await expectLivePix(page);

    // The tester's buttons answer only the browser holding the order: a second tab of it.
    const other = await page.context().newPage();
    watch(other, problems);
    await other.goto(url, { waitUntil: 'networkidle' });
    await other.getByRole('button', { name: 'Aprovar' }).click();
    await reachThankYou(other);

    const approvedAt = Date.now();
    await reachThankYou(page);
    expect(Date.now() - approvedAt).toBeLessThan(ONE_POLL_MS);
    expect(await page.getByText(`Pedido #${number} — pagamento confirmado.`).isVisible()).toBe(
      true,
    );
    expect(await page.getByTestId('delivery-estimate').innerText()).toContain(
      'Previsão de entrega',
    );
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('cancels the order when the payment is rejected and puts the stock back', async () => {
    const { page, problems } = await newPage();
    // Stock is the store's, not the shopper's: read it from a browser of its own (a second tab
    // would push the shopper's to the background and slow it down).
    const { page: probe, problems: probeProblems } = await newPage();
    const stock = async () => {
      await probe.goto(`${server.url}/product/${HEADSET.id}`, { waitUntil: 'networkidle' });
      return probe.getByTestId('stock').innerText();
    };
    // Few left: the page says how many.
    const inStock = HEADSET.stockQuantity!;
    expect(await stock()).toBe(`Últimas ${inStock} unidades`);

    const { number, orderId, paymentId } = await quickOrder(page, HEADSET);
    expect(await stock()).toBe(`Últimas ${inStock - 1} unidades`);

    await page.getByRole('button', { name: 'Recusar' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Pedido cancelado' }).count())
      .toBe(1);
    expect(page.url()).toMatch(CONFIRMATION_URL);
    expect(await page.getByText('Pagamento rejeitado. Tente novamente.').isVisible()).toBe(true);
    expect(await page.getByTestId('pix-code').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Aprovar' }).count()).toBe(0);
    expect(await stock()).toBe(`Últimas ${inStock} unidades`);

    // The payment return page says the same.
    await page.goto(
      `${server.url}/payment-callback?${new URLSearchParams({ orderId, paymentId })}`,
      { waitUntil: 'networkidle' },
    );
    expect(await page.locator('[data-outcome]').innerText()).toBe(
      'Pagamento rejeitado. Tente novamente.',
    );

    await page.goto(`${server.url}/historico`, { waitUntil: 'networkidle' });
    const card = orderCard(page, number);
    expect(await card.getByTestId('order-status').innerText()).toBe('Cancelado');
    expect(await card.innerText()).toContain('Pedido cancelado');
    expect(await card.getByRole('button', { name: 'Pagar agora' }).count()).toBe(0);
    expect(problems).toEqual([]);
    expect(probeProblems).toEqual([]);
    await probe.context().close();
    await page.context().close();
  });

  it('re-issues an expired PIX from the history with a new payment and a live countdown', async () => {
    const { page, problems } = await newPage();
    const first = await quickOrder(page);
    const firstCode = await expectLivePix(page);

    await page.getByRole('button', { name: 'Expirar' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'O prazo deste PIX terminou' }).count())
      .toBe(1);
    expect(await page.getByRole('button', { name: 'Gerar novo PIX' }).isVisible()).toBe(true);
    expect(await page.getByTestId('pix-code').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Aprovar' }).count()).toBe(0);

    await page.goto(`${server.url}/historico`, { waitUntil: 'networkidle' });
    const card = orderCard(page, first.number);
    expect(await card.getByTestId('order-status').innerText()).toBe('Pendente');
    expect(await card.innerText()).toContain('Aguardando pagamento');
    await card.getByRole('button', { name: 'Pagar agora' }).click();

    await page.waitForURL(CONFIRMATION_URL);
    await page.getByTestId('pix-code').waitFor();
    const again = new URL(page.url()).searchParams;
    expect(again.get('orderId')).toBe(first.orderId);
    expect(again.get('paymentId')).toBeTruthy();
    expect(again.get('paymentId')).not.toBe(first.paymentId);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
      `Pedido #${first.number}`,
    );
    const code = await expectLivePix(page);
    // The sandbox builds a static BR Code from the key, the amount and the order: the text may
    // repeat, the payment behind it is new.
    expect(code.length).toBe(firstCode.length);
    const countdown = page.getByTestId('pix-countdown');
    const shown = await countdown.innerText();
    await expect.poll(() => countdown.innerText(), { timeout: 3_000 }).not.toBe(shown);

    // The new payment is the one that counts.
    await page.getByRole('button', { name: 'Aprovar' }).click();
    await reachThankYou(page);
    expect(new URL(page.url()).searchParams.get('paymentId')).toBe(again.get('paymentId'));
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('buys without JavaScript: the form posts plainly, keeps the typed values on an error', async () => {
    const { page, problems: recorded } = await newPage(VIEWPORTS.mobile, {
      javaScriptEnabled: false,
    });
    // Without JavaScript Chromium cancels the module preloads; everything else must load.
    const problems = () =>
      recorded.filter((problem) => !/^request failed: .*\/assets\/[\w.-]+\.js \(/.test(problem));
    await page.goto(`${server.url}/product/${HEADPHONES.id}`);
    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.waitForURL(`${server.url}/checkout`);

    await field(page, 'Nome completo').fill(CUSTOMER.name);
    await field(page, 'E-mail').fill(CUSTOMER.email);
    await field(page, 'CPF').fill(BAD_CPF);
    await field(page, 'Telefone').fill(CUSTOMER.phoneMasked);
    await fillAddressByHand(page, '01310-100');
    await field(page, 'Complemento').fill(CUSTOMER.complement);
    await Promise.all([page.waitForEvent('load'), submitButton(page).click()]);

    expect(page.url()).toBe(`${server.url}/checkout`);
    expect(await checkoutForm(page).locator('#checkout-customerCpf-error').innerText()).toBe(
      'CPF inválido',
    );
    expect(await field(page, 'CPF').getAttribute('aria-invalid')).toBe('true');
    expect(await field(page, 'CPF').inputValue()).toBe(BAD_CPF);
    expect(await field(page, 'Nome completo').inputValue()).toBe(CUSTOMER.name);
    expect(await field(page, 'E-mail').inputValue()).toBe(CUSTOMER.email);
    expect(await field(page, 'Telefone').inputValue()).toBe(CUSTOMER.phoneMasked);
    expect(await field(page, 'CEP').inputValue()).toBe('01310-100');
    expect(await field(page, 'Rua').inputValue()).toBe(PAULISTA.logradouro);
    expect(await field(page, 'Número').inputValue()).toBe(CUSTOMER.number);
    expect(await field(page, 'Complemento').inputValue()).toBe(CUSTOMER.complement);
    expect(await field(page, 'Bairro').inputValue()).toBe(PAULISTA.bairro);
    expect(await field(page, 'Cidade').inputValue()).toBe(PAULISTA.localidade);
    expect(await field(page, 'Estado').inputValue()).toBe(PAULISTA.uf);
    // Only the CPF is wrong.
    expect(await checkoutForm(page).locator('[aria-invalid="true"]').count()).toBe(1);
    expect(problems()).toEqual([
      `HTTP 400: ${server.url}/checkout`,
      'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
    recorded.length = 0;

    await field(page, 'CPF').fill(CUSTOMER.cpf);
    await Promise.all([page.waitForEvent('load'), submitButton(page).click()]);
    expect(page.url()).toMatch(CONFIRMATION_URL);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/^Pedido #\d+$/);
    await expectLivePix(page);
    expect(await page.getByText(TEST_MODE).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Já paguei: verificar pagamento' }).count()).toBe(
      1,
    );

    // The tester's buttons are plain forms too.
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: 'Aprovar' }).click(),
    ]);
    expect(page.url()).toMatch(THANK_YOU_URL);
    expect(await page.getByTestId('delivery-estimate').innerText()).toContain(
      'Previsão de entrega',
    );
    expect(problems()).toEqual([]);
    await page.context().close();
  });

  it("shows nobody else the order's payment or personal data", async () => {
    const { page, problems } = await newPage();
    const { url: confirmationUrl, orderId, paymentId } = await quickOrder(page);
    const stranger = await newPage();
    const secrets = [
      CUSTOMER.name,
      CUSTOMER.email,
      CUSTOMER.cpf,
      CUSTOMER.cpfMasked,
      CUSTOMER.phone,
      CUSTOMER.phoneMasked,
      PAULISTA.logradouro,
    ];
    const expectNothingPersonal = async () => {
      const html = await stranger.page.content();
      for (const secret of secrets) expect(html).not.toContain(secret);
      expect(await stranger.page.getByTestId('pix-code').count()).toBe(0);
      expect(await stranger.page.getByTestId('pix-qr').count()).toBe(0);
    };

    await stranger.page.goto(confirmationUrl, { waitUntil: 'networkidle' });
    expect(await stranger.page.getByRole('alert').innerText()).toBe(MISSING_PAYMENT);
    await expectNothingPersonal();

    // Nor can it settle the payment.
    const approve = await stranger.page.request.post(`${server.url}${SANDBOX_PAYMENT_PATH}`, {
      form: { intent: 'approve', orderId },
      maxRedirects: 0,
    });
    expect(approve.status()).toBe(404);
    expect(await approve.text()).not.toContain(CUSTOMER.name);

    await stranger.page.goto(
      `${server.url}/payment-callback?${new URLSearchParams({ orderId, paymentId })}`,
      { waitUntil: 'networkidle' },
    );
    expect(await stranger.page.locator('[data-outcome]').innerText()).toBe(
      'Informações de pagamento inválidas',
    );
    await expectNothingPersonal();

    await stranger.page.goto(`${server.url}/historico`, { waitUntil: 'networkidle' });
    expect(await stranger.page.getByText('Nenhum pedido encontrado.').isVisible()).toBe(true);
    await expectNothingPersonal();

    // Still pending for its owner, who approves it.
    await page.reload({ waitUntil: 'networkidle' });
    await expectLivePix(page);
    await page.getByRole('button', { name: 'Aprovar' }).click();
    await reachThankYou(page);
    expect(await page.getByText(CUSTOMER.name).isVisible()).toBe(true);

    // The thank-you page looks again for a few seconds (a replica may lag), then gives up.
    await stranger.page.goto(page.url(), { waitUntil: 'networkidle' });
    await expect
      .poll(() => stranger.page.getByRole('main').getByRole('status').innerText(), {
        timeout: 10_000,
      })
      .toBe('Pedido não encontrado');
    await expectNothingPersonal();
    expect(await stranger.page.getByTestId('delivery-estimate').count()).toBe(0);

    expect(problems).toEqual([]);
    // Only the refusals: 404s for the pages and their data requests, as the console reports them.
    const unexpected = stranger.problems.filter(
      (problem) =>
        !/^HTTP 404: .*\/(order-confirmation|payment-callback|thank-you)(\.data)?\?/.test(
          problem,
        ) &&
        problem !==
          'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
    );
    expect(unexpected).toEqual([]);
    expect(stranger.problems.length).toBeGreaterThan(0);
    await stranger.page.context().close();
    await page.context().close();
  });

  it('leaves the shopper where they went while the CEP was being looked up', async () => {
    const { page, problems } = await newPage(VIEWPORTS.mobile);
    await buyNow(page);
    // The address arrives only once the shopper has moved on to another field.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/api/cep/**', async (route) => {
      await answered;
      await route.continue();
    });
    await field(page, 'CEP').pressSequentially(PAULISTA_CEP);
    await field(page, 'Complemento').click();
    answer();
    await expect
      .poll(() => checkoutForm(page).getByTestId('cep-status').innerText())
      .toBe(CEP_FOUND);
    await page.keyboard.type(CUSTOMER.complement);
    expect(await field(page, 'Complemento').inputValue()).toBe(CUSTOMER.complement);
    expect(await field(page, 'Número').inputValue()).toBe('');
    expect(await field(page, 'Rua').inputValue()).toBe(PAULISTA.logradouro);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  describe.each([
    ['answers 500', FAILING_CEP],
    ['never answers', SILENT_CEP],
  ])('when the CEP service %s', (_name, zipCode) => {
    it('says the CEP could not be looked up, leaves the address editable and still sells', async () => {
      const { page, problems } = await newPage(VIEWPORTS.mobile);
      await buyNow(page);
      await fillCustomer(page);
      await field(page, 'CEP').pressSequentially(zipCode);
      // Our server gives up after 3 s.
      await expect
        .poll(() => checkoutForm(page).getByTestId('cep-status').innerText(), { timeout: 6_000 })
        .toBe(CEP_FAILED);
      expect(cep.requests).toContain(zipCode);
      for (const label of ['Rua', 'Número', 'Bairro', 'Cidade', 'Estado']) {
        expect(await field(page, label).isEditable()).toBe(true);
      }
      expect(await field(page, 'Rua').inputValue()).toBe('');
      await fillAddressByHand(page, zipCode);
      const { number } = await placeOrder(page);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Pedido #${number}`);
      await expectLivePix(page);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  it('passes axe and fits 360 px on checkout (with errors), confirmation, thank-you and history', async () => {
    const { page, problems } = await newPage(VIEWPORTS.mobile);
    await buyNow(page);
    await submitButton(page).click();
    await expect
      .poll(() => checkoutForm(page).locator('[aria-invalid="true"]').count())
      .toBeGreaterThan(5);
    // The focus moves in an effect, after the errors are drawn.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.id))
      .toBe('checkout-customerName');
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
    await noHorizontalScroll(page);

    await fillCustomer(page);
    await fillAddressByCep(page);
    const { number } = await placeOrder(page);
    await expectLivePix(page);
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
    await noHorizontalScroll(page);

    await page.getByRole('button', { name: 'Aprovar' }).click();
    await reachThankYou(page);
    await page.getByTestId('delivery-estimate').waitFor();
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
    await noHorizontalScroll(page);

    await page.goto(`${server.url}/historico`, { waitUntil: 'networkidle' });
    expect(await orderCard(page, number).count()).toBe(1);
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
    await noHorizontalScroll(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("links 'Histórico de compras' from the menu; /purchasehistory shows the same list; a resent form adds no order", async () => {
    const { page, problems } = await newPage(VIEWPORTS.mobile);
    await page.goto(server.url, { waitUntil: 'networkidle' });
    const number = await orderByRequest(page);

    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    const link = menu.getByRole('link', { name: 'Histórico de compras', exact: true });
    expect(await link.getAttribute('href')).toBe('/historico');
    await link.click();
    await page.waitForURL(`${server.url}/historico`);
    // Settled (route discovery for its forms included) before the next page cuts it off.
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.title()).toBe('Histórico de compras | TechStore');
    const cards = (shown: Page) => shown.getByTestId('order-card').allInnerTexts();
    const list = await cards(page);
    expect(list).toHaveLength(1);
    expect(list[0]).toContain(`Pedido #${number}`);
    expect(await orderCard(page, number).getByTestId('order-status').innerText()).toBe('Pendente');

    await page.goto(`${server.url}/purchasehistory`, { waitUntil: 'networkidle' });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Histórico de compras');
    expect(await cards(page)).toEqual(list);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  describe('the limit of unpaid orders (max_pending_orders, 3)', () => {
    const OWN =
      'Você já tem pedidos aguardando pagamento. Pague um deles ou aguarde o prazo do PIX para ' +
      'fazer um novo pedido.';
    const ELSEWHERE = 'Já existem pedidos aguardando pagamento com este CPF ou feitos desta rede.';

    it("refuses a 4th, keeps the cart, and pays the open order in one click ('Pagar agora')", async () => {
      const { page, problems } = await newPage();
      await page.goto(server.url, { waitUntil: 'networkidle' });
      await orderByRequest(page);
      await orderByRequest(page);
      const newest = await orderByRequest(page);

      await buyNow(page);
      await fillCustomer(page);
      await fillAddressByCep(page);
      await submitButton(page).click();
      const alert = checkoutForm(page).getByRole('alert');
      await alert.getByText(OWN).waitFor();
      expect(page.url()).toBe(`${server.url}/checkout`);
      expect(await seriousAxeViolations(page)).toEqual([]);
      // The cart is kept for later (the checkout's own header has no badge: the cart page's).
      const cart = await (await page.request.get(`${server.url}/cart`)).text();
      expect(cart).toMatch(/data-testid="cart-count"[^>]*>1</);

      await alert.getByRole('link', { name: 'Pagar agora' }).click();
      await page.waitForURL(CONFIRMATION_URL);
      await page.getByRole('heading', { level: 1, name: `Pedido #${newest}` }).waitFor();
      await expectLivePix(page);
      // Only the refusal answered with an error (and the browser's console said so).
      expect(problems.filter((problem) => !problem.includes('409'))).toEqual([]);
      expect(problems).toContainEqual(expect.stringMatching(/^HTTP 409: .*\/checkout/));
      await page.context().close();
    });

    it('refuses without JavaScript too, and shows nothing of orders another browser placed', async () => {
      // Three unpaid orders with one CPF, each from a browser and address of its own.
      const placed: string[] = [];
      for (let n = 0; n < 3; n++) {
        const shopper = new Visitor(server.url);
        await shopper.addToCart(HEADPHONES.id);
        placed.push(
          (await shopper.checkout({ ...VALID_CHECKOUT, customerCpf: CUSTOMER.cpfMasked })).orderId,
        );
      }
      const other = new Visitor(server.url);
      await other.addToCart(HEADPHONES.id, 9999);
      const refused = await other.post('/checkout', {
        ...VALID_CHECKOUT,
        customerCpf: CUSTOMER.cpf,
        idempotencyKey: await other.checkoutKey(),
      });
      expect(refused.status).toBe(409);
      expect(visibleText(refused.text)).toContain(ELSEWHERE);
      expect(visibleText(refused.text)).toContain('e-mail que enviamos com o pedido');
      expect(refused.text).not.toContain('/order-confirmation');
      for (const orderId of placed) expect(refused.text).not.toContain(orderId);
      expect(other.cookies.has('order_token')).toBe(false);
      // The cart is kept, capped at 10 by the limit per product.
      const cart = await other.get('/cart');
      expect(cart.text).toMatch(/name="quantity"[^>]*value="10"|value="10"[^>]*name="quantity"/);

      // One address, other CPFs and browsers: the same.
      const address = shopperAddress();
      for (let n = 0; n < 3; n++) {
        const shopper = new Visitor(server.url, { address });
        await shopper.addToCart(HEADPHONES.id);
        await shopper.checkout();
      }
      const neighbour = new Visitor(server.url, { address });
      await neighbour.addToCart(HEADPHONES.id);
      const again = await neighbour.post('/checkout', {
        ...VALID_CHECKOUT,
        customerCpf: neighbour.cpf,
        idempotencyKey: await neighbour.checkoutKey(),
      });
      expect(again.status).toBe(409);
      expect(visibleText(again.text)).toContain(ELSEWHERE);
    });
  });

  // Last, on the same server (a server costs seconds of CPU to start): the discount saved
  // through the admin, and each shopper at an address of its own, clear of the unpaid orders the
  // tests above left.
  describe('with a PIX discount of 10%', () => {
    beforeAll(async () => {
      await saveSampleSettings(await firstAdminVisitor(server), { pix_discount_percent: 10 });
    });

    const form = (page: Page) => page.locator('form[action="/checkout"]');
    const input = (page: Page, label: string) =>
      form(page).getByLabel(label, { exact: label !== 'Complemento' });

    describe.each([
      ['phone, 360 px', VIEWPORTS.mobile],
      ['desktop', VIEWPORTS.desktop],
    ])('%s', (_name, viewport) => {
      it('charges the PIX price the product page promised, and every order page says so', async () => {
        const context = await browser.newContext({
          viewport,
          locale: 'pt-BR',
          extraHTTPHeaders: { 'X-Forwarded-For': shopperAddress() },
        });
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('response', (response) => {
          if (response.status() >= 400)
            problems.push(`HTTP ${response.status()}: ${response.url()}`);
        });

        // R$ 299,90 less 10% (R$ 29,99): the product page's PIX price, and free shipping.
        await page.goto(`${server.url}/product/${HEADPHONES.id}`, { waitUntil: 'networkidle' });
        const pixPrice = (await page.getByTestId('pix-price').first().innerText()).replace(
          /\s+/g,
          ' ',
        );
        expect(pixPrice).toContain('R$ 269,91 no PIX');

        await page.getByRole('button', { name: 'Comprar agora' }).click();
        await page.waitForURL(`${server.url}/checkout`);
        await form(page).getByRole('button', { name: 'Finalizar pedido' }).waitFor();
        const summary = page.getByRole('region', { name: 'Resumo do pedido' });
        const text = async (testId: string) =>
          (await summary.getByTestId(testId).innerText()).replace(/\s+/g, ' ').trim();
        expect(await text('summary-subtotal')).toBe('R$ 299,90');
        expect(await text('summary-shipping')).toBe('Grátis');
        expect(await text('summary-discount')).toBe('− R$ 29,99');
        expect(await summary.getByText('Desconto PIX (10%)').isVisible()).toBe(true);
        expect(await text('summary-total')).toBe('R$ 269,91');
        expect(await seriousAxeViolations(page)).toEqual([]);
        // On a phone the summary is below the form: the total is repeated beside the button.
        const besideButton = page.getByTestId('checkout-submit-total');
        expect(await besideButton.isVisible()).toBe(viewport === VIEWPORTS.mobile);
        if (viewport === VIEWPORTS.mobile) {
          expect((await besideButton.innerText()).replace(/\s+/g, ' ')).toBe('Total R$ 269,91');
          const total = await besideButton.boundingBox();
          const button = await form(page)
            .getByRole('button', { name: 'Finalizar pedido' })
            .boundingBox();
          expect(button!.y - (total!.y + total!.height)).toBeLessThan(40);
        }

        await input(page, 'Nome completo').fill(CUSTOMER.name);
        await input(page, 'E-mail').fill(CUSTOMER.email);
        await input(page, 'CPF').pressSequentially(CUSTOMER.cpf);
        await input(page, 'Telefone').pressSequentially(CUSTOMER.phone);
        await input(page, 'CEP').pressSequentially(PAULISTA_CEP);
        await expect.poll(() => form(page).getByTestId('cep-status').innerText()).toBe(CEP_FOUND);
        await input(page, 'Número').fill(CUSTOMER.number);
        await form(page).getByRole('button', { name: 'Finalizar pedido' }).click();
        await page.waitForURL(CONFIRMATION_URL);
        await page.getByRole('heading', { level: 1, name: /^Pedido #/ }).waitFor();
        expect(await page.getByText('Valor: R$ 269,91').isVisible()).toBe(true);
        expect(
          (await page.getByTestId('confirmation-discount').innerText()).replace(/\s+/g, ' '),
        ).toBe('Desconto PIX (10%) já aplicado: − R$ 29,99');
        expect(await seriousAxeViolations(page)).toEqual([]);

        // Paid: the thank-you page's summary carries the same lines.
        await page.getByRole('button', { name: 'Aprovar' }).click();
        await page.waitForURL(THANK_YOU_URL, { timeout: ONE_POLL_MS });
        const items = page.getByRole('region', { name: 'Itens do pedido' });
        await items.waitFor();
        expect((await items.getByTestId('summary-discount').innerText()).trim()).toBe('− R$ 29,99');
        expect((await items.getByTestId('summary-total').innerText()).trim()).toBe('R$ 269,91');

        await page.goto(`${server.url}/historico`, { waitUntil: 'networkidle' });
        const card = page.getByTestId('order-card').first();
        expect((await card.getByTestId('order-discount').innerText()).replace(/\s+/g, ' ')).toBe(
          'Desconto PIX (10%): − R$ 29,99',
        );
        expect(await card.getByText('Total: R$ 269,91').isVisible()).toBe(true);
        expect(problems).toEqual([]);
        await context.close();
      });
    });
  });
});
