import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  fakeDeliveryDays,
  fakePriceCents,
  NO_ROUTE_ERROR,
  OVERWEIGHT_ERROR,
  startFakeMelhorEnvio,
  type FakeMelhorEnvio,
  type FakeOrder,
  type FakeQuote,
  type FakeQuoteOffer,
} from './fake-melhorenvio';

// The fake stands for Melhor Envio in our shipping tests, so what it promises (ME's shapes, the
// switches, the webhook signature) is proven here over real HTTP.
const TOKEN = 'me-test-token-7412369852';
const SECRET = 'me-app-client-secret';
const USER_AGENT = 'Vitrine (dev@vitrine.com.br)';
const FROM = '01310100'; // São Paulo: region 0
const TO = '80010000'; // Curitiba: region 8

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let fake: FakeMelhorEnvio;
let store: Server;
let storeUrl = '';
const received: Received[] = [];

beforeAll(async () => {
  fake = await startFakeMelhorEnvio({ token: TOKEN, webhookSecret: SECRET });
  // Our app's webhook route, reduced to what the fake needs: it verifies as ME documents (§7).
  store = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body });
      const expected = Buffer.from(createHmac('sha256', SECRET).update(body).digest('base64'));
      const given = Buffer.from(String(request.headers['x-me-signature'] ?? ''));
      const valid = given.length === expected.length && timingSafeEqual(given, expected);
      response.writeHead(valid ? 200 : 401).end(valid ? 'ok' : 'bad signature');
    });
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}/api/shipping/melhorenvio`;
});

afterAll(async () => {
  await fake.close();
  await new Promise<void>((resolve) => store.close(() => resolve()));
});

afterEach(() => {
  fake.setDelay(0);
  fake.setFailure(null);
  fake.setServices(null);
});

function api(path: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(`${fake.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${TOKEN}`,
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const calculation = (extra: Record<string, unknown> = {}) => ({
  from: { postal_code: FROM },
  to: { postal_code: TO },
  package: { height: 4, width: 12, length: 17, weight: 1.3 },
  options: { insurance_value: 50, receipt: false, own_hand: false },
  ...extra,
});

const party = (postalCode: string, document: string) => ({
  name: 'Maria Souza',
  phone: '11987654321',
  email: 'maria@example.com',
  document,
  address: 'Avenida Paulista',
  number: '1000',
  complement: 'ap 12',
  district: 'Bela Vista',
  city: 'São Paulo',
  state_abbr: 'SP',
  country_id: 'BR',
  postal_code: postalCode,
});

const cartItem = (extra: Record<string, unknown> = {}) => ({
  service: 1,
  from: party(FROM, '11144477735'),
  to: { ...party(TO, '52998224725'), city: 'Curitiba', state_abbr: 'PR' },
  products: [{ name: 'Caneca', quantity: 1, unitary_value: 50 }],
  volumes: [{ height: 4, width: 12, length: 17, weight: 1.3 }],
  options: { insurance_value: 50, receipt: false, own_hand: false, non_commercial: true },
  ...extra,
});

async function newOrder(): Promise<FakeOrder> {
  const answer = await api('/me/cart', cartItem());
  expect(answer.status).toBe(201);
  return (await answer.json()) as FakeOrder;
}

describe('authentication', () => {
  it('refuses a wrong token as ME does', async () => {
    const answer = await api('/me/shipment/calculate', calculation(), {
      Authorization: 'Bearer nope',
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('refuses a User-Agent without the application contact e-mail', async () => {
    const answer = await api('/me/shipment/calculate', calculation(), { 'User-Agent': 'node' });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toMatch(/User-Agent/);
  });

  it('records every request, refused ones included', async () => {
    const before = fake.requests.length;
    await api('/me/shipment/calculate', calculation(), { Authorization: 'Bearer nope' });
    const last = fake.requests.at(-1)!;
    expect(fake.requests.length).toBe(before + 1);
    expect(last.path).toBe('/api/v2/me/shipment/calculate');
    expect(last.headers.authorization).toBe('Bearer nope');
    expect(last.body).toMatchObject({ to: { postal_code: TO } });
  });
});

describe('POST /me/shipment/calculate', () => {
  it('answers several services in ME shape, one of them with an error', async () => {
    const before = fake.calculateCalls();
    const answer = await api('/me/shipment/calculate', calculation());
    expect(answer.status).toBe(200);
    const quotes = (await answer.json()) as FakeQuote[];
    expect(fake.calculateCalls()).toBe(before + 1);
    expect(quotes.map((each) => each.id)).toEqual([1, 2, 3, 4]);

    const pac = quotes[0] as FakeQuoteOffer;
    // 1.3 kg: one started kilogram beyond the first; 8 regions from SP to PR.
    const cents = fakePriceCents(1, 1.3, FROM, TO)!;
    expect(cents).toBe(1690 + 420 + 8 * 180);
    const days = fakeDeliveryDays(1, FROM, TO)!;
    expect(pac).toMatchObject({
      name: 'PAC',
      price: (cents / 100).toFixed(2),
      custom_price: (cents / 100).toFixed(2),
      discount: '0.00',
      currency: 'R$',
      delivery_time: days,
      delivery_range: { min: days - 1, max: days },
      custom_delivery_time: days,
      custom_delivery_range: { min: days - 1, max: days },
      additional_services: { receipt: false, own_hand: false, collect: false },
      company: { id: 1, name: 'Correios' },
    });
    expect(typeof pac.price).toBe('string');
    expect(pac.packages[0]).toMatchObject({
      weight: '1.30',
      dimensions: { height: 4, width: 12, length: 17 },
    });
    expect(quotes[1]).toMatchObject({ name: 'SEDEX', company: { name: 'Correios' } });
    expect(quotes[2]).toMatchObject({ name: '.Package', company: { name: 'Jadlog' } });
    expect(quotes[3]).toEqual({
      id: 4,
      name: '.Com',
      error: NO_ROUTE_ERROR,
      company: expect.objectContaining({ name: 'Jadlog' }) as unknown,
    });
    expect(quotes[3]).not.toHaveProperty('price');
  });

  it('prices by weight and destination', async () => {
    const prices = async (weight: number, to: string) => {
      const answer = await api(
        '/me/shipment/calculate',
        calculation({
          to: { postal_code: to },
          package: { height: 4, width: 12, length: 17, weight },
        }),
      );
      return ((await answer.json()) as FakeQuoteOffer[]).slice(0, 3).map((each) => each.price);
    };
    const near = await prices(0.5, '04000000');
    expect(near).toEqual(
      [1, 2, 3].map((id) => (fakePriceCents(id, 0.5, FROM, '04000000')! / 100).toFixed(2)),
    );
    expect(await prices(5, '04000000')).not.toEqual(near);
    expect(await prices(0.5, '69000000')).not.toEqual(near);
  });

  it('sums products by quantity and refuses weights beyond the carrier limit', async () => {
    const answer = await api(
      '/me/shipment/calculate',
      calculation({
        package: undefined,
        products: [
          {
            id: 'a',
            width: 11,
            height: 2,
            length: 16,
            weight: 0.4,
            insurance_value: 30,
            quantity: 2,
          },
        ],
      }),
    );
    const quotes = (await answer.json()) as FakeQuoteOffer[];
    expect(quotes[0]!.packages[0]).toMatchObject({ weight: '0.80', insurance_value: '60.00' });
    // A weight sent in grams instead of kilograms is far beyond Correios' 30 kg.
    const grams = await api(
      '/me/shipment/calculate',
      calculation({ package: { height: 4, width: 12, length: 17, weight: 1300 } }),
    );
    const refused = (await grams.json()) as FakeQuote[];
    expect(refused[0]).toMatchObject({ id: 1, error: OVERWEIGHT_ERROR });
    expect(refused[2]).toMatchObject({ id: 3, error: OVERWEIGHT_ERROR });
  });

  it('honours the services filter', async () => {
    const answer = await api('/me/shipment/calculate', calculation({ services: '1,2' }));
    const quotes = (await answer.json()) as FakeQuote[];
    expect(quotes.map((each) => each.id)).toEqual([1, 2]);
  });

  it('refuses bad postal codes and a missing package with a 422', async () => {
    const answer = await api('/me/shipment/calculate', {
      from: { postal_code: '01310-100' },
      to: {},
    });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe('The given data was invalid.');
    expect(Object.keys(body.errors).sort()).toEqual([
      'from.postal_code',
      'products',
      'to.postal_code',
    ]);
    expect(body.errors['to.postal_code']).toEqual(['O campo to.postal code é obrigatório.']);
  });

  it('can answer another set of services', async () => {
    const only: FakeQuote[] = [
      {
        id: 17,
        name: 'Mini Envios',
        error: 'Serviço indisponível.',
        company: { id: 1, name: 'Correios', picture: '' },
      },
    ];
    fake.setServices(only);
    const answer = await api('/me/shipment/calculate', calculation());
    expect(await answer.json()).toEqual(only);
  });

  it('holds the answer while a delay is set', async () => {
    // A delay far above what a loopback answer takes on a loaded machine, so the second half
    // tells "no delay" from "the delay still set" without a tight timing.
    fake.setDelay(1_500);
    const started = Date.now();
    const answer = await api('/me/shipment/calculate', calculation());
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_450);
    fake.setDelay(0);
    const quick = Date.now();
    await api('/me/shipment/calculate', calculation());
    expect(Date.now() - quick).toBeLessThan(1_450);
  });

  it('fails with the status set, counting the call, until healed', async () => {
    fake.setFailure(500);
    const before = fake.calculateCalls();
    const failed = await api('/me/shipment/calculate', calculation());
    expect(failed.status).toBe(500);
    expect(fake.calculateCalls()).toBe(before + 1);
    fake.setFailure(429);
    const limited = await api('/me/shipment/calculate', calculation());
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: 'Too Many Attempts.' });
    fake.setFailure(null);
    expect((await api('/me/shipment/calculate', calculation())).status).toBe(200);
  });
});

describe('label purchase', () => {
  it('lists services', async () => {
    const answer = await api('/me/shipment/services');
    const services = (await answer.json()) as { id: number; company: { name: string } }[];
    expect(services.map((each) => each.id)).toEqual([1, 2, 3, 4]);
  });

  it('refuses a cart item with a bad address or dimensions', async () => {
    const answer = await api(
      '/me/cart',
      cartItem({
        to: { ...party('8001000', '123'), city: '' },
        volumes: [{ height: 0, width: 12, length: 17, weight: 1.3 }],
      }),
    );
    expect(answer.status).toBe(422);
    const { errors } = (await answer.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(errors).sort()).toEqual([
      'to.city',
      'to.document',
      'to.postal_code',
      'volumes.0.height',
    ]);
    expect(fake.orders.size).toBe(0);
  });

  it('goes from cart to checkout, label, PDF and tracking', async () => {
    fake.setBalance(100);
    const purchasesBefore = fake.purchaseCalls();
    const item = await newOrder();
    expect(item).toMatchObject({
      status: 'pending',
      service_id: 1,
      price: fakePriceCents(1, 1.3, FROM, TO)! / 100,
      tracking: null,
    });
    expect(item.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(item.protocol).toMatch(/^ORD-\d+$/);

    const paid = await api('/me/shipment/checkout', { orders: [item.id] });
    expect(paid.status).toBe(200);
    const { purchase } = (await paid.json()) as {
      purchase: { status: string; total: number; orders: FakeOrder[] };
    };
    expect(purchase).toMatchObject({ status: 'paid', total: item.price });
    expect(purchase.orders[0]).toMatchObject({ id: item.id, status: 'released' });
    expect(fake.purchaseCalls()).toBe(purchasesBefore + 1);
    expect(fake.balance()).toBe(Math.round((100 - item.price) * 100) / 100);
    const balance = await (await api('/me/balance')).json();
    expect(balance).toEqual({ balance: fake.balance(), reserved: 0, debts: 0 });

    const early = await api('/me/shipment/print', { mode: 'public', orders: [item.id] });
    expect(early.status).toBe(422);

    const generated = await (await api('/me/shipment/generate', { orders: [item.id] })).json();
    expect(generated).toEqual({ [item.id]: { status: true, message: 'Envio gerado com sucesso' } });
    const again = await (await api('/me/shipment/generate', { orders: [item.id] })).json();
    expect(again).toEqual({ [item.id]: { status: false, message: 'O envio já está gerado' } });

    const printed = await api('/me/shipment/print', { mode: 'public', orders: [item.id] });
    const { url } = (await printed.json()) as { url: string };
    const pdf = await fetch(url);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 8)
        .toString('latin1'),
    ).toBe('%PDF-1.4');
    const privately = await api('/me/shipment/print', { mode: 'private', orders: [item.id] });
    const privateUrl = ((await privately.json()) as { url: string }).url;
    expect((await fetch(privateUrl)).status).toBe(404);

    const track = async () =>
      (
        (await (await api('/me/shipment/tracking', { orders: [item.id] })).json()) as Record<
          string,
          Record<string, unknown>
        >
      )[item.id]!;
    const label = await track();
    expect(label).toMatchObject({ id: item.id, protocol: item.protocol, status: 'generated' });
    expect(label.tracking).toMatch(/^AA\d{9}BR$/);
    expect(label.melhorenvio_tracking).toMatch(/^ME\d{8}BR$/);
    expect(label.posted_at).toBeNull();

    fake.markPosted(item.id);
    expect(await track()).toMatchObject({
      status: 'posted',
      posted_at: expect.any(String) as unknown,
    });
    fake.markDelivered(item.id);
    expect(await track()).toMatchObject({
      status: 'delivered',
      delivered_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) as unknown,
    });
    const stored = await (await api(`/me/orders/${item.id}`)).json();
    expect(stored).toMatchObject({ id: item.id, status: 'delivered' });
  });

  it('refuses a checkout the balance cannot pay, taking nothing', async () => {
    fake.setBalance(5);
    const purchasesBefore = fake.purchaseCalls();
    const item = await newOrder();
    const answer = await api('/me/shipment/checkout', { orders: [item.id] });
    expect(answer.status).toBe(422);
    const { error } = (await answer.json()) as { error: string };
    expect(error).toBe(
      `Seu saldo de R$ 5.00 é insuficiente para o pagamento com a carteira no valor de R$ ${item.price.toFixed(2)}`,
    );
    expect(fake.balance()).toBe(5);
    expect(fake.purchaseCalls()).toBe(purchasesBefore);
    expect(fake.orders.get(item.id)!.status).toBe('pending');
  });
});

describe('webhooks', () => {
  let order: FakeOrder;

  beforeAll(async () => {
    fake.setBalance(100);
    order = await newOrder();
    await api('/me/shipment/checkout', { orders: [order.id] });
    await api('/me/shipment/generate', { orders: [order.id] });
    fake.markPosted(order.id);
  });

  it('signs the raw body with the app secret as ME documents', async () => {
    const answer = await fake.notify(storeUrl, 'order.posted', order.id);
    expect(answer).toEqual({ status: 200, body: 'ok' });
    const last = received.at(-1)!;
    expect(last.headers['x-me-signature']).toBe(
      createHmac('sha256', SECRET).update(last.body).digest('base64'),
    );
    expect(JSON.parse(last.body)).toMatchObject({
      event: 'order.posted',
      data: {
        id: order.id,
        protocol: order.protocol,
        status: 'posted',
        tracking: expect.stringMatching(/^AA\d{9}BR$/) as unknown,
        posted_at: expect.any(String) as unknown,
      },
    });
    expect(fake.webhooks.at(-1)).toMatchObject({ status: 200, url: storeUrl });
  });

  it('sends forged and unsigned webhooks that do not verify', async () => {
    const forged = await fake.notifyForged(storeUrl, 'order.delivered', order.id);
    expect(forged.status).toBe(401);
    const header = received.at(-1)!.headers['x-me-signature'];
    expect(header).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(header).not.toBe(
      createHmac('sha256', SECRET).update(received.at(-1)!.body).digest('base64'),
    );
    const unsigned = await fake.notify(storeUrl, 'order.delivered', order.id, { signature: null });
    expect(unsigned.status).toBe(401);
    expect(received.at(-1)!.headers).not.toHaveProperty('x-me-signature');
  });

  it('builds a webhook without sending it', () => {
    const sentBefore = fake.webhooks.length;
    const built = fake.webhook(storeUrl, 'order.generated', order.id);
    expect(fake.webhooks.length).toBe(sentBefore);
    expect(built.headers['x-me-signature']).toBe(
      createHmac('sha256', SECRET).update(built.body).digest('base64'),
    );
  });
});
