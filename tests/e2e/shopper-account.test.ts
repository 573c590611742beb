import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { signIn as adminSignIn, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { VIEWPORTS, waitForHydration } from '../support/browser';
import { useStoreAndBrowser } from '../support/fixtures';
import { sampleProduct } from '../support/sample';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { until } from '../support/until';
import { orderNumberIn, VALID_CHECKOUT } from '../support/visitor';

// R$ 299,90, 75 in stock.
const HEADPHONES = sampleProduct('Fone de Ouvido');

describe("'Minha conta': sign in with a code, orders from any device, addresses, LGPD", () => {
  const store = useStoreAndBrowser({ prepare: withAdmin() });
  const seen = new Set<string>();

  /** The six digits of the next e-mail to `email` not read before (waits for it). */
  async function nextCode(email: string): Promise<string> {
    const folder = join(store.server.dataDir, 'mail');
    return until(async () => {
      for (const name of (await readdir(folder).catch(() => [] as string[])).sort()) {
        if (seen.has(name)) continue;
        const text = (await readFile(join(folder, name), 'utf8')).replace(/=\r?\n/g, '');
        const code = /^(\d{6})\r?$/m.exec(text)?.[1];
        if (!text.includes(`To: ${email}`) || !code) continue;
        seen.add(name);
        return code;
      }
      return undefined;
    }, `a code e-mailed to ${email}`);
  }

  async function phone(): Promise<Page> {
    const context = await store.browser.newContext({ viewport: VIEWPORTS.mobile, locale: 'pt-BR' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }

  /** '/conta/entrar' from `page`: the e-mail, the code from the e-mail, then 'Minha conta'. */
  async function signInAs(page: Page, email: string) {
    await page.goto(`${store.server.url}/conta`);
    await page.waitForURL(/\/conta\/entrar/);
    await waitForHydration(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Receber código' }).click();
    const codeField = page.getByLabel('Código de 6 dígitos');
    await codeField.fill(await nextCode(email));
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Minha conta' }).waitFor();
  }

  it('shows a guest order on another browser, fills the checkout, exports and deletes the account', async () => {
    const { url } = store.server;
    const email = `ana.${randomUUID().slice(0, 8)}@example.com`;

    // A guest buys on one browser.
    const buyer = await phone();
    await buyer.request.post(`${url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
    });
    const placed = await buyer.request.post(`${url}/checkout`, {
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
    await buyer.goto(new URL(placed.headers().location!, url).href);
    const number = orderNumberIn(await buyer.content());
    await buyer.context().close();

    // On another, the shopper signs in with the code and sees that order, 'Pagar agora' beside it.
    const page = await phone();
    await signInAs(page, email);
    const order = page.getByTestId('account-order');
    expect(await order.innerText()).toContain(`Pedido #${number}`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );
    // 'Pagar agora' opens the order's payment page on this browser too.
    await order.getByRole('link', { name: 'Pagar agora' }).click();
    await page.waitForURL(/\/order-confirmation\?orderId=[^&]+$/);
    expect(await page.content()).toContain(`#${number}`);
    await page.goto(`${url}/conta`);

    // Saves an address, and the checkout offers it.
    await page.getByLabel('CEP').fill('13010-000');
    await page.getByLabel('Rua').fill('Rua Barão de Jaguara');
    await page.getByLabel('Número').fill('100');
    await page.getByLabel('Bairro').fill('Centro');
    await page.getByLabel('Cidade').fill('Campinas');
    await page.getByLabel('Estado').selectOption('SP');
    await page.getByRole('button', { name: 'Salvar endereço' }).click();
    await page.getByTestId('account-address').waitFor();
    expect(await page.getByTestId('account-address').innerText()).toContain(
      'Rua Barão de Jaguara, 100 — Centro, Campinas/SP — 13010-000 (padrão)',
    );
    await page.request.post(`${url}/cart`, {
      form: { intent: 'add', productId: HEADPHONES.id, quantity: '1' },
    });
    await page.goto(`${url}/checkout`);
    expect(await page.getByText(`Você entrou como ${email}`).isVisible()).toBe(true);
    expect(await page.locator('input[name="street"]').inputValue()).toBe('Rua Barão de Jaguara');
    expect(await page.locator('input[name="customerEmail"]').inputValue()).toBe(email);

    // The downloaded data holds the order.
    await page.goto(`${url}/conta`);
    await waitForHydration(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Baixar meus dados' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^meus-dados-\d{4}-\d{2}-\d{2}\.json$/);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const exported = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      orders: { number: string }[];
      addresses: unknown[];
    };
    expect(exported.orders.map((row) => row.number)).toEqual([`#${number}`]);
    expect(exported.addresses).toHaveLength(1);

    // 'Excluir minha conta' with a fresh code.
    await page.getByRole('button', { name: 'Excluir minha conta' }).click();
    await page.getByLabel('Código de 6 dígitos').fill(await nextCode(email));
    await page.getByRole('button', { name: 'Excluir minha conta' }).click();
    await page.waitForURL(/\/conta\/entrar/);

    // A new sign-in finds no addresses, and still the order.
    await signInAs(page, email);
    expect(await page.getByText('Nenhum endereço salvo.').isVisible()).toBe(true);
    expect(await page.getByTestId('account-order').innerText()).toContain(`Pedido #${number}`);

    // The order still shows in the admin.
    const admin = await phone();
    await admin.setViewportSize(VIEWPORTS.desktop);
    await adminSignIn(admin, url);
    await admin.goto(`${url}/admin/orders`);
    await admin.getByText(`#${number}`).first().waitFor();
  });
});
