import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX_PAYMENT_PATH } from '~/components/store/order-payment';

import { adminVisitor, signedInPage, signIn, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, VIEWPORTS } from '../support/browser';
import { startFakeUtmify, type FakeUtmify } from '../support/fake-gateway';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor, visibleText } from '../support/visitor';
import { until } from '../support/until';

// R$ 299,90, 75 in stock: the orders that go all the way to delivered.
const HEADPHONES = sampleProduct('Fone de Ouvido');
// R$ 249,90, 5 in stock: only the cancelled order buys it, so its stock reads exactly.
const HEADSET = sampleProduct('Headset Gamer');

const SHIPPED = 'Status atualizado para enviado.';
const DELIVERED = 'Status atualizado para entregue.';
const CANCELLED = 'Status atualizado para cancelado.';
const PAID_NO_DELETE = 'Pedidos pagos não podem ser excluídos. Cancele o pedido.';
const TRACKING_CODE = 'QB123456789BR';
const CORRECTED_CODE = 'QB987654321BR';

/** The text of the first .eml under the server's mail folder that contains `needle`. */
function emailWith(server: TestServer, needle: string) {
  return until(async () => {
    const folder = join(server.dataDir, 'mail');
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const text = await readFile(join(folder, name), 'utf8');
      if (text.includes(needle)) return text;
    }
    return undefined;
  }, `an e-mail containing ${needle}`);
}

/** A shopper buys over HTTP with the sandbox provider; `approve` pays it through the sandbox. */
async function shopperOrder(
  server: TestServer,
  productId: string,
  quantity: number,
  options: { approve: boolean },
): Promise<{ orderId: string; number: string; shopper: Visitor }> {
  const shopper = new Visitor(server.url);
  // Landing from an ad: the store's own reports carry it, the admin's do not (SPEC §7).
  await shopper.get('/?utm_source=instagram');
  await shopper.addToCart(productId, quantity);
  const { orderId } = await shopper.checkout();
  if (options.approve) {
    const answer = await shopper.post(SANDBOX_PAYMENT_PATH, { intent: 'approve', orderId });
    expect(answer.status).toBe(303);
  }
  return { orderId, number: await shopper.orderNumber(orderId), shopper };
}

/** The product page's quantity field goes up to the stock (the page names it only when low). */
const noHorizontalScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    VIEWPORTS.mobile.width,
  );

async function toast(page: Page, message: string) {
  await page.getByRole('status').filter({ hasText: message }).first().waitFor();
}

describe('admin orders (Pedidos)', () => {
  let server: TestServer;
  let browser: Browser;
  let utmify: FakeUtmify;

  beforeAll(async () => {
    utmify = await startFakeUtmify();
    [server, browser] = await Promise.all([
      startServer({
        env: {
          PAYMENT_PROVIDER: 'sandbox',
          UTMIFY_API_TOKEN: 'token-de-teste',
          UTMIFY_API_URL: utmify.url,
        },
        prepare: withAdmin(),
        // Up to the stock, so the product page's quantity field tells the stock (stockOf).
        settings: { max_quantity_per_item: 999 },
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await utmify?.close();
  });

  it('ships and delivers a paid order from the list’s dialog at 1280 px, e-mailing the code', async () => {
    const { orderId, number, shopper } = await shopperOrder(server, HEADPHONES.id, 1, {
      approve: true,
    });

    const { page, problems } = await signedInPage(browser, server.url, '/admin/orders');
    const row = page.getByTestId('order-row').filter({ hasText: `#${number}` });
    expect(await row.textContent()).toContain('Confirmado');
    expect(await row.textContent()).toContain('R$ 299,90');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await row.getByRole('link', { name: `Ver pedido #${number}` }).click();
    const dialog = page.getByRole('dialog', { name: `Detalhes do pedido #${number}` });
    await dialog.waitFor();
    // Over the list, not instead of it.
    expect(await page.getByRole('heading', { name: 'Pedidos', level: 1 }).count()).toBe(1);
    const details = visibleText((await dialog.innerHTML()) ?? '');
    expect(details).toContain('Maria da Silva');
    expect(details).toContain(shopper.cpf);
    expect(details).toContain('(11) 98765-4321');
    expect(details).toContain('Avenida Paulista, 1000, Bela Vista, São Paulo - SP, CEP 01310-100');
    expect(details).toContain('Quantidade: 1 × R$ 299,90');
    expect(details).toContain('Total do pedido R$ 299,90');
    expect(details).toContain('Modo de teste (sandbox)');
    expect(details).toContain('Pendente → Confirmado');
    expect(details).toContain('Pagamento');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Shipping needs the code; the selector reads 'Atualizando...' while the change is saved.
    await dialog.getByLabel('Novo status').selectOption('shipped');
    await dialog.getByRole('button', { name: 'Atualizar status' }).click();
    expect(await dialog.getByText('Informe o código de rastreio').count()).toBe(1);
    await dialog.getByLabel('Código de rastreio').fill(TRACKING_CODE);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname.startsWith(`/admin/orders/${orderId}`),
      async (route) => {
        if (route.request().method() === 'POST') await held;
        await route.continue();
      },
    );
    await dialog.getByRole('button', { name: 'Atualizar status' }).click();
    const select = dialog.getByLabel('Novo status');
    await dialog.getByRole('button', { name: 'Atualizando...' }).waitFor();
    expect(await select.isDisabled()).toBe(true);
    expect(await select.textContent()).toBe('Atualizando...');
    release();
    await page.unroute((url) => url.pathname.startsWith(`/admin/orders/${orderId}`));
    await toast(page, SHIPPED);
    await dialog.getByText(`Código de rastreio: ${TRACKING_CODE}`).waitFor();
    expect(await row.textContent()).toContain('Enviado');

    const shippedEmail = await emailWith(server, `Seu pedido #${number} foi enviado`);
    expect(shippedEmail).toContain(TRACKING_CODE);
    // The admin's report to sales tracking: the order's status, without landing parameters.
    const report = (await until(
      async () =>
        utmify.requests
          .map((request) => request.body)
          .find(
            (body) =>
              (body as { orderId: string }).orderId === orderId &&
              (body as { approvedDate: string | null }).approvedDate !== null &&
              Object.values((body as { trackingParameters: object }).trackingParameters).every(
                (value) => value === null,
              ),
          ),
      'the admin report',
    )) as { status: string };
    expect(report.status).toBe('paid');

    // A mistyped code is corrected while the order is on its way; the shopper gets the new one.
    await dialog.getByLabel('Corrigir código de rastreio').fill(CORRECTED_CODE);
    await dialog.getByRole('button', { name: 'Salvar código' }).click();
    await toast(page, 'Código de rastreio atualizado');
    await dialog
      .getByText(`Código de rastreio corrigido de ${TRACKING_CODE} para ${CORRECTED_CODE}.`)
      .waitFor();
    // Its subject has accents (MIME-encoded in the file): the new code finds it.
    expect(await emailWith(server, CORRECTED_CODE)).toContain(`#${number}`);

    await dialog.getByLabel('Novo status').selectOption('delivered');
    await dialog.getByRole('button', { name: 'Atualizar status' }).click();
    await toast(page, DELIVERED);
    await dialog.getByText('o status não muda mais').waitFor();
    await emailWith(server, `Seu pedido #${number} foi entregue`);

    // A delivered order can be neither deleted nor cancelled: neither is offered.
    expect(await dialog.getByRole('button', { name: /Excluir/ }).count()).toBe(0);
    expect(await dialog.getByRole('button', { name: /Cancelar pedido/ }).count()).toBe(0);
    // The Correios code links to the Correios' tracking page, here and on the shopper's page.
    const correios = `https://rastreamento.correios.com.br/app/index.php?objetos=${CORRECTED_CODE}`;
    expect(
      await dialog.getByRole('link', { name: new RegExp(CORRECTED_CODE) }).getAttribute('href'),
    ).toBe(correios);
    expect((await shopper.get('/historico')).text).toContain(`href="${correios}"`);

    // Esc closes the dialog and goes back to the list.
    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.url}/admin/orders`);
    expect(await dialog.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('cancels a pending order at 360 px, on a page of its own, and the stock comes back', async () => {
    const stockBefore = await new Visitor(server.url).stockOf(HEADSET.id);
    const { number } = await shopperOrder(server, HEADSET.id, 2, { approve: false });
    expect(await new Visitor(server.url).stockOf(HEADSET.id)).toBe(stockBefore - 2);

    const { page, problems } = await signedInPage(
      browser,
      server.url,
      '/admin/orders?status=pending',
      VIEWPORTS.mobile,
    );
    const card = page.getByTestId('order-card').filter({ hasText: `#${number}` });
    expect(await card.textContent()).toContain('Pendente');
    await noHorizontalScroll(page);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await card.getByRole('link', { name: `Ver pedido #${number}` }).click();
    await page.getByRole('heading', { level: 1, name: `Detalhes do pedido #${number}` }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await noHorizontalScroll(page);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Cancelar pedido' }).click();
    await page
      .getByRole('dialog', { name: `Cancelar pedido #${number}?` })
      .getByRole('button', { name: 'Sim, cancelar pedido' })
      .click();
    await toast(page, CANCELLED);
    await page.getByText('Pedido cancelado pela equipe; estoque devolvido.').waitFor();
    expect(await new Visitor(server.url).stockOf(HEADSET.id)).toBe(stockBefore);
    await emailWith(server, `Seu pedido #${number} foi cancelado`);

    // Back to the list with its filter kept.
    await page.getByRole('link', { name: '← Voltar para pedidos' }).click();
    await page.waitForURL(`${server.url}/admin/orders?status=pending`);
    expect(await card.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("offers 'Excluir' only where the server deletes, and 'Cancelar pedido' for a paid order, at 360 px", async () => {
    const pending = await shopperOrder(server, HEADPHONES.id, 1, { approve: false });
    const paid = await shopperOrder(server, HEADPHONES.id, 1, { approve: true });
    const { page, problems } = await signedInPage(
      browser,
      server.url,
      '/admin/orders',
      VIEWPORTS.mobile,
    );
    // The store is a tap away, in the top bar.
    expect(await page.getByRole('link', { name: 'Ver loja' }).first().getAttribute('href')).toBe(
      '/',
    );
    const pendingCard = page.getByTestId('order-card').filter({ hasText: `#${pending.number}` });
    const paidCard = page.getByTestId('order-card').filter({ hasText: `#${paid.number}` });
    expect(await pendingCard.getByRole('button', { name: /^Excluir/ }).count()).toBe(1);
    expect(await paidCard.getByRole('button', { name: /^Excluir/ }).count()).toBe(0);
    await noHorizontalScroll(page);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The paid order is cancelled from the list (the shopper is told to expect a refund).
    await paidCard.getByRole('button', { name: `Cancelar pedido #${paid.number}` }).click();
    const confirm = page.getByRole('dialog', { name: `Cancelar pedido #${paid.number}?` });
    expect(await confirm.textContent()).toContain('Este pedido já foi pago: reembolse o cliente.');
    await confirm.getByRole('button', { name: 'Sim, cancelar pedido' }).click();
    await toast(page, CANCELLED);
    await expect.poll(() => paidCard.textContent()).toContain('Cancelado');
    // Paid, then cancelled: kept for the books, nothing more to do with it here.
    expect(await paidCard.getByRole('button').count()).toBe(0);
    await emailWith(server, `Seu pedido #${paid.number} foi cancelado`);

    // Its page offers no 'Excluir' either; the pending order's page does.
    await page.goto(`${server.url}/admin/orders/${paid.orderId}`, { waitUntil: 'networkidle' });
    await page
      .getByRole('heading', { level: 1, name: `Detalhes do pedido #${paid.number}` })
      .waitFor();
    expect(await page.getByRole('button', { name: /Excluir/ }).count()).toBe(0);
    await page.goto(`${server.url}/admin/orders/${pending.orderId}`, { waitUntil: 'networkidle' });
    expect(await page.getByRole('button', { name: 'Excluir pedido' }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('works without JavaScript: a note and a status change post the page and come back', async () => {
    const { number, orderId } = await shopperOrder(server, HEADPHONES.id, 1, { approve: false });
    const context = await browser.newContext({
      viewport: VIEWPORTS.mobile,
      locale: 'pt-BR',
      javaScriptEnabled: false,
    });
    try {
      const page = await context.newPage();
      await signIn(page, server.url);
      await page.goto(`${server.url}/admin/orders/${orderId}`);
      await page.getByRole('heading', { name: `Detalhes do pedido #${number}` }).waitFor();

      await page.getByLabel('Observação interna').fill('Cliente pediu para embrulhar.');
      await page.getByRole('button', { name: 'Adicionar observação' }).click();
      await page.getByText('Observação adicionada.').waitFor();
      expect(await page.getByTestId('order-timeline').textContent()).toContain(
        'Cliente pediu para embrulhar.',
      );

      await page.getByLabel('Novo status').selectOption('confirmed');
      await page.getByRole('button', { name: 'Atualizar status' }).click();
      await page.getByText('Status atualizado para confirmado.').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/admin/orders/${orderId}`);
      expect(await page.getByTestId('order-timeline').textContent()).toContain(
        'Pendente → Confirmado',
      );
      // A refusal keeps the page, with the message in it.
      await page.getByLabel('Novo status').selectOption('shipped');
      await page.getByRole('button', { name: 'Atualizar status' }).click();
      await page.getByRole('alert').filter({ hasText: 'Informe o código de rastreio' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('filters by status, period and search, and exports the same orders as CSV', async () => {
    const { orderId, number, shopper } = await shopperOrder(server, HEADPHONES.id, 1, {
      approve: false,
    });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
      new Date(),
    );
    const { page, problems } = await signedInPage(browser, server.url, '/admin/orders');

    const form = page.getByRole('search', { name: 'Filtrar pedidos' });
    await form.getByLabel('Buscar pedido', { exact: true }).fill(`#${number}`);
    await form.getByRole('button', { name: 'Filtrar' }).click();
    // The URL changes as the navigation ends; the list follows in the next render.
    await page.waitForURL(/q=/);
    await expect.poll(() => page.getByTestId('order-row').count()).toBe(1);
    expect(await page.getByTestId('order-row').textContent()).toContain(`#${number}`);

    await form.getByLabel('Buscar pedido', { exact: true }).fill(shopper.cpf);
    await form.getByLabel('Status', { exact: true }).selectOption('pending');
    await form.getByLabel('De', { exact: true }).fill(today);
    await form.getByLabel('Até', { exact: true }).fill(today);
    await form.getByRole('button', { name: 'Filtrar' }).click();
    await page.waitForURL(/status=pending/);
    const rows = page.getByTestId('order-row');
    await expect.poll(() => rows.filter({ hasText: `#${number}` }).count()).toBe(1);
    for (const text of await rows.allTextContents()) expect(text).toContain('Pendente');

    await form.getByLabel('Buscar pedido', { exact: true }).fill('ninguém com este nome');
    await form.getByRole('button', { name: 'Filtrar' }).click();
    await page.getByText('Nenhum pedido encontrado').waitFor();

    const admin = await adminVisitor(server.url);
    const csv = await admin.get(`/admin/orders/export.csv?q=%23${number}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = csv.text
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`#${number};${orderId};`);
    expect(lines[1]).toContain(';299,90;0,00;0,00;;0,00;299,90;');
    expect(problems).toEqual([]);
  });

  it('refuses what the lifecycle does not allow, bad ids and bad input, in pt-BR, never a 500', async () => {
    const { orderId } = await shopperOrder(server, HEADPHONES.id, 1, { approve: true });
    const admin = await adminVisitor(server.url);
    const post = (fields: Record<string, string>) => admin.post(`/admin/orders/${orderId}`, fields);

    expect((await post({ intent: 'status', status: 'delivered' })).status).toBe(409);
    expect(
      (await post({ intent: 'status', status: 'shipped', trackingCode: 'AB1234' })).status,
    ).toBe(200);
    expect((await post({ intent: 'tracking', trackingCode: 'A' })).status).toBe(400);
    expect((await post({ intent: 'tracking', trackingCode: 'AB5678' })).status).toBe(200);
    expect((await post({ intent: 'status', status: 'delivered' })).status).toBe(200);
    // Delivered: the code is history now.
    expect((await post({ intent: 'tracking', trackingCode: 'AB9999' })).status).toBe(409);
    const refused = await post({ intent: 'status', status: 'pending' });
    expect(refused.status).toBe(409);
    expect(visibleText(refused.text)).toContain('Não é possível mudar de entregue para pendente.');

    const deleted = await admin.post('/admin/orders', { intent: 'delete', id: orderId });
    expect(deleted.status).toBe(409);
    expect(visibleText(deleted.text)).toContain(PAID_NO_DELETE);

    expect((await post({ intent: 'status', status: 'lost' })).status).toBe(400);
    expect((await post({ intent: 'note', note: '' })).status).toBe(400);
    expect((await post({ intent: 'explode' })).status).toBe(400);
    expect(
      (await admin.post('/admin/orders/not-an-id', { intent: 'note', note: 'x' })).status,
    ).toBe(404);
    expect((await admin.get('/admin/orders/not-an-id')).status).toBe(404);
    expect((await admin.get('/admin/orders/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    for (const query of [
      'pagina=-5',
      'pagina=99999',
      'from=2025-13-45&to=x',
      'status=%00',
      'q=%25%5C_',
      'q=%00',
      'q=%23%23%23',
    ]) {
      expect((await admin.get(`/admin/orders?${query}`)).status, query).toBe(200);
    }
    // The list's page is `pagina`, as everywhere; an old `?page=` link lands on the same page.
    const former = await admin.get('/admin/orders?status=shipped&page=2&q=ana');
    expect(former.status).toBe(301);
    expect(former.location).toBe('/admin/orders?status=shipped&pagina=2&q=ana');
    expect((await admin.get(former.location!)).status).toBe(200);
    expect((await admin.request(`/admin/orders/${orderId}`, { method: 'DELETE' })).status).toBe(
      405,
    );

    // A pending order goes, its stock with it; its e-mail, still queued, is dropped, not retried.
    const stockBefore = await new Visitor(server.url).stockOf(HEADPHONES.id);
    const pending = await shopperOrder(server, HEADPHONES.id, 2, { approve: false });
    const gone = await admin.post('/admin/orders', { intent: 'delete', id: pending.orderId });
    expect(gone.status).toBe(200);
    expect(visibleText(gone.text)).not.toContain(`#${pending.number}`);
    expect(await new Visitor(server.url).stockOf(HEADPHONES.id)).toBe(stockBefore);
    expect((await admin.get(`/admin/orders/${pending.orderId}`)).status).toBe(404);
    await until(
      async () =>
        server.output().includes('Order deleted before its outbox job ran; skipped') || undefined,
      'the queued e-mail of the deleted order to be skipped',
    );

    // Signed out: every page and the export send to the sign-in.
    const stranger = new Visitor(server.url);
    for (const path of ['/admin/orders', `/admin/orders/${orderId}`, '/admin/orders/export.csv']) {
      const answer = await stranger.get(path);
      expect(answer.status, path).toBe(302);
      expect(answer.location).toMatch(/^\/admin\/login/);
    }
    const anonymous = await stranger.post(`/admin/orders/${orderId}`, { intent: 'delete' });
    expect(anonymous.status).toBe(302);
  });
});
