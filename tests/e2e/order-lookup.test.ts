import { randomUUID } from 'node:crypto';

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { startFakeSmtpServer, type FakeSmtpServer } from '../support/fake-smtp';
import { sampleProduct } from '../support/sample';
import { START_BUDGET_MS, startServer, type TestServer } from '../support/server';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { until } from '../support/until';
import { orderNumberIn, VALID_CHECKOUT } from '../support/visitor';

// R$ 299,90, 75 in stock.
const HEADPHONES = sampleProduct('Fone de Ouvido');

const NEUTRAL =
  'Se encontrarmos um pedido com esses dados, enviaremos o link para o e-mail cadastrado.';

describe("'Encontrar meu pedido' on /historico", () => {
  let smtp: FakeSmtpServer;
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    smtp = await startFakeSmtpServer();
    [server, browser] = await Promise.all([
      startServer({ env: { SMTP_URL: smtp.url } }),
      launchBrowser(),
    ]);
  }, START_BUDGET_MS);
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  /** A fresh browser at 360 px: its own cookies, no order of its own. */
  async function phone(javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({
      viewport: VIEWPORTS.mobile,
      locale: 'pt-BR',
      javaScriptEnabled,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }

  /** An order placed by one browser through the cart's and the checkout's forms; its number. */
  async function placeOrder(email: string): Promise<string> {
    const page = await phone();
    const added = await page.request.post(`${server.url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
    });
    expect(added.status()).toBe(200);
    const placed = await page.request.post(`${server.url}/checkout`, {
      form: {
        ...VALID_CHECKOUT,
        customerEmail: email,
        customerCpf: shopperCpf(),
        idempotencyKey: randomUUID(),
      },
      headers: { 'X-Forwarded-For': shopperAddress() },
      maxRedirects: 0,
    });
    expect(placed.status()).toBe(303);
    await page.goto(new URL(placed.headers().location!, server.url).href);
    return orderNumberIn(await page.content());
  }

  const lookup = (page: Page) => page.getByTestId('order-lookup');

  /** Fills and sends the form, and waits for the answer (a fetcher's, or the next page). */
  async function findOrder(page: Page, contact: string, number: string) {
    const form = lookup(page);
    await form.getByLabel('E-mail ou CPF').fill(contact);
    await form.getByLabel('Número do pedido').fill(number);
    await Promise.all([
      page.waitForResponse(
        (response) =>
          response.request().method() === 'POST' &&
          new URL(response.url()).pathname.startsWith('/historico'),
      ),
      form.getByRole('button', { name: 'Encontrar meu pedido' }).click(),
    ]);
    await form.getByRole('button', { name: 'Encontrar meu pedido' }).waitFor();
  }

  /** The mails to `email` whose subject is the order link's. */
  const linkMails = (email: string, number: string) =>
    smtp.mails.filter(
      (mail) => mail.to.includes(email) && mail.subject === `O link do seu pedido #${number}`,
    );

  it('finds an order from another browser by e-mail and number, and e-mails its link only', async () => {
    const email = `ana.${randomUUID().slice(0, 8)}@example.com`;
    const number = await placeOrder(email);

    const page = await phone();
    await page.goto(`${server.url}/historico`, { waitUntil: 'networkidle' });
    await waitForHydration(page);
    expect(await page.getByText('Nenhum pedido encontrado.').isVisible()).toBe(true);
    expect(
      await lookup(page).getByRole('heading', { name: 'Encontrar meu pedido' }).isVisible(),
    ).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );

    // A malformed e-mail: the field says so, as the page's axe check reads it.
    await findOrder(page, 'ana@', number);
    const contactField = lookup(page).getByLabel('E-mail ou CPF');
    expect(await contactField.getAttribute('aria-invalid')).toBe('true');
    await lookup(page)
      .getByRole('alert')
      .filter({ hasText: 'Informe um e-mail ou um CPF válido.' })
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Someone else's e-mail with this number: the same answer, and nothing is sent.
    await findOrder(page, 'outra.pessoa@example.com', `#${number}`);
    await lookup(page).getByRole('status').filter({ hasText: NEUTRAL }).waitFor();
    const strangerAnswer = await lookup(page).innerText();

    await findOrder(page, email.toUpperCase(), number);
    const [mail] = await until(async () => {
      const found = linkMails(email, number);
      return found.length > 0 ? found : undefined;
    }, 'the e-mail with the order link');
    expect(await lookup(page).innerText()).toBe(strangerAnswer);
    expect(await lookup(page).getByRole('status').innerText()).toBe(NEUTRAL);

    const link = /Acompanhar meu pedido: (http:\/\/\S+)/.exec(mail!.text)![1]!;
    const url = new URL(link);
    expect(url.pathname).toBe('/order-confirmation');
    // The page never shows the link, nor the key that opens the order.
    const html = await page.content();
    expect(html).not.toContain(url.searchParams.get('chave')!);
    expect(html).not.toContain(url.searchParams.get('orderId')!);
    expect(await page.getByText(`Pedido #${number}`).count()).toBe(0);

    // The link opens the order in this browser, which never placed it.
    await page.goto(`${server.url}${url.pathname}${url.search}`);
    await page.getByRole('heading', { level: 1, name: `Pedido #${number}` }).waitFor();
    // Only the matching look-up was e-mailed.
    expect(smtp.mails.filter((m) => m.subject.startsWith('O link do seu pedido'))).toHaveLength(1);
  });

  it('works without JavaScript: a post, then the history with the same message', async () => {
    const email = `bia.${randomUUID().slice(0, 8)}@example.com`;
    const number = await placeOrder(email);
    const page = await phone(false);
    await page.goto(`${server.url}/historico`);

    // A number that is no number: the field says so, and what was typed stays.
    await findOrder(page, email, 'B099C936');
    await page.waitForLoadState();
    const numberField = lookup(page).getByLabel('Número do pedido');
    expect(await numberField.getAttribute('aria-invalid')).toBe('true');
    expect(
      await lookup(page).getByText('Informe o número do pedido, como #1001.').isVisible(),
    ).toBe(true);
    expect(await lookup(page).getByLabel('E-mail ou CPF').inputValue()).toBe(email);

    await findOrder(page, VALID_CHECKOUT.customerCpf.replace(/\D/g, ''), number);
    await page.waitForURL(/\/historico\?busca=enviada#encontrar-pedido$/);
    expect(await lookup(page).getByRole('status').innerText()).toBe(NEUTRAL);
    // That CPF is not this order's: nothing goes. The right e-mail sends the link.
    await findOrder(page, email, `#${number}`);
    await page.waitForURL(/\/historico\?busca=enviada#encontrar-pedido$/);
    expect(await lookup(page).getByRole('status').innerText()).toBe(NEUTRAL);
    await until(async () => (linkMails(email, number).length > 0 ? true : undefined), 'the link');
    expect(linkMails(email, number)).toHaveLength(1);
  });
});
