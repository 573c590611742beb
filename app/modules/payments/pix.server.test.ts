import { hasError, parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';

import { createPixProvider, isPixConfigured, type PixSettings } from './pix.server';
import type { PaymentRequest } from './types';

const ORDER_ID = '3f2a9c1e-7b4d-4e8a-9f10-5c6d7e8f9a0b';
const NOW = new Date('2025-03-10T12:00:00Z');
const NOT_CONFIGURED = 'Sistema de pagamento não configurado. Entre em contato com o suporte.';

const configured: PixSettings = {
  pix_key: 'loja@example.com',
  pix_merchant_name: 'Loja Vitrine',
  pix_merchant_city: 'Florianópolis',
  pix_expiration_minutes: 60,
};

const request = (overrides: Partial<PaymentRequest> = {}): PaymentRequest => ({
  orderId: ORDER_ID,
  attempt: 'first',
  description: 'Pedido #1042',
  deadline: null,
  amountCents: 15990,
  method: 'pix',
  customer: {
    name: 'Maria Silva',
    email: 'maria@example.com',
    cpf: '52998224725',
    phone: '11987654321',
  },
  items: [{ productId: null, title: 'Fone', unitPriceCents: 15990, quantity: 1 }],
  utmQuery: '',
  ...overrides,
});

function provider(settings: Partial<PixSettings> = {}) {
  return createPixProvider({
    settings: async () => ({ ...configured, ...settings }),
    now: () => NOW,
  });
}

describe('PIX with the store key', () => {
  it('is the live "pix" provider', () => {
    expect(provider()).toMatchObject({ name: 'pix', testMode: false });
  });

  it("creates a pending payment with a BR Code for the order's amount and reference", async () => {
    const outcome = await provider().create(request());
    expect(outcome).toEqual({
      ok: true,
      value: {
        paymentId: `pix-${ORDER_ID}`,
        status: 'pending',
        pixCode: expect.any(String),
        pixQrCode: null,
        billetUrl: null,
        billetCode: null,
        paymentUrl: null,
        expiresAt: new Date('2025-03-10T13:00:00Z'),
      },
    });
    const parsed = parsePix(outcome.ok ? outcome.value.pixCode! : '');
    expect(hasError(parsed)).toBe(false);
    expect(parsed).toMatchObject({
      pixKey: 'loja@example.com',
      transactionAmount: 159.9,
      merchantName: 'Loja Vitrine',
      merchantCity: 'Florianopolis',
      txid: '3f2a9c1e7b4d4e8a9f105c6d7',
    });
  });

  it('reads the settings on every payment', async () => {
    let minutes = 60;
    const pix = createPixProvider({
      settings: async () => ({ ...configured, pix_expiration_minutes: minutes }),
      now: () => NOW,
    });
    await pix.create(request());
    minutes = 15;
    const outcome = await pix.create(request());
    expect(outcome.ok && outcome.value.expiresAt).toEqual(new Date('2025-03-10T12:15:00Z'));
  });

  it('says payments are not configured without a key, a name or a city', async () => {
    for (const missing of [
      { pix_key: '' },
      { pix_merchant_name: '' },
      { pix_merchant_city: '' },
      { pix_merchant_name: '★★★' },
    ]) {
      await expect(provider(missing).create(request())).resolves.toEqual({
        ok: false,
        error: NOT_CONFIGURED,
      });
    }
  });

  it('checks the request first', async () => {
    await expect(provider().create(request({ amountCents: 500 }))).resolves.toEqual({
      ok: false,
      error: 'Valor mínimo para pagamento é R$ 5,01',
    });
    await expect(provider().create(request({ orderId: 'nope' }))).resolves.toEqual({
      ok: false,
      error: 'Erro ao processar pagamento',
    });
  });

  it('always reports its own payments pending: staff confirm them', async () => {
    await expect(provider().status(`pix-${ORDER_ID}`)).resolves.toMatchObject({
      ok: true,
      value: { status: 'pending', paymentId: `pix-${ORDER_ID}` },
    });
  });

  it('does not know ids it never gave', async () => {
    for (const id of ['', ORDER_ID, 'pix-', 'pix-nope', `sandbox-${ORDER_ID}`]) {
      await expect(provider().status(id)).resolves.toEqual({
        ok: false,
        error: 'Pagamento não encontrado',
      });
    }
  });
});

describe('isPixConfigured', () => {
  it('needs a valid key and a name and city that survive folding', () => {
    expect(isPixConfigured(configured)).toBe(true);
    expect(isPixConfigured({ ...configured, pix_key: '' })).toBe(false);
    expect(isPixConfigured({ ...configured, pix_key: 'not a key' })).toBe(false);
    expect(isPixConfigured({ ...configured, pix_merchant_name: '' })).toBe(false);
    expect(isPixConfigured({ ...configured, pix_merchant_city: ' ' })).toBe(false);
    expect(isPixConfigured({ ...configured, pix_merchant_city: '東京' })).toBe(false);
  });
});
