import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { formatDate } from '~/lib/date-format';
import { formatCents } from '~/lib/money';

import { adminVisitor, signedInPage, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, VIEWPORTS } from '../support/browser';
import { startFakeMercadoPago, type FakeMercadoPago } from '../support/fake-mercadopago';
import { freePort } from '../support/ports';
import { sampleProduct } from '../support/sample';
import { START_BUDGET_MS, startServer, type TestServer } from '../support/server';
import { Visitor, visibleText } from '../support/visitor';

const TOKEN = 'TEST-5528-admin-token';
const SECRET = 'whsec-admin-9902';
const TIME_ZONE = 'America/Sao_Paulo';

// R$ 129,90, 120 in stock: every order here buys one, so the stock reads exactly.
const MOUSE = sampleProduct('Mouse Sem Fio');

const cents = (reais: number) => Math.round(reais * 100);

async function toast(page: Page, message: string) {
  await page.getByRole('status').filter({ hasText: message }).first().waitFor();
}

describe('admin: Mercado Pago payments (details, refunds, chargebacks)', () => {
  let fake: FakeMercadoPago;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    fake = await startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: SECRET });
    [server, browser] = await Promise.all([
      startServer({
        env: {
          // Mercado Pago's notifications come back here.
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          PAYMENT_PROVIDER: 'mercadopago',
          MERCADOPAGO_API_URL: fake.url,
          MERCADOPAGO_ACCESS_TOKEN: TOKEN,
          MERCADOPAGO_WEBHOOK_SECRET: SECRET,
          SMTP_URL: '',
          CEP_SERVICE_URL: 'http://127.0.0.1:9',
          CHECKOUT_RATE_LIMIT: '1000',
        },
        prepare: withAdmin(),
        settings: { max_quantity_per_item: 999, timezone: TIME_ZONE },
      }),
      launchBrowser(),
    ]);
  }, START_BUDGET_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake?.close();
  });

  /**
   * A shopper's PIX order, paid at the fake (its notification confirms the order). `card`: paid
   * as a Mastercard in that many instalments instead, as Mercado Pago's checkout would report it.
   */
  async function paidOrder(options: { card?: number } = {}) {
    const shopper = new Visitor(server.url);
    await shopper.addToCart(MOUSE.id, 1);
    const { orderId, paymentId } = await shopper.checkout();
    expect(paymentId).toMatch(/^\d+$/);
    const payment = fake.payments.get(paymentId!)!;
    if (options.card) {
      payment.payment_type_id = 'credit_card';
      payment.payment_method_id = 'master';
      payment.point_of_interaction = { type: 'CHECKOUT' };
    }
    await fake.approve(paymentId!, { installments: options.card ?? 1 });
    expect(fake.notifications.at(-1)).toMatchObject({ status: 200 });
    return { orderId, paymentId: paymentId!, number: await shopper.orderNumber(orderId), payment };
  }

  async function adminPage(
    orderId: string,
    viewport: { width: number; height: number } = VIEWPORTS.desktop,
  ) {
    return signedInPage(browser, server.url, `/admin/orders/${orderId}`, viewport);
  }

  const paymentSection = (page: Page) => page.getByRole('region', { name: 'Pagamento' });

  it('shows a card payment’s instalments, fees and id at 1280 px, and refunds it once', async () => {
    const stockBefore = await new Visitor(server.url).stockOf(MOUSE.id);
    const { orderId, paymentId, number, payment } = await paidOrder({ card: 6 });
    const total = cents(payment.transaction_amount);
    const details = payment.transaction_details;
    const fee = payment.fee_details.find((each) => each.fee_payer === 'collector')!;

    const { page, problems } = await adminPage(orderId);
    await page.getByRole('heading', { level: 1, name: `Detalhes do pedido #${number}` }).waitFor();
    const section = paymentSection(page);
    const text = visibleText(await section.innerHTML());
    expect(text).toContain('Cartão de crédito');
    expect(text).toContain('Mastercard');
    expect(text).toContain(`6x de ${formatCents(cents(details.installment_amount))}`);
    expect(text).toContain(`Pago pelo cliente ${formatCents(cents(details.total_paid_amount))}`);
    expect(text).toContain(`Tarifas do Mercado Pago ${formatCents(cents(fee.amount))}`);
    expect(text).toContain(
      `Líquido para a loja ${formatCents(cents(details.net_received_amount))}`,
    );
    const releaseDay = formatDate(new Date(payment.money_release_date!), TIME_ZONE);
    expect(text).toContain(`A liberar em ${releaseDay}`);
    // The interest the shopper paid is theirs: what they paid is more than the order's total.
    expect(cents(details.total_paid_amount)).toBeGreaterThan(total);
    const link = section.getByRole('link', { name: new RegExp(paymentId) });
    expect(await link.getAttribute('href')).toBe(
      `https://www.mercadopago.com.br/activities/1?q=${paymentId}`,
    );
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toContain('noopener');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await new Visitor(server.url).stockOf(MOUSE.id)).toBe(stockBefore - 1);

    await section.getByRole('button', { name: 'Reembolsar' }).click();
    const dialog = page.getByRole('dialog', { name: `Reembolsar pedido #${number}` });
    await dialog.waitFor();
    const question = visibleText(await dialog.innerHTML());
    expect(question).toContain(formatCents(total));
    expect(question).toContain('O pedido é cancelado e o estoque devolvido.');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Reembolsar' }).click();

    const amount = formatCents(total);
    await toast(page, `Reembolso de ${amount} feito. Pedido cancelado e estoque devolvido.`);
    const timeline = page.getByTestId('order-timeline');
    await timeline
      .getByText(
        `Reembolso de ${amount} feito pelo Mercado Pago (pagamento ${paymentId}; pedido por Gerente da Loja).`,
      )
      .waitFor();
    await timeline.getByText('Pedido cancelado pelo reembolso; estoque devolvido.').waitFor();
    await section.getByText('Reembolsado').first().waitFor();
    expect(await section.getByRole('button', { name: 'Reembolsar' }).count()).toBe(0);
    expect(visibleText(await section.innerHTML())).toContain(`Reembolsado ${amount}`);
    expect(fake.refundCalls(paymentId)).toBe(1);
    expect(await new Visitor(server.url).stockOf(MOUSE.id)).toBe(stockBefore);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Mercado Pago's own notification of the refund, once it lands, adds nothing twice.
    await fake.notificationsSettled();
    const admin = await adminVisitor(server.url);
    const after = visibleText((await admin.get(`/admin/orders/${orderId}`)).text);
    expect(after.split('Pedido cancelado pelo reembolso').length - 1).toBe(1);
    expect(fake.refundCalls(paymentId)).toBe(1);
    expect(problems).toEqual([]);
  });

  it('shows a PIX payment and refunds it at 360 px', async () => {
    const { orderId, paymentId, number, payment } = await paidOrder();
    const { page, problems } = await adminPage(orderId, VIEWPORTS.mobile);
    await page.getByRole('heading', { level: 1, name: `Detalhes do pedido #${number}` }).waitFor();
    const section = paymentSection(page);
    const text = visibleText(await section.innerHTML());
    expect(text).toContain('Forma PIX');
    expect(text).not.toContain('Parcelas');
    expect(text).toContain(
      `Líquido para a loja ${formatCents(cents(payment.transaction_details.net_received_amount))}`,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.mobile.width,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);

    await section.getByRole('button', { name: 'Reembolsar' }).click();
    const dialog = page.getByRole('dialog', { name: `Reembolsar pedido #${number}` });
    await dialog.getByRole('button', { name: 'Reembolsar' }).click();
    const amount = formatCents(cents(payment.transaction_amount));
    await page
      .getByTestId('order-timeline')
      .getByText(
        `Reembolso de ${amount} feito pelo Mercado Pago (pagamento ${paymentId}; pedido por Gerente da Loja).`,
      )
      .waitFor();
    expect(fake.refundCalls(paymentId)).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('refunds with a plain form post (no JavaScript), once, and refuses bad input with a 4xx', async () => {
    const { orderId, paymentId } = await paidOrder();
    const admin = await adminVisitor(server.url);
    const page = visibleText((await admin.get(`/admin/orders/${orderId}`)).text);
    expect(page).toContain('Reembolsar');

    // As a browser without JavaScript posts it: a redirect to the page, which then shows it.
    const posted = await admin.post(
      `/admin/orders/${orderId}`,
      { intent: 'refund' },
      { 'Sec-Fetch-Dest': 'document' },
    );
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/admin/orders/${orderId}`);
    const again = await admin.post(`/admin/orders/${orderId}`, { intent: 'refund' });
    expect(again.status).toBe(200);
    expect(visibleText(again.text)).toContain('Este pedido já foi reembolsado.');
    expect(fake.refundCalls(paymentId)).toBe(1);
    const after = visibleText((await admin.get(`/admin/orders/${orderId}`)).text);
    expect(after).toContain(
      `feito pelo Mercado Pago (pagamento ${paymentId}; pedido por Gerente da Loja).`,
    );
    expect(after).not.toContain('Reembolsar');

    expect((await admin.post(`/admin/orders/${orderId}`, { intent: 'refund!' })).status).toBe(400);
    expect((await admin.post('/admin/orders/not-an-id', { intent: 'refund' })).status).toBe(404);
    // A shopper's session is no admin's.
    const stranger = new Visitor(server.url);
    const refused = await stranger.post(`/admin/orders/${orderId}`, { intent: 'refund' });
    expect(refused.status).toBeGreaterThanOrEqual(300);
    expect(fake.refundCalls(paymentId)).toBe(1);
  });

  it('refunds a payment made after the order was cancelled, without cancelling it again', async () => {
    const shopper = new Visitor(server.url);
    await shopper.addToCart(MOUSE.id, 1);
    const { orderId, paymentId } = await shopper.checkout();
    const admin = await adminVisitor(server.url);
    const post = (fields: Record<string, string>) =>
      admin.post(`/admin/orders/${orderId}`, fields, { 'Sec-Fetch-Dest': 'document' });
    expect((await post({ intent: 'status', status: 'cancelled' })).status).toBe(303);
    const stock = await new Visitor(server.url).stockOf(MOUSE.id);
    await fake.approve(paymentId!);
    expect(fake.notifications.at(-1)).toMatchObject({ status: 200 });

    const late = visibleText((await admin.get(`/admin/orders/${orderId}`)).text);
    expect(late).toContain('Pagamento recebido depois do cancelamento');
    expect(late).toContain("Reembolse o cliente com 'Reembolsar'");
    expect(late).toContain('O pedido já está cancelado.');

    expect((await post({ intent: 'refund' })).status).toBe(303);
    const amount = formatCents(cents(fake.payments.get(paymentId!)!.transaction_amount));
    const after = visibleText((await admin.get(`/admin/orders/${orderId}`)).text);
    expect(after).not.toContain('Pagamento recebido depois do cancelamento');
    expect(after).toContain(
      `Reembolso de ${amount} feito pelo Mercado Pago (pagamento ${paymentId!}; pedido por Gerente da Loja).`,
    );
    expect(after).not.toContain('Pedido cancelado pelo reembolso');
    expect(fake.refundCalls(paymentId!)).toBe(1);
    expect(await new Visitor(server.url).stockOf(MOUSE.id)).toBe(stock);
  });

  it('shows staff a payment for less than the order, which leaves the order waiting', async () => {
    const shopper = new Visitor(server.url);
    await shopper.addToCart(MOUSE.id, 1);
    const { orderId, paymentId } = await shopper.checkout();
    const payment = fake.payments.get(paymentId!)!;
    const total = formatCents(cents(payment.transaction_amount));
    payment.transaction_amount = 1;
    await fake.approve(paymentId!);
    expect(fake.notifications.at(-1)).toMatchObject({ status: 200 });

    const admin = await adminVisitor(server.url);
    const page = visibleText((await admin.get(`/admin/orders/${orderId}`)).text);
    expect(page).toContain('Pagamento a conferir');
    expect(page).toContain(
      `Pagamento ${paymentId!} aprovado de R$ 1,00, menos que o total do pedido (${total}): ` +
        'o pedido não foi confirmado; confira no Mercado Pago antes de enviar ou reembolsar.',
    );
    // Not confirmed: the timeline has no approval.
    expect(page).not.toContain('Pagamento aprovado.');
  });

  it('shows a chargeback Mercado Pago notifies in the timeline, and offers no refund then', async () => {
    const { orderId, paymentId } = await paidOrder();
    await fake.chargeback(paymentId);
    expect(fake.notifications.at(-1)).toMatchObject({ status: 200 });

    const { page, problems } = await adminPage(orderId);
    await page
      .getByTestId('order-timeline')
      .getByText('Pagamento contestado (chargeback).')
      .waitFor();
    const section = paymentSection(page);
    expect(visibleText(await section.innerHTML())).toContain('Contestado (chargeback)');
    expect(await section.getByRole('button', { name: 'Reembolsar' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    // Nothing refunded, and the refund's intent is refused by the server too.
    const admin = await adminVisitor(server.url);
    const refused = await admin.post(`/admin/orders/${orderId}`, { intent: 'refund' });
    expect(refused.status).toBe(409);
    expect(fake.refundCalls(paymentId)).toBe(0);
  });
});
