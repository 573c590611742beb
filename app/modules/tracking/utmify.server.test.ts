import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { PAYMENT_STATUSES } from '~/modules/payments/types';

import {
  paymentStatusToUtmify,
  sendUtmifyOrder,
  utmifyOrderBody,
  type UtmifyOrderInput,
} from './utmify.server';

const TOKEN = 'tok_9f8e7d6c5b4a';

const order = (patch: Partial<UtmifyOrderInput> = {}): UtmifyOrderInput => ({
  orderId: '6f1c2a9e-0000-4000-8000-00000000abcd',
  paymentMethod: 'PIX',
  status: 'waiting_payment',
  createdAt: new Date('2025-03-10T14:05:09.123Z'),
  approvedAt: null,
  customer: {
    name: 'Maria da Silva',
    email: 'maria@example.com',
    phone: '11987654321',
    document: '12345678909',
  },
  products: [
    { id: 'p1', name: 'Fone de Ouvido Bluetooth Pro', quantity: 2, priceInCents: 29990 },
    { id: 'p2', name: 'Cabo USB-C', quantity: 1, priceInCents: 3990 },
  ],
  trackingParameters: { utm_source: 'instagram', utm_campaign: 'verao', src: 'bio' },
  totalCents: 63970,
  ...patch,
});

describe('utmifyOrderBody', () => {
  it('builds the body UTMify takes', () => {
    expect(utmifyOrderBody(order())).toEqual({
      orderId: '6f1c2a9e-0000-4000-8000-00000000abcd',
      platform: 'Vitrine',
      paymentMethod: 'pix',
      status: 'waiting_payment',
      createdAt: '2025-03-10 14:05:09',
      approvedDate: null,
      refundedAt: null,
      customer: {
        name: 'Maria da Silva',
        email: 'maria@example.com',
        phone: '11987654321',
        document: '12345678909',
      },
      products: [
        {
          id: 'p1',
          name: 'Fone de Ouvido Bluetooth Pro',
          planId: null,
          planName: null,
          quantity: 2,
          priceInCents: 29990,
        },
        {
          id: 'p2',
          name: 'Cabo USB-C',
          planId: null,
          planName: null,
          quantity: 1,
          priceInCents: 3990,
        },
      ],
      trackingParameters: {
        src: 'bio',
        sck: null,
        utm_source: 'instagram',
        utm_campaign: 'verao',
        utm_medium: null,
        utm_content: null,
        utm_term: null,
      },
      commission: {
        totalPriceInCents: 63970,
        gatewayFeeInCents: 0,
        userCommissionInCents: 63970,
      },
      isTest: false,
    });
  });

  it('reports the total paid, after the PIX discount, not the sum of the list prices', () => {
    // R$ 639,70 of products, 10% off by PIX: the shopper paid R$ 575,73.
    const body = utmifyOrderBody(order({ totalCents: 57573 }));
    expect(body.commission).toEqual({
      totalPriceInCents: 57573,
      gatewayFeeInCents: 0,
      userCommissionInCents: 57573,
    });
    expect(body.products.map((product) => product.priceInCents)).toEqual([29990, 3990]);
  });

  it('keeps createdAt from one report of an order to the next, adding approvedDate once paid', () => {
    const waiting = utmifyOrderBody(order());
    const paid = utmifyOrderBody(
      order({ status: 'paid', approvedAt: new Date('2025-03-10T14:09:00Z') }),
    );
    expect(paid.createdAt).toBe(waiting.createdAt);
    expect(waiting.approvedDate).toBeNull();
    expect(paid.approvedDate).toBe('2025-03-10 14:09:00');
  });

  it('writes dates in UTC: 23:30 in São Paulo is the next day', () => {
    const late = new Date('2025-03-10T23:30:00-03:00');
    const body = utmifyOrderBody(order({ createdAt: late, status: 'paid', approvedAt: late }));
    expect(body.createdAt).toBe('2025-03-11 02:30:00');
    expect(body.approvedDate).toBe('2025-03-11 02:30:00');
  });

  it('gives approvedDate only to paid orders, refundedAt only to refunded ones', () => {
    const approvedAt = new Date('2025-03-10T14:09:00Z');
    const refundedAt = new Date('2025-03-12T10:00:00Z');
    expect(utmifyOrderBody(order({ status: 'refused', approvedAt }))).toMatchObject({
      approvedDate: null,
      refundedAt: null,
    });
    expect(utmifyOrderBody(order({ status: 'paid', approvedAt, refundedAt }))).toMatchObject({
      approvedDate: '2025-03-10 14:09:00',
      refundedAt: null,
    });
    for (const status of ['refunded', 'chargedback'] as const) {
      expect(utmifyOrderBody(order({ status, approvedAt, refundedAt })).refundedAt).toBe(
        '2025-03-12 10:00:00',
      );
    }
    expect(utmifyOrderBody(order({ status: 'refunded' })).refundedAt).toBeNull();
  });

  it('sends every tracking parameter as null when they are unknown or empty', () => {
    const nothing = {
      src: null,
      sck: null,
      utm_source: null,
      utm_campaign: null,
      utm_medium: null,
      utm_content: null,
      utm_term: null,
    };
    expect(utmifyOrderBody(order({ trackingParameters: null })).trackingParameters).toEqual(
      nothing,
    );
    expect(
      utmifyOrderBody(order({ trackingParameters: { utm_source: '' } })).trackingParameters,
    ).toEqual(nothing);
  });

  it('lowercases the payment method, PIX when none, and marks tests', () => {
    expect(utmifyOrderBody(order({ paymentMethod: 'Credit_Card' })).paymentMethod).toBe(
      'credit_card',
    );
    expect(utmifyOrderBody(order({ paymentMethod: '' })).paymentMethod).toBe('pix');
    expect(utmifyOrderBody(order({ isTest: true })).isTest).toBe(true);
  });
});

describe('paymentStatusToUtmify', () => {
  it('maps every payment status', () => {
    expect(Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, paymentStatusToUtmify(s)]))).toEqual({
      pending: 'waiting_payment',
      approved: 'paid',
      rejected: 'refused',
      expired: 'refused',
      refunded: 'refunded',
      chargeback: 'chargedback',
    });
  });
});

describe('sendUtmifyOrder', () => {
  interface Received {
    method?: string;
    url?: string;
    headers: IncomingHttpHeaders;
    body: string;
  }
  let server: Server | undefined;

  /** A fake UTMify on 127.0.0.1 answering every request with `status` and `answer`. */
  async function fakeUtmify(status: number, answer = '{"OK":true}') {
    const received: Received[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/api-credentials/orders`, received };
  }

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  it('posts the body as JSON with the token header', async () => {
    const { url, received } = await fakeUtmify(200);
    const body = utmifyOrderBody(order());
    await sendUtmifyOrder({ url, token: TOKEN, body });

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', url: '/api-credentials/orders' });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-api-token']).toBe(TOKEN);
    expect(JSON.parse(request!.body)).toEqual(body);
  });

  it('throws on a refusal with the status, never the token, even when the answer echoes it', async () => {
    const { url } = await fakeUtmify(401, `{"message":"invalid token ${TOKEN}"}`);
    const error = await sendUtmifyOrder({ url, token: TOKEN, body: utmifyOrderBody(order()) })
      .then(() => undefined)
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/^UTMify answered 401/);
    expect(error!.message).not.toContain(TOKEN);
  });

  it('throws on a server error', async () => {
    const { url } = await fakeUtmify(503, '');
    await expect(
      sendUtmifyOrder({ url, token: TOKEN, body: utmifyOrderBody(order()) }),
    ).rejects.toThrow(/^UTMify answered 503$/);
  });

  it('reads at most 64 KB of an answer: a taken order stays taken, a refusal says only its status', async () => {
    const huge = `"${'x'.repeat(100 * 1024)}"`;
    const taken = await fakeUtmify(200, huge);
    await expect(
      sendUtmifyOrder({ url: taken.url, token: TOKEN, body: utmifyOrderBody(order()) }),
    ).resolves.toBeUndefined();
    server?.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));

    const refused = await fakeUtmify(500, huge);
    await expect(
      sendUtmifyOrder({ url: refused.url, token: TOKEN, body: utmifyOrderBody(order()) }),
    ).rejects.toThrow(/^UTMify answered 500$/);
  });

  it('throws when no answer comes in time', async () => {
    server = createServer(() => {});
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await expect(
      sendUtmifyOrder({
        url: `http://127.0.0.1:${port}/orders`,
        token: TOKEN,
        body: utmifyOrderBody(order()),
        timeoutMs: 100,
      }),
    ).rejects.toThrow('UTMify did not answer within 100 ms');
  });

  it('throws when the service cannot be reached, without the token', async () => {
    const { url } = await fakeUtmify(200);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const error = await sendUtmifyOrder({ url, token: TOKEN, body: utmifyOrderBody(order()) })
      .then(() => undefined)
      .catch((e: unknown) => e as Error);
    expect(error?.message).toMatch(/^UTMify request failed: .*ECONNREFUSED/);
    expect(error?.message).not.toContain(TOKEN);
  });
});
