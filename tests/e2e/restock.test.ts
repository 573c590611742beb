import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { signedInPage, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { VIEWPORTS } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { sampleProduct } from '../support/sample';
import type { TestServer } from '../support/server';
import { Visitor } from '../support/visitor';
import { until } from '../support/until';

// Sold out in the sample store; its page is /product/smartwatch-fitness.
const SMARTWATCH = sampleProduct('Smartwatch');
const SMARTWATCH_PATH = '/product/smartwatch-fitness';
// R$ 299,90, 75 in stock.
const HEADPHONES = sampleProduct('Fone de Ouvido');

const DONE_WITHOUT_JS =
  'Quase lá! Abra o e-mail que enviamos e confirme o pedido: só avisaremos quando o produto voltar ao estoque depois dessa confirmação.';
const done = (email: string) =>
  `Quase lá! Abra o e-mail que enviamos para ${email} e confirme o pedido: só avisaremos quando o produto voltar ao estoque depois dessa confirmação.`;
const CONFIRM_SUBJECT = 'Subject: Confirme o aviso: Smartwatch Fitness';
const BAD_EMAIL = 'Informe um e-mail válido.';
// Passes the browser's own check (no dot needed after the @), not the store's.
const DOTLESS = 'cliente@loja';

/** Every .eml under the server's mail folder, soft line breaks of quoted-printable undone. */
async function emails(server: TestServer): Promise<string[]> {
  const folder = join(server.dataDir, 'mail');
  const names = await readdir(folder).catch(() => [] as string[]);
  const texts = await Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')));
  return texts.map((text) => text.replace(/=\r?\n/g, ''));
}

/** The confirmation e-mails sent to `email` (waits for the first). */
async function confirmationMails(server: TestServer, email: string): Promise<string[]> {
  return until(async () => {
    const found = (await emails(server)).filter(
      (text) => text.includes(`To: ${email}`) && text.includes(CONFIRM_SUBJECT),
    );
    return found.length > 0 ? found : undefined;
  }, `the confirmation e-mail to ${email}`);
}

/** The path and query of the link in the confirmation e-mail to `email`. */
async function confirmationPath(server: TestServer, email: string): Promise<string> {
  const [mail] = await confirmationMails(server, email);
  const link = /Confirmar o aviso: (http:\/\/\S+)/.exec(mail!)![1]!;
  // Quoted-printable writes the link's '=' as '=3D'.
  const url = new URL(link.replaceAll('=3D', '='));
  return `${url.pathname}${url.search}`;
}

const restock = (page: Page) => page.getByTestId('out-of-stock').getByTestId('restock');

describe("'Avise-me quando chegar'", () => {
  const store = useStoreAndBrowser({ prepare: withAdmin() });
  const asked: string[] = [];

  async function open(viewport: { width: number; height: number }, javaScriptEnabled = true) {
    const context = await store.browser.newContext({
      viewport,
      locale: 'pt-BR',
      javaScriptEnabled,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // The bad e-mail's 400 is the answer under test (Chromium logs it in the console too).
    const expected = (status: number, url: string) =>
      status === 400 && new URL(url).pathname.startsWith('/avise-me');
    page.on('console', (message) => {
      const url = message.location().url;
      if (message.type() === 'error' && !(url && expected(400, url))) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && !expected(response.status(), response.url())) {
        problems.push(`HTTP ${response.status()}: ${response.url()}`);
      }
    });
    await page.goto(`${store.server.url}${SMARTWATCH_PATH}`, { waitUntil: 'networkidle' });
    return { page, problems };
  }

  describe.each([
    ['phone, 360 px', VIEWPORTS.mobile],
    ['desktop', VIEWPORTS.desktop],
  ])('%s', (_name, viewport) => {
    it('asks for an e-mail on the sold-out page and confirms it with JavaScript', async () => {
      const { page, problems } = await open(viewport);
      const form = restock(page);
      const email = form.getByLabel('Seu e-mail');
      expect(await email.getAttribute('type')).toBe('email');
      expect(await email.getAttribute('autocomplete')).toBe('email');
      const button = form.getByRole('button', { name: 'Avise-me quando chegar' });
      expect(await button.isVisible()).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      // The button keeps to one line.
      const box = await button.boundingBox();
      expect(box!.height).toBeLessThan(60);

      await email.fill(DOTLESS);
      await button.click();
      await form.getByRole('alert').filter({ hasText: BAD_EMAIL }).waitFor();
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      expect(page.url()).toBe(`${store.server.url}${SMARTWATCH_PATH}`);
      expect(await seriousAxeViolations(page)).toEqual([]);

      const address = `Ana.${viewport.width}@Example.com`;
      await email.fill(address);
      await button.click();
      const confirmed = done(address.toLowerCase());
      await form.getByRole('status').filter({ hasText: confirmed }).waitFor();
      asked.push(address.toLowerCase());
      expect(await form.getByLabel('Seu e-mail').count()).toBe(0);
      expect(page.url()).toBe(`${store.server.url}${SMARTWATCH_PATH}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it('works without JavaScript: back to the product page, saying how it went', async () => {
      const { page, problems } = await open(viewport, false);
      const form = restock(page);
      await form.getByLabel('Seu e-mail').fill(DOTLESS);
      await form.getByRole('button', { name: 'Avise-me quando chegar' }).click();
      await page.waitForURL(/aviso=email-invalido/);
      expect(new URL(page.url()).pathname).toBe(SMARTWATCH_PATH);
      expect(await restock(page).getByRole('alert').innerText()).toBe(BAD_EMAIL);
      // (axe runs as a script: the same markup is checked with JavaScript above.)

      const address = `bia.${viewport.width}@example.com`;
      await restock(page).getByLabel('Seu e-mail').fill(address);
      await restock(page).getByRole('button', { name: 'Avise-me quando chegar' }).click();
      await page.waitForURL(/aviso=ok/);
      expect(new URL(page.url()).pathname).toBe(SMARTWATCH_PATH);
      expect(await restock(page).getByRole('status').innerText()).toBe(DONE_WITHOUT_JS);
      asked.push(address);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  it('answers bad requests with a 4xx and the same e-mail twice with one request', async () => {
    // From an address of its own: the browser tests above used some of 127.0.0.1's allowance.
    const shopper = new Visitor(store.server.url, { address: '203.0.113.7' });
    // As a fetcher posts it (no Sec-Fetch-Dest: document): data, not a redirect.
    const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      shopper.post('/avise-me', fields, { Accept: 'application/json', ...headers });

    const bad = await post({ productId: SMARTWATCH.id, email: DOTLESS });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({
      ok: false,
      toast: { id: expect.any(String), kind: 'error', message: BAD_EMAIL },
      fieldErrors: { email: BAD_EMAIL },
      values: {},
    });
    expect((await post({ productId: SMARTWATCH.id })).status).toBe(400);
    expect((await post({ productId: 'x'.repeat(5000), email: 'a@b.com' })).status).toBe(400);
    const unknown = await post({
      productId: '00000000-0000-4000-8000-000000000000',
      email: 'ana@example.com',
    });
    expect(unknown.status).toBe(404);
    const inStock = await post({ productId: HEADPHONES.id, email: 'ana@example.com' });
    expect(inStock.status).toBe(409);
    expect(JSON.parse(inStock.text).toast.message).toBe(
      'Este produto já está disponível. Aproveite!',
    );
    expect((await shopper.get('/avise-me')).status).toBe(405);
    // Another site's form is refused by the request guard before the route runs.
    const forged = await post(
      { productId: SMARTWATCH.id, email: 'forjado@example.com' },
      { 'Sec-Fetch-Site': 'cross-site' },
    );
    expect(forged.status).toBe(403);

    for (let time = 0; time < 3; time += 1) {
      const answer = await post({ productId: SMARTWATCH.id, email: ' Caio@Example.com ' });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({
        ok: true,
        toast: { id: expect.any(String), kind: 'success', message: done('caio@example.com') },
      });
    }
    asked.push('caio@example.com');
    // Asking three times sends one confirmation e-mail.
    await confirmationMails(store.server, 'caio@example.com');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await confirmationMails(store.server, 'caio@example.com')).toHaveLength(1);
  });

  // Every address asked above but this one follows its e-mail's link.
  const UNCONFIRMED = 'bia.1280@example.com';
  const confirmed = () => asked.filter((email) => email !== UNCONFIRMED);

  it("confirms from the e-mail's link only with the page's 'Confirmar' button", async () => {
    expect(asked).toContain(UNCONFIRMED);
    const [first, ...others] = confirmed();
    const shopper = new Visitor(store.server.url, { address: '203.0.113.8' });

    // Opening the link (as a mail scanner does) only shows the page.
    const path = await confirmationPath(store.server, first!);
    expect(path).toMatch(/^\/avise-me\/confirmar\?chave=[\w-]{43}$/);
    for (let time = 0; time < 2; time += 1) {
      const opened = await shopper.get(path);
      expect(opened.status).toBe(200);
      expect(opened.text).toContain('Confirmar</button>');
      expect(opened.text).toContain('noindex');
    }
    const context = await store.browser.newContext({ viewport: VIEWPORTS.mobile, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(`${store.server.url}${path}`, { waitUntil: 'networkidle' });
    await page
      .getByText(`Confirme que ${first} quer receber um e-mail quando Smartwatch Fitness voltar`)
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Aviso confirmado! Enviaremos um e-mail para ${first} quando` })
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();

    for (const email of others) {
      // As the page's form posts it: to the link's own address, the token in the body.
      const link = await confirmationPath(store.server, email);
      const token = new URLSearchParams(link.split('?')[1]).get('chave')!;
      const answer = await shopper.post(link, { chave: token });
      expect(answer.status, email).toBe(200);
      expect(answer.text).toContain('Aviso confirmado!');
    }

    // A made-up or missing token: a 4xx and the pt-BR page, never a 500.
    const invalid =
      'Este link de confirmação não vale mais: ele expira em 7 dias, e só o do e-mail mais recente funciona.';
    const madeUp = await shopper.get(`/avise-me/confirmar?chave=${'A'.repeat(43)}`);
    expect(madeUp.status).toBe(404);
    expect(madeUp.text).toContain(invalid);
    expect((await shopper.get('/avise-me/confirmar')).status).toBe(404);
    const wrong = await shopper.post(`/avise-me/confirmar?chave=${'A'.repeat(43)}`, {
      chave: 'A'.repeat(43),
    });
    expect(wrong.status).toBe(404);
    expect(wrong.text).toContain(invalid);
    expect((await shopper.post('/avise-me/confirmar', {})).status).toBeGreaterThanOrEqual(400);
  });

  it('shows staff who is waiting, and mails each of them once the stock is back', async () => {
    // Signed in over HTTP: the form's journey is admin-auth.test.ts's.
    const { page } = await signedInPage(
      store.browser,
      store.server.url,
      `/admin/products/${SMARTWATCH.id}`,
      VIEWPORTS.desktop,
    );
    const context = page.context();
    const waiting = page.getByTestId('restock-requests');
    expect(await waiting.locator('summary').innerText()).toBe(
      `${confirmed().length} clientes pediram aviso quando chegar`,
    );
    await waiting.locator('summary').click();
    const listed = await waiting.getByRole('listitem').allInnerTexts();
    expect(listed).toHaveLength(confirmed().length);
    // Newest first: the last request made is on top.
    expect(listed[0]).toContain('caio@example.com');
    for (const email of confirmed()) expect(listed.join('\n')).toContain(email);
    expect(listed.join('\n')).not.toContain(UNCONFIRMED);
    await waiting
      .getByText('1 pedido aguarda a confirmação do e-mail (sem ela, não recebe o aviso).')
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const restockMails = async () =>
      (await emails(store.server)).filter((text) => text.includes('Subject: Chegou:'));
    expect(await restockMails()).toEqual([]);

    await page.getByLabel('Quantidade em estoque').fill('4');
    await page.getByRole('button', { name: 'Salvar produto' }).click();
    await page.waitForURL(`${store.server.url}/admin/products`);

    const restocked = await until(async () => {
      const found = await restockMails();
      return found.length >= confirmed().length ? found : undefined;
    }, `${confirmed().length} restock e-mails`);
    expect(restocked).toHaveLength(confirmed().length);
    expect(restocked.join('\n')).not.toContain(`To: ${UNCONFIRMED}`);
    for (const email of confirmed()) {
      const mail = restocked.find((text) => text.includes(`To: ${email}`));
      expect(mail, email).toBeDefined();
      expect(mail).toMatch(/Ver o produto: http:\/\/[^\s]+\/product\/smartwatch-fitness\s/);
    }

    // Only the unconfirmed request still waits; saving again mails no one twice.
    await page.goto(`${store.server.url}/admin/products/${SMARTWATCH.id}`, {
      waitUntil: 'networkidle',
    });
    expect(await page.getByTestId('restock-requests').locator('summary').innerText()).toBe(
      '0 clientes pediram aviso quando chegar',
    );
    await page.getByRole('button', { name: 'Salvar produto' }).click();
    await page.waitForURL(`${store.server.url}/admin/products`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await restockMails()).toHaveLength(confirmed().length);

    // Back in stock, the shop sells it again: no form on its page.
    await page.goto(`${store.server.url}${SMARTWATCH_PATH}`, { waitUntil: 'networkidle' });
    expect(await page.getByTestId('restock').count()).toBe(0);
    await context.close();
  });
});
