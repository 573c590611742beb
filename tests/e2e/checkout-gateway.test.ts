import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startFakeGateway,
  startFakeUtmify,
  type FakeGateway,
  type FakeUtmify,
  type RecordedRequest,
} from '../support/fake-gateway';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { VALID_CHECKOUT, visibleText, Visitor } from '../support/visitor';

// The gateway's secret and the UTMify token: neither may reach a page or a log line.
const SECRET = 'sk_test_e2e_9b1f0c7d2a';
const STORE_URL = 'https://loja.test';
const TOKEN = 'tok_utmify_e2e_4c8e1a';

// R$ 299,90, 75 in stock.
const HEADPHONES = sampleProduct('Fone de Ouvido');
// R$ 129,90, 120 in stock.
const MOUSE = sampleProduct('Mouse Sem Fio');
// R$ 249,90, 5 in stock: only the rejected payment buys it, so its stock reads exactly.
const HEADSET = sampleProduct('Headset Gamer');
const HEADSET_STOCK = HEADSET.stockQuantity ?? 0;

const PHONE_DIGITS = '11987654321';
// UTMify reads dates as UTC 'YYYY-MM-DD HH:MM:SS'.
const UTMIFY_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** What the fake UTMify received for one order, parsed. */
interface UtmifyReport {
  orderId: string;
  platform: string;
  paymentMethod: string;
  status: string;
  createdAt: string;
  approvedDate: string | null;
  refundedAt: string | null;
  customer: { name: string; email: string; phone: string; document: string };
  products: { id: string; name: string; quantity: number; priceInCents: number }[];
  trackingParameters: Record<string, string | null>;
  commission: Record<string, number>;
  isTest: boolean;
}

/** A quoted-printable message as text: soft line breaks joined, =XX bytes decoded as UTF-8. */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

describe('checkout with the SPEC §7 payment gateway', () => {
  let gateway: FakeGateway;
  let utmify: FakeUtmify;
  let server: TestServer;

  beforeAll(async () => {
    [gateway, utmify] = await Promise.all([startFakeGateway(SECRET), startFakeUtmify()]);
    server = await startServer({
      env: {
        PAYMENT_PROVIDER: 'gateway',
        PAYMENT_GATEWAY_URL: gateway.url,
        PAYMENT_GATEWAY_SECRET_KEY: SECRET,
        // Postbacks go here, whatever host a request named.
        PUBLIC_URL: STORE_URL,
        UTMIFY_API_TOKEN: TOKEN,
        UTMIFY_API_URL: utmify.url,
        // No SMTP server: e-mails become .eml files under DATA_DIR/mail.
        SMTP_URL: '',
        CEP_SERVICE_URL: 'http://127.0.0.1:9',
        CHECKOUT_RATE_LIMIT: '1000',
        // A line per request (at debug since issue 38): the order link's key must not be in it.
        LOG_LEVEL: 'debug',
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([gateway?.close(), utmify?.close()]);
  });

  /** A new browser that places an order for these products through the checkout form. */
  async function order(products: [{ id: string }, number][], landing = '/') {
    const visitor = new Visitor(server.url);
    await visitor.get(landing);
    for (const [product, quantity] of products) await visitor.addToCart(product.id, quantity);
    const placed = await visitor.checkout();
    return { visitor, ...placed, number: await visitor.orderNumber(placed.orderId) };
  }

  const postback = (body: unknown) =>
    fetch(`${server.url}/api/payments/postback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { ok: boolean; outcome?: string; message?: string },
    }));

  const reports = (orderId: string): (UtmifyReport & { request: RecordedRequest })[] =>
    utmify.requests
      .filter((request) => !request.refused)
      .map((request) => ({ ...(request.body as UtmifyReport), request }))
      .filter((report) => report.orderId === orderId);

  /** The order's status label in the browser's history (/historico), as a shopper reads it. */
  async function historyStatus(visitor: Visitor, number: string): Promise<string | undefined> {
    const page = await visitor.get('/historico');
    expect(page.status).toBe(200);
    const card = page.text
      .split('data-testid="order-card"')
      .slice(1)
      .find((html) => visibleText(html).includes(`Pedido #${number}`));
    return card && /data-testid="order-status"[^>]*>([^<]*)</.exec(card)?.[1];
  }

  /** The .eml files written for an order, by subject, as decoded text. */
  async function mailsFor(number: string): Promise<{ subject: string; text: string }[]> {
    const folder = join(server.dataDir, 'mail');
    const names = await readdir(folder).catch(() => [] as string[]);
    const mails = await Promise.all(
      names
        .filter((name) => name.endsWith('.eml'))
        .map(async (name) => decodeQuotedPrintable(await readFile(join(folder, name), 'utf8'))),
    );
    return mails
      .map((text) => ({ subject: /^Subject: (.*)$/m.exec(text)?.[1] ?? '', text }))
      .filter((mail) => mail.subject.includes(`#${number}`));
  }

  it('creates the transaction with the SPEC §7 body and shows its PIX code', async () => {
    const placed = await order(
      [
        [HEADPHONES, 2],
        [MOUSE, 1],
      ],
      '/?utm_source=google&utm_medium=cpc&utm_campaign=natal',
    );
    expect(placed.paymentId).toBeTruthy();
    const cpfDigits = placed.visitor.cpf.replace(/\D/g, '');
    const transaction = gateway.transactions.get(placed.paymentId!);
    expect(transaction).toBeDefined();

    const purchase = gateway.requests.find(
      (request) =>
        request.path === '/v1/transaction.purchase' &&
        (request.body as { externalId?: string }).externalId === placed.orderId,
    )!;
    expect(purchase.method).toBe('POST');
    expect(purchase.headers.authorization).toBe(SECRET);
    expect(purchase.headers['content-type']).toMatch(/^application\/json/);
    // Amounts in cents from the server's own prices; CPF and phone as digits.
    expect(purchase.body).toEqual({
      name: VALID_CHECKOUT.customerName,
      email: VALID_CHECKOUT.customerEmail,
      cpf: cpfDigits,
      phone: PHONE_DIGITS,
      paymentMethod: 'PIX',
      amount: 2 * HEADPHONES.priceCents + MOUSE.priceCents,
      traceable: true,
      items: expect.arrayContaining([
        { unitPrice: HEADPHONES.priceCents, title: HEADPHONES.name, quantity: 2, tangible: false },
        { unitPrice: MOUSE.priceCents, title: MOUSE.name, quantity: 1, tangible: false },
      ]),
      externalId: placed.orderId,
      postbackUrl: `${STORE_URL}/api/payments/postback`,
      utmQuery: expect.any(String),
    });
    const sent = purchase.body as { items: unknown[]; utmQuery: string };
    expect(sent.items).toHaveLength(2);
    expect(Object.fromEntries(new URLSearchParams(sent.utmQuery))).toEqual({
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'natal',
    });

    // The confirmation page shows the gateway's code, asking the gateway how it stands (PENDING).
    const page = await placed.visitor.get(placed.location);
    expect(page.status).toBe(200);
    expect(visibleText(page.text)).toContain(`Pedido #${placed.number}`);
    expect(page.text).toContain('Pague com PIX');
    expect(page.text).toContain(transaction!.pixCode);
    expect(page.text).toContain('data-testid="pix-qr"');
    expect(page.text).not.toContain(SECRET);
    const statusCall = gateway.requests.find(
      (request) =>
        request.path === '/v1/transaction.getPayment' &&
        request.query.get('id') === placed.paymentId,
    );
    expect(statusCall?.method).toBe('GET');
    expect(statusCall?.headers.authorization).toBe(SECRET);

    // UTMify hears of the new order from the outbox.
    await expect.poll(() => reports(placed.orderId).length, { timeout: 10_000 }).toBe(1);
    const [report] = reports(placed.orderId);
    expect(report!.request.headers['x-api-token']).toBe(TOKEN);
    expect(report!.request.headers['content-type']).toMatch(/^application\/json/);
    expect(report).toMatchObject({
      orderId: placed.orderId,
      platform: 'Vitrine',
      paymentMethod: 'pix',
      status: 'waiting_payment',
      approvedDate: null,
      refundedAt: null,
      customer: {
        name: VALID_CHECKOUT.customerName,
        email: VALID_CHECKOUT.customerEmail,
        phone: PHONE_DIGITS,
        document: cpfDigits,
      },
      trackingParameters: {
        utm_source: 'google',
        utm_medium: 'cpc',
        utm_campaign: 'natal',
        utm_content: null,
        utm_term: null,
      },
      commission: {
        totalPriceInCents: 2 * HEADPHONES.priceCents + MOUSE.priceCents,
        gatewayFeeInCents: 0,
        userCommissionInCents: 2 * HEADPHONES.priceCents + MOUSE.priceCents,
      },
      isTest: false,
    });
    expect(report!.createdAt).toMatch(UTMIFY_DATE);
    expect(report!.products).toEqual(
      expect.arrayContaining([
        {
          id: HEADPHONES.id,
          name: HEADPHONES.name,
          planId: null,
          planName: null,
          quantity: 2,
          priceInCents: HEADPHONES.priceCents,
        },
      ]),
    );
  });

  it('trusts a postback only as far as the gateway confirms it, once', async () => {
    const placed = await order([[HEADPHONES, 1]]);
    const paymentId = placed.paymentId!;
    const pixCode = gateway.transactions.get(paymentId)!.pixCode;

    // A forged postback claiming APPROVED while the gateway says PENDING changes nothing.
    const forged = await postback({ id: paymentId, status: 'APPROVED' });
    expect(forged).toEqual({ status: 200, body: { ok: true, outcome: 'unchanged' } });
    expect(await historyStatus(placed.visitor, placed.number)).toBe('Pendente');
    const stillPending = await placed.visitor.get(placed.location);
    expect(stillPending.status).toBe(200);
    expect(stillPending.text).toContain(pixCode);

    // The gateway approves: the same postback now confirms the order, and a replay does nothing.
    gateway.setStatus(paymentId, 'APPROVED');
    const real = await postback({ id: paymentId, status: 'APPROVED' });
    expect(real).toEqual({ status: 200, body: { ok: true, outcome: 'confirmed' } });
    const replay = await postback({ id: paymentId });
    const replayedAt = Date.now();
    expect(replay).toEqual({ status: 200, body: { ok: true, outcome: 'unchanged' } });
    expect(await historyStatus(placed.visitor, placed.number)).toBe('Pago');

    // The confirmation page now sends the shopper on to the thank-you page.
    const confirmation = await placed.visitor.get(placed.location);
    expect(confirmation.status).toBe(302);
    expect(confirmation.location).toBe(
      `/thank-you?${new URLSearchParams({ orderId: placed.orderId, paymentId, verified: 'true' })}`,
    );
    const thanks = await placed.visitor.get(confirmation.location!);
    expect(thanks.status).toBe(200);
    expect(visibleText(thanks.text)).toContain('Obrigado pela sua compra!');

    // UTMify: each report carries the order's status when it is delivered (a late one never takes
    // the order back), all with the order's one createdAt; the last one says paid.
    await expect
      .poll(() => reports(placed.orderId).at(-1)?.status, { timeout: 10_000 })
      .toBe('paid');
    // The outbox polls every second: give a duplicate from the replay time to show up.
    await sleep(Math.max(0, replayedAt + 3_000 - Date.now()));
    const delivered = reports(placed.orderId);
    const paid = delivered.at(-1);
    expect(delivered.length).toBeLessThanOrEqual(2);
    for (const report of delivered) {
      expect(['waiting_payment', 'paid']).toContain(report.status);
      expect(report.createdAt).toBe(paid!.createdAt);
    }
    expect(paid!.createdAt).toMatch(UTMIFY_DATE);
    expect(paid!.approvedDate).toMatch(UTMIFY_DATE);
    expect(paid!.approvedDate! >= paid!.createdAt).toBe(true);
    expect(paid!.request.headers['x-api-token']).toBe(TOKEN);
    expect(paid).toMatchObject({ platform: 'Vitrine', status: 'paid', isTest: false });
  });

  it('answers /payment-callback from what the gateway says, cancelling a rejected order', async () => {
    const callback = async (placed: {
      visitor: Visitor;
      orderId: string;
      paymentId: string | null;
    }) => {
      const query = new URLSearchParams({ orderId: placed.orderId, paymentId: placed.paymentId! });
      const page = await placed.visitor.get(`/payment-callback?${query}`);
      expect(page.status).toBe(200);
      return /data-outcome="[^"]*"[^>]*>([^<]*)</.exec(page.text)?.[1];
    };

    const pending = await order([[MOUSE, 1]]);
    expect(await callback(pending)).toBe('Pagamento pendente. Aguarde a confirmação.');

    const approved = await order([[MOUSE, 1]]);
    gateway.setStatus(approved.paymentId!, 'APPROVED');
    expect(await callback(approved)).toBe('Pagamento aprovado com sucesso!');
    expect(await historyStatus(approved.visitor, approved.number)).toBe('Pago');

    // The gateway cannot be asked: the callback says so and the order stays as it was.
    const unknown = await order([[MOUSE, 1]]);
    gateway.failingStatus.add(unknown.paymentId!);
    expect(await callback(unknown)).toBe('Erro ao verificar status do pagamento');
    expect(await historyStatus(unknown.visitor, unknown.number)).toBe('Pendente');

    // Rejected: the order is cancelled and the two headsets it held are back in stock.
    const before = await new Visitor(server.url).stockOf(HEADSET.id);
    expect(before).toBe(HEADSET_STOCK);
    const rejected = await order([[HEADSET, 2]]);
    expect(await new Visitor(server.url).stockOf(HEADSET.id)).toBe(HEADSET_STOCK - 2);
    gateway.setStatus(rejected.paymentId!, 'REJECTED');
    expect(await callback(rejected)).toBe('Pagamento rejeitado. Tente novamente.');
    expect(await historyStatus(rejected.visitor, rejected.number)).toBe('Cancelado');
    expect(await new Visitor(server.url).stockOf(HEADSET.id)).toBe(HEADSET_STOCK);
    const confirmation = await rejected.visitor.get(rejected.location);
    expect(confirmation.status).toBe(200);
    expect(visibleText(confirmation.text)).toContain('Pedido cancelado');
    expect(confirmation.text).not.toContain(gateway.transactions.get(rejected.paymentId!)!.pixCode);
    // Asked again, the callback still says rejected, and nothing is released twice.
    expect(await callback(rejected)).toBe('Pagamento rejeitado. Tente novamente.');
    expect(await new Visitor(server.url).stockOf(HEADSET.id)).toBe(HEADSET_STOCK);
    await expect
      .poll(() => reports(rejected.orderId).at(-1)?.status, { timeout: 10_000 })
      .toBe('refused');
  });

  it('keeps the order pending when the gateway fails to create the payment, and lets it be paid later', async () => {
    const failedFirst = async (mode: 'error' | 'missing-id') => {
      gateway.purchaseMode = mode;
      try {
        return await order([[MOUSE, 1]]);
      } finally {
        gateway.purchaseMode = 'ok';
      }
    };

    for (const mode of ['error', 'missing-id'] as const) {
      const placed = await failedFirst(mode);
      // The order exists, without a payment; the address says the payment failed.
      expect(placed.paymentId).toBeNull();
      expect(placed.location).toBe(`/order-confirmation?orderId=${placed.orderId}`);
      const page = await placed.visitor.get(placed.location);
      expect(page.status).toBe(200);
      const text = visibleText(page.text);
      expect(text).toContain(`Pedido #${placed.number}`);
      expect(text).toContain('Pagamento não gerado');
      expect(text).toContain('não foi possível gerar o pagamento agora');
      expect(page.text).toMatch(/<button[^>]*value="pay"[^>]*>Pagar agora<\/button>/);
      expect(await historyStatus(placed.visitor, placed.number)).toBe('Pendente');
    }

    // 'Pagar agora' while the gateway still fails says why, in SPEC §8's words.
    const placed = await failedFirst('missing-id');
    const pay = () =>
      placed.visitor.post(`/order-confirmation?orderId=${placed.orderId}`, {
        intent: 'pay',
        orderId: placed.orderId,
      });
    gateway.purchaseMode = 'missing-id';
    const invalid = await pay();
    expect(invalid.status).toBe(409);
    expect(visibleText(invalid.text)).toContain(
      'Erro ao gerar pagamento: Resposta inválida da API de pagamento',
    );
    gateway.purchaseMode = 'error';
    const failed = await pay();
    expect(failed.status).toBe(409);
    expect(visibleText(failed.text)).toContain(
      'Erro ao gerar pagamento: Erro ao processar pagamento',
    );

    // The gateway is back: the same button creates the payment for the same order.
    gateway.purchaseMode = 'ok';
    const paid = await pay();
    expect(paid.status).toBe(303);
    const target = new URL(paid.location!, server.url);
    expect(target.pathname).toBe('/order-confirmation');
    expect(target.searchParams.get('orderId')).toBe(placed.orderId);
    const paymentId = target.searchParams.get('paymentId')!;
    const transaction = gateway.transactions.get(paymentId);
    expect(transaction?.purchase.externalId).toBe(placed.orderId);
    expect(transaction?.purchase.amount).toBe(MOUSE.priceCents);
    const page = await placed.visitor.get(paid.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain(transaction!.pixCode);
    // Pressed again, the live payment is reused rather than a second one created.
    const purchases = gateway.purchases().length;
    const again = await pay();
    expect(again.status).toBe(303);
    expect(again.location).toBe(paid.location);
    expect(gateway.purchases()).toHaveLength(purchases);
  });

  it('describes an order without any payment as not generated, whatever the address', async () => {
    gateway.purchaseMode = 'error';
    let placed: Awaited<ReturnType<typeof order>>;
    try {
      placed = await order([[MOUSE, 1]]);
    } finally {
      gateway.purchaseMode = 'ok';
    }
    expect(placed.paymentId).toBeNull();
    const page = await placed.visitor.get(`/order-confirmation?orderId=${placed.orderId}`);
    expect(page.status).toBe(200);
    expect(visibleText(page.text)).toContain('Pagamento não gerado');
    expect(visibleText(page.text)).not.toContain('O prazo deste PIX terminou');
  });

  it('writes the order e-mails as .eml files when there is no SMTP server', async () => {
    const placed = await order([[HEADPHONES, 1]]);
    const pixCode = gateway.transactions.get(placed.paymentId!)!.pixCode;

    // Order received, with the PIX code to pay. (If the outbox ran before the payment was stored,
    // the e-mail waits for it and is retried after 10 s.)
    await expect
      .poll(async () => (await mailsFor(placed.number)).map((mail) => mail.subject), {
        timeout: 20_000,
        interval: 250,
      })
      .toEqual([`Recebemos seu pedido #${placed.number}`]);
    const [received] = await mailsFor(placed.number);
    expect(received!.text).toContain(`To: ${VALID_CHECKOUT.customerEmail}`);
    expect(received!.text).toContain(pixCode);

    // Its link opens this order on another device (no order token there), and a wrong key does not.
    const link =
      /https?:\/\/[^\s"<>]+\/order-confirmation\?orderId=[\w-]+&(?:amp;)?chave=[\w-]+/.exec(
        received!.text,
      )?.[0];
    expect(link).toBeDefined();
    const path =
      new URL(link!.replace('&amp;', '&')).pathname + new URL(link!.replace('&amp;', '&')).search;
    const phone = new Visitor(server.url);
    // The key leaves the address for a cookie of this order (order-key.test.ts) before the page.
    const moved = await phone.get(path);
    expect(moved.status).toBe(303);
    expect(moved.location).toBe(`/order-confirmation?orderId=${placed.orderId}`);
    const opened = await phone.get(moved.location!);
    expect(opened.status).toBe(200);
    expect(visibleText(opened.text)).toContain(`Pedido #${placed.number}`);
    expect(opened.text).toContain(pixCode);
    // The request log names the page but not the key that opens it.
    const key = new URL(path, server.url).searchParams.get('chave')!;
    await expect
      .poll(() => server.output().includes(`orderId=${placed.orderId}&chave=[redacted]`), {
        timeout: 5_000,
      })
      .toBe(true);
    expect(server.output()).not.toContain(key);
    const stranger = new Visitor(server.url);
    await stranger.get(path.replace(/chave=[\w-]+/, `chave=${randomUUID()}`));
    const guessed = await stranger.get(moved.location!);
    expect(guessed.status).toBe(404);
    expect(guessed.text).not.toContain(pixCode);

    // The shopper's own page sees the approval (no postback at all) and the confirmation follows.
    gateway.setStatus(placed.paymentId!, 'APPROVED');
    const confirmation = await placed.visitor.get(placed.location);
    expect(confirmation.status).toBe(302);
    expect(confirmation.location).toMatch(/^\/thank-you\?/);
    await expect
      .poll(async () => (await mailsFor(placed.number)).map((mail) => mail.subject).sort(), {
        timeout: 10_000,
        interval: 250,
      })
      .toEqual([
        `Pagamento confirmado: pedido #${placed.number}`,
        `Recebemos seu pedido #${placed.number}`,
      ]);
    const confirmed = (await mailsFor(placed.number)).find((mail) =>
      mail.subject.startsWith('Pagamento confirmado'),
    );
    expect(confirmed!.text).toContain(`To: ${VALID_CHECKOUT.customerEmail}`);
    // A paid order's e-mail carries no code left to pay.
    expect(confirmed!.text).not.toContain(pixCode);
  });

  it('leaves UTMify with the latest status when an earlier report is retried late', async () => {
    let refused = 0;
    utmify.refuse = (body) => {
      if ((body as UtmifyReport).status !== 'waiting_payment' || refused > 0) return false;
      refused += 1;
      return true;
    };
    try {
      const placed = await order([[MOUSE, 1]]);
      await expect
        .poll(() => utmify.requests.filter((request) => request.refused).length, {
          timeout: 10_000,
        })
        .toBe(1);
      gateway.setStatus(placed.paymentId!, 'APPROVED');
      expect((await postback({ id: placed.paymentId })).body.outcome).toBe('confirmed');
      // Both reports get through in the end, and the refused one, retried after the payment,
      // says what the order is now.
      await expect
        .poll(() => reports(placed.orderId).map((report) => report.status), {
          timeout: 20_000,
          interval: 250,
        })
        .toEqual(['paid', 'paid']);
      expect(reports(placed.orderId).at(-1)!.status).toBe('paid');
    } finally {
      utmify.refuse = () => false;
    }
  });

  it('never shows or logs the secret key or the tracking token', () => {
    expect(server.output()).not.toContain(SECRET);
    expect(server.output()).not.toContain(TOKEN);
    expect(server.output()).not.toMatch(/"level":50/);
  });
});
