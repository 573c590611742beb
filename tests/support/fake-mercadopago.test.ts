import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from './ports';
import { startFakeMercadoPago, type FakeMercadoPago } from './fake-mercadopago';

// The fake stands for Mercado Pago in the e2e tests of issue 25, so its own promises (the
// idempotency, the signatures, the hosted page's redirect) are proven here over real HTTP.
const TOKEN = 'TEST-7412369852-112726-abcdef';
const SECRET = 'fake-webhook-secret';

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let fake: FakeMercadoPago;
let store: Server;
let storeUrl = '';
const received: Received[] = [];

beforeAll(async () => {
  fake = await startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: SECRET });
  // Our app's webhook route, reduced to what the fake needs: somewhere that answers 200.
  store = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await fake.close();
  await new Promise<void>((resolve) => store.close(() => resolve()));
});

const webhookUrl = () => `${storeUrl}/api/payments/mercadopago?source_news=webhooks`;

function api(path: string, init: { method?: string; body?: unknown; key?: string } = {}) {
  return fetch(`${fake.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${TOKEN}`,
      'Content-Type': 'application/json',
      ...(init.key ? { 'X-Idempotency-Key': init.key } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const pix = (reference: string, amount = 129.9) => ({
  transaction_amount: amount,
  description: 'Pedido #1042',
  payment_method_id: 'pix',
  external_reference: reference,
  date_of_expiration: '2026-11-27T15:30:00.000-03:00',
  notification_url: webhookUrl(),
  payer: { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza' },
});

async function createPix(reference: string, key: string): Promise<{ id: number }> {
  const answer = await api('/v1/payments', { method: 'POST', body: pix(reference), key });
  expect(answer.status).toBe(201);
  return (await answer.json()) as { id: number };
}

/** What our webhook route does (research §3), written apart from the fake's own code. */
function verifies(url: string, headers: Record<string, string | string[] | undefined>): boolean {
  const dataId = new URL(url, 'http://store.test').searchParams.get('data.id');
  const parts = Object.fromEntries(
    String(headers['x-signature'])
      .split(',')
      .map((part) => part.split('=').map((side) => side.trim())),
  ) as Record<string, string>;
  const manifest = `id:${dataId};request-id:${String(headers['x-request-id'])};ts:${parts.ts};`;
  return createHmac('sha256', SECRET).update(manifest).digest('hex') === parts.v1;
}

describe('the fake Mercado Pago API', () => {
  it('refuses a request without the access token, in MP’s error shape', async () => {
    const answer = await fetch(`${fake.url}/v1/payments/1`);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({
      message: 'unauthorized',
      error: 'unauthorized',
      status: 401,
      cause: [],
    });
    expect(fake.requests.at(-1)?.path).toBe('/v1/payments/1');
  });

  it('creates a PIX once per idempotency key and refuses the key with another body', async () => {
    const answer = await api('/v1/payments', {
      method: 'POST',
      body: pix('order_pix'),
      key: 'pix:order_pix:1',
    });
    expect(answer.status).toBe(201);
    const payment = (await answer.json()) as Record<string, unknown> & { id: number };
    expect(payment).toMatchObject({
      status: 'pending',
      status_detail: 'pending_waiting_transfer',
      payment_method_id: 'pix',
      payment_type_id: 'bank_transfer',
      external_reference: 'order_pix',
      transaction_amount: 129.9,
      currency_id: 'BRL',
      date_of_expiration: '2026-11-27T15:30:00.000-03:00',
      live_mode: false,
      installments: 1,
      notification_url: webhookUrl(),
      payer: { email: 'ana@example.com' },
    });
    expect(String(payment.id)).toMatch(/^\d{10}$/);
    const data = (payment.point_of_interaction as { transaction_data: Record<string, string> })
      .transaction_data;
    expect(data.qr_code).toContain(String(payment.id));
    expect(Buffer.from(data.qr_code_base64!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect((await fetch(data.ticket_url!)).status).toBe(200);

    const replay = await api('/v1/payments', {
      method: 'POST',
      body: pix('order_pix'),
      key: 'pix:order_pix:1',
    });
    expect(replay.status).toBe(201);
    expect(((await replay.json()) as { id: number }).id).toBe(payment.id);
    expect(fake.charges('order_pix')).toBe(1);

    const conflict = await api('/v1/payments', {
      method: 'POST',
      body: pix('order_pix', 99),
      key: 'pix:order_pix:1',
    });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ status: 409, error: 'conflict' });
    expect(fake.charges('order_pix')).toBe(1);
  });

  it('refuses a PIX without a key or with what MP validates', async () => {
    const keyless = await api('/v1/payments', { method: 'POST', body: pix('order_bad') });
    expect(keyless.status).toBe(400);
    const cases = [
      { ...pix('order_bad'), transaction_amount: 0 },
      { ...pix('order_bad'), payment_method_id: 'visa' },
      { ...pix('order_bad'), payer: { first_name: 'Ana' } },
    ];
    for (const [index, body] of cases.entries()) {
      const answer = await api('/v1/payments', { method: 'POST', body, key: `bad:${index}` });
      expect(answer.status).toBe(400);
      const error = (await answer.json()) as { cause: { code: number; description: string }[] };
      expect(error).toMatchObject({ status: 400, error: 'bad_request' });
      expect(error.cause[0]?.description).toEqual(expect.any(String));
    }
    expect(fake.charges('order_bad')).toBe(0);
  });

  it('charges when the create arrives, even if the client gives up waiting', async () => {
    fake.createDelayMs = 2_000;
    const started = Date.now();
    await expect(
      fetch(`${fake.url}/v1/payments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'X-Idempotency-Key': 'pix:order_slow:1' },
        body: JSON.stringify(pix('order_slow')),
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(fake.charges('order_slow')).toBe(1);

    fake.createDelayMs = 0;
    const retry = await createPix('order_slow', 'pix:order_slow:1');
    expect(retry.id).toBe(
      [...fake.payments.values()].find((each) => each.external_reference === 'order_slow')?.id,
    );
    expect(fake.charges('order_slow')).toBe(1);
  });

  it('reads a payment, fails the reads a test picks, and searches newest first', async () => {
    const older = await createPix('order_search', 'search:1');
    const newer = await createPix('order_search', 'search:2');
    const read = await api(`/v1/payments/${older.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      id: older.id,
      transaction_amount_refunded: 0,
      refunds: [],
      fee_details: [],
      transaction_details: { total_paid_amount: 129.9 },
    });
    expect((await api('/v1/payments/1999999999')).status).toBe(404);

    fake.failingReads.add(String(older.id));
    expect((await api(`/v1/payments/${older.id}`)).status).toBe(500);
    fake.failingReads.clear();

    const search = await api(
      '/v1/payments/search?external_reference=order_search&sort=date_created&criteria=desc',
    );
    const found = (await search.json()) as { paging: { total: number }; results: { id: number }[] };
    expect(found.paging.total).toBe(2);
    expect(found.results.map((each) => each.id)).toEqual([newer.id, older.id]);
  });

  it('signs notifications as MP does, and forges them on request', async () => {
    const { id } = await createPix('order_signed', 'signed:1');
    const call = fake.notification(String(id), { requestId: 'req-1', ts: 1_704_908_010 });
    expect(call.url).toBe(`${webhookUrl()}&data.id=${id}&type=payment`);
    expect(call.headers['x-signature']).toMatch(/^ts=1704908010,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(call.body)).toMatchObject({
      live_mode: false,
      type: 'payment',
      user_id: fake.collectorId,
      api_version: 'v1',
      action: 'payment.updated',
      data: { id: String(id) },
    });
    expect(verifies(call.url, call.headers)).toBe(true);
    const forged = fake.notification(String(id), { forge: true });
    expect(forged.headers['x-signature']).toMatch(/^ts=\d{10},v1=[0-9a-f]{64}$/);
    expect(verifies(forged.url, forged.headers)).toBe(false);

    expect(await fake.notify(String(id))).toEqual({ status: 200, body: 'ok' });
  });

  it('refunds an approved payment once per key, and notifies both changes', async () => {
    const { id } = await createPix('order_refund', 'refund-pix:1');
    const pending = await api(`/v1/payments/${id}/refunds`, {
      method: 'POST',
      body: {},
      key: 'r:0',
    });
    expect(pending.status).toBe(400);

    const before = received.length;
    await fake.approve(String(id));
    expect(received.length).toBe(before + 1);
    expect(verifies(received.at(-1)!.url, received.at(-1)!.headers)).toBe(true);
    expect(fake.payments.get(String(id))).toMatchObject({
      status: 'approved',
      status_detail: 'accredited',
      money_release_status: 'pending',
    });

    const refund = () =>
      api(`/v1/payments/${id}/refunds`, { method: 'POST', body: {}, key: `refund:order_refund:1` });
    const first = await refund();
    const again = await refund();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    const made = (await first.json()) as { id: number };
    expect(made).toMatchObject({
      payment_id: id,
      amount: 129.9,
      status: 'approved',
      source: { type: 'collector' },
      refund_mode: 'standard',
    });
    expect(((await again.json()) as { id: number }).id).toBe(made.id);
    expect(fake.refundCalls(String(id))).toBe(1);
    expect(await (await api(`/v1/payments/${id}`)).json()).toMatchObject({
      status: 'refunded',
      status_detail: 'refunded',
      transaction_amount_refunded: 129.9,
      refunds: [{ id: made.id }],
    });
    await fake.notificationsSettled();
    expect(received.length).toBe(before + 2);
  });

  it('cancels a PIX still waiting, and only that', async () => {
    const { id } = await createPix('order_cancel', 'cancel:1');
    const cancel = () =>
      api(`/v1/payments/${id}`, { method: 'PUT', body: { status: 'cancelled' } });
    const answer = await cancel();
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      status: 'cancelled',
      status_detail: 'by_collector',
    });
    expect((await cancel()).status).toBe(400);
    await fake.notificationsSettled();
  });

  it('turns a payment into a chargeback MP can be asked about', async () => {
    const { id } = await createPix('order_chargeback', 'chargeback:1');
    await fake.approve(String(id));
    const chargeback = await fake.chargeback(String(id));
    const read = await api(`/v1/chargebacks/${chargeback.id}`);
    expect(await read.json()).toMatchObject({ id: chargeback.id, payments: [id], amount: 129.9 });
    expect(fake.payments.get(String(id))?.status).toBe('charged_back');
  });

  it('survives a notification nobody answers, and records why', async () => {
    const closedPort = await freePort();
    const answer = await api('/v1/payments', {
      method: 'POST',
      key: 'lost:1',
      body: { ...pix('order_lost'), notification_url: `http://127.0.0.1:${closedPort}/hook` },
    });
    const { id } = (await answer.json()) as { id: number };
    await fake.expire(String(id));
    expect(fake.payments.get(String(id))).toMatchObject({
      status: 'cancelled',
      status_detail: 'expired',
    });
    expect(fake.notifications.at(-1)?.error).toEqual(expect.any(String));
  });
});

describe('the fake Checkout Pro', () => {
  async function preference(body: Record<string, unknown>) {
    const answer = await api('/checkout/preferences/', {
      method: 'POST',
      body: {
        items: [{ id: 'sku-1', title: 'Camiseta Azul M', quantity: 1, unit_price: 600 }],
        external_reference: 'order_card',
        back_urls: {
          success: `${storeUrl}/payment-callback`,
          pending: `${storeUrl}/payment-callback`,
          failure: `${storeUrl}/payment-callback`,
        },
        notification_url: webhookUrl(),
        ...body,
      },
    });
    expect(answer.status).toBe(201);
    return (await answer.json()) as { id: string; init_point: string; external_reference: string };
  }

  const pay = (form: Record<string, string>) =>
    fetch(`${fake.url}/checkout/v1/pay`, {
      method: 'POST',
      body: new URLSearchParams(form),
      redirect: 'manual',
    });

  it('pays by card in instalments, returns to the store and notifies it', async () => {
    const made = await preference({
      payment_methods: {
        installments: 6,
        excluded_payment_types: [{ id: 'ticket' }, { id: 'bank_transfer' }],
      },
    });
    expect(made.id).toMatch(/^1260702847-[0-9a-f-]{36}$/);
    expect(made.init_point).toBe(`${fake.url}/checkout/v1/redirect?pref_id=${made.id}`);
    expect(made.external_reference).toBe('order_card');

    const page = await fetch(made.init_point);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain('name="viewport"');
    expect(html).toContain('<label for="installments">Parcelas</label>');
    expect(html.match(/<option value="\d+"/g)).toHaveLength(6);
    expect(html).toContain('Pagar com cartão');
    expect(html).toContain('Recusar cartão');
    expect(html).not.toContain('Gerar boleto');

    const before = received.length;
    const answer = await pay({ pref_id: made.id, installments: '6', choice: 'card' });
    expect(answer.status).toBe(302);
    const back = new URL(answer.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${storeUrl}/payment-callback`);
    const query = Object.fromEntries(back.searchParams);
    const paymentId = query.payment_id!;
    expect(query).toEqual({
      collection_id: paymentId,
      collection_status: 'approved',
      payment_id: paymentId,
      status: 'approved',
      external_reference: 'order_card',
      payment_type: 'credit_card',
      merchant_order_id: expect.stringMatching(/^\d+$/),
      preference_id: made.id,
      site_id: 'MLB',
      processing_mode: 'aggregator',
      merchant_account_id: 'null',
    });
    expect(await (await api(`/v1/payments/${paymentId}`)).json()).toMatchObject({
      status: 'approved',
      status_detail: 'accredited',
      payment_type_id: 'credit_card',
      payment_method_id: 'master',
      installments: 6,
      transaction_amount: 600,
      transaction_details: { installment_amount: 107.2, total_paid_amount: 643.2 },
      fee_details: [
        { type: 'financing_fee', amount: 43.2, fee_payer: 'payer' },
        { type: 'mercadopago_fee', fee_payer: 'collector' },
      ],
      money_release_status: 'pending',
      order: { id: query.merchant_order_id, type: 'mercadopago' },
      card: { last_four_digits: expect.stringMatching(/^\d{4}$/) },
    });

    await fake.notificationsSettled();
    expect(received.length).toBe(before + 1);
    const hook = received.at(-1)!;
    expect(hook.url).toBe(
      `/api/payments/mercadopago?source_news=webhooks&data.id=${paymentId}&type=payment`,
    );
    expect(JSON.parse(hook.body)).toMatchObject({
      action: 'payment.created',
      data: { id: paymentId },
    });
    expect(verifies(hook.url, hook.headers)).toBe(true);
  });

  it('refuses a card and sends the shopper to the failure URL', async () => {
    const made = await preference({ payment_methods: { installments: 3 } });
    const answer = await pay({ pref_id: made.id, installments: '1', choice: 'reject' });
    const back = new URL(answer.headers.get('location')!);
    expect(back.searchParams.get('status')).toBe('rejected');
    expect(fake.payments.get(back.searchParams.get('payment_id')!)).toMatchObject({
      status: 'rejected',
      status_detail: 'cc_rejected_other_reason',
    });
  });

  it('issues a boleto due on the preference’s date of expiration', async () => {
    const made = await preference({
      external_reference: 'order_boleto',
      date_of_expiration: '2026-12-02T23:59:59.000-03:00',
      payment_methods: { excluded_payment_types: [{ id: 'credit_card' }] },
    });
    const html = await (await fetch(made.init_point)).text();
    expect(html).not.toContain('Parcelas');
    expect(html).toContain('Gerar boleto');

    const answer = await pay({ pref_id: made.id, choice: 'boleto' });
    const back = new URL(answer.headers.get('location')!);
    expect(back.searchParams.get('status')).toBe('pending');
    expect(back.searchParams.get('payment_type')).toBe('ticket');
    const boleto = fake.payments.get(back.searchParams.get('payment_id')!)!;
    expect(boleto).toMatchObject({
      status: 'pending',
      status_detail: 'pending_waiting_payment',
      payment_method_id: 'bolbradesco',
      date_of_expiration: '2026-12-02T23:59:59.000-03:00',
    });
    expect(boleto.transaction_details.digitable_line).toMatch(/^\d{47}$/);
    expect(boleto.transaction_details.barcode?.content).toMatch(/^\d{44}$/);
    expect((await fetch(boleto.transaction_details.external_resource_url!)).status).toBe(200);
    await fake.notificationsSettled();
  });

  it('will not take a payment on a link past its expiration_date_to', async () => {
    const made = await preference({
      expires: true,
      expiration_date_to: '2020-01-01T00:00:00.000-03:00',
    });
    expect(await (await fetch(made.init_point)).text()).toContain('expirou');
    const charged = fake.charges('order_card');
    expect((await pay({ pref_id: made.id, installments: '1', choice: 'card' })).status).toBe(400);
    expect(fake.charges('order_card')).toBe(charged);
  });
});
