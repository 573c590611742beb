import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startFakeMercadoPago,
  type FakeMercadoPago,
} from '../../../tests/support/fake-mercadopago';

import { boletoDueDay } from './boleto.server';
import { createMercadoPagoProvider } from './mercadopago.server';
import type { PaymentMethod, PaymentRequest } from './types';

const TOKEN = 'TEST-4417-checkout-token';
const SECRET = 'whsec-checkout-5521';
const NOW = new Date('2026-11-27T15:00:00Z');

let fake: FakeMercadoPago;

beforeAll(async () => {
  fake = await startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: SECRET, now: () => NOW });
  // The store below is not listening: the tests read the fake's book, not notifications.
  fake.sendNotifications = false;
});

afterAll(async () => {
  await fake.close();
});

// The fake and the store share one fixed "now": the fake refuses a link past its expiry.
function provider(now: () => Date = () => NOW) {
  return createMercadoPagoProvider({
    apiUrl: fake.url,
    accessToken: TOKEN,
    webhookSecret: SECRET,
    publicUrl: 'https://loja.test/',
    settings: async () => ({ pix_expiration_minutes: 60, max_installments: 6, boleto_due_days: 3 }),
    now,
  });
}

function request(method: PaymentMethod, orderId: string): PaymentRequest {
  return {
    orderId,
    attempt: 'first',
    description: 'Pedido #1042',
    deadline: null,
    amountCents: 60_000,
    method,
    customer: {
      name: 'Ana Maria Souza',
      email: 'ana@example.com',
      cpf: '529.982.247-25',
      phone: '(11) 98765-4321',
    },
    items: [{ productId: null, title: 'Camiseta', unitPriceCents: 30_000, quantity: 2 }],
    utmQuery: '',
  };
}

/** Pays a preference on the fake's hosted page as a shopper's browser would post it. */
async function payOnPage(preferenceId: string, fields: Record<string, string>) {
  const answer = await fetch(`${fake.url}/checkout/v1/pay`, {
    method: 'POST',
    body: new URLSearchParams({ pref_id: preferenceId, ...fields }),
    redirect: 'manual',
  });
  return new URL(answer.headers.get('location') ?? '');
}

const uuid = (n: number) => `6f1c2d3e-4a5b-4c6d-8e7f-${String(n).padStart(12, '0')}`;

describe('Mercado Pago checkout (cards and boleto)', () => {
  it('counts a boleto due day in business days, and its clearing after', () => {
    // Friday 27 November 2026: Monday, Tuesday and Wednesday are the three business days.
    expect(boletoDueDay(NOW, 3).toISOString()).toBe('2026-12-03T02:59:59.000Z');
    // Christmas and New Year's Day are skipped.
    expect(boletoDueDay(new Date('2026-12-23T12:00:00Z'), 3).toISOString()).toBe(
      '2026-12-30T02:59:59.000Z',
    );
  });

  it('sends a card order to a preference for its whole total, in up to the store’s instalments', async () => {
    const orderId = uuid(1);
    const created = await provider().create(request('credit_card', orderId));
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const preference = [...fake.preferences.values()].find(
      (one) => one.external_reference === orderId,
    )!;
    expect(created.value).toMatchObject({
      paymentId: `checkout-${orderId}`,
      status: 'pending',
      pixCode: null,
      paymentUrl: preference.init_point,
      expiresAt: new Date(NOW.getTime() + 60 * 60_000),
    });
    expect(preference.items).toEqual([
      expect.objectContaining({ title: 'Pedido #1042', quantity: 1, unit_price: 600 }),
    ]);
    expect(preference.payer).toMatchObject({
      email: 'ana@example.com',
      name: 'Ana',
      surname: 'Maria Souza',
      identification: { type: 'CPF', number: '52998224725' },
    });
    expect(preference.back_urls.success).toBe(
      `https://loja.test/payment-callback?orderId=${orderId}`,
    );
    expect(preference.notification_url).toBe(
      'https://loja.test/api/payments/mercadopago?source_news=webhooks',
    );
    expect(preference.payment_methods.installments).toBe(6);
    expect(preference.payment_methods.excluded_payment_types.map((type) => type.id)).toContain(
      'ticket',
    );
    expect(preference.expiration_date_to).toBe('2026-11-27T13:00:00.000-03:00');
    const sent = fake.requests.find((seen) => seen.path === '/checkout/preferences');
    expect(sent?.headers['x-idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('follows the order to the payment made there: a refused card leaves it waiting', async () => {
    const orderId = uuid(2);
    const created = await provider(() => new Date()).create(request('credit_card', orderId));
    if (!created.ok) throw new Error(created.error);
    const placeholder = created.value.paymentId;
    const preferenceId = new URL(created.value.paymentUrl!).searchParams.get('pref_id')!;

    // Nothing paid yet: waiting, under the placeholder.
    await expect(provider().status(placeholder)).resolves.toEqual({
      ok: true,
      value: { status: 'pending', paymentId: placeholder, orderId, details: null },
    });

    const refused = await payOnPage(preferenceId, { choice: 'reject', installments: '1' });
    expect(refused.searchParams.get('status')).toBe('rejected');
    await expect(provider().status(placeholder)).resolves.toMatchObject({
      ok: true,
      value: { status: 'pending', paymentId: placeholder },
    });

    const paid = await payOnPage(preferenceId, { choice: 'card', installments: '6' });
    const paymentId = paid.searchParams.get('payment_id')!;
    const answer = await provider().status(placeholder);
    expect(answer).toMatchObject({
      ok: true,
      value: {
        status: 'approved',
        paymentId,
        orderId,
        details: { method: 'credit_card', brand: 'master', installments: 6 },
      },
    });
    if (!answer.ok) return;
    const details = answer.value.details!;
    // The shopper paid the interest; the store's fee is Mercado Pago's own, not the financing.
    expect(details.paidCents).toBeGreaterThan(60_000);
    const fees = fake.payments.get(paymentId)!.fee_details;
    const storeFee = fees.find((fee) => fee.fee_payer === 'collector')!;
    expect(details.feeCents).toBe(Math.round(storeFee.amount * 100));
    expect(details.releaseStatus).toBe('pending');
  });

  it('issues a boleto due in boleto_due_days and holds the order until its clearing', async () => {
    const orderId = uuid(3);
    const created = await provider().create(request('boleto', orderId));
    if (!created.ok) throw new Error(created.error);
    expect(created.value.expiresAt?.toISOString()).toBe('2026-12-05T02:59:59.000Z');
    const preference = [...fake.preferences.values()].find(
      (one) => one.external_reference === orderId,
    )!;
    expect(preference.date_of_expiration).toBe('2026-12-02T23:59:59.000-03:00');
    expect(preference.payment_methods.excluded_payment_types.map((type) => type.id)).toEqual(
      expect.arrayContaining(['credit_card', 'debit_card', 'bank_transfer']),
    );

    const issued = await payOnPage(preference.id, { choice: 'boleto' });
    const paymentId = issued.searchParams.get('payment_id')!;
    const answer = await provider().status(created.value.paymentId);
    expect(answer).toMatchObject({
      ok: true,
      value: { status: 'pending', paymentId, details: { method: 'boleto' } },
    });
    if (answer.ok) expect(answer.value.paymentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('knows no placeholder of a malformed order id', async () => {
    await expect(provider().status('checkout-nope')).resolves.toEqual({
      ok: false,
      error: 'Pagamento não encontrado',
    });
  });
});
