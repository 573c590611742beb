import { describe, expect, it } from 'vitest';

import { paymentRequestError } from './request';
import type { PaymentRequest } from './types';

const request = (
  overrides: Partial<PaymentRequest> = {},
  customer: Partial<PaymentRequest['customer']> = {},
): PaymentRequest => ({
  orderId: '3f2a9c1e-7b4d-4e8a-9f10-5c6d7e8f9a0b',
  attempt: 'first',
  description: 'Pedido #1042',
  deadline: null,
  amountCents: 501,
  method: 'pix',
  customer: {
    name: 'Maria Silva',
    email: 'maria@example.com',
    cpf: '52998224725',
    phone: '11987654321',
    ...customer,
  },
  items: [],
  utmQuery: '',
  ...overrides,
});

describe('paymentRequestError', () => {
  it('lets a valid request through, masked or not', () => {
    expect(paymentRequestError(request())).toBeNull();
    expect(
      paymentRequestError(request({}, { cpf: '529.982.247-25', phone: '(11) 3456-7890' })),
    ).toBeNull();
  });

  it('refuses less than R$ 5,01, or an amount that is not whole cents', () => {
    for (const amountCents of [500, 0, -1, 501.5, Number.NaN]) {
      expect(paymentRequestError(request({ amountCents }))).toBe(
        'Valor mínimo para pagamento é R$ 5,01',
      );
    }
  });

  it('refuses a CPF without 11 digits', () => {
    expect(paymentRequestError(request({}, { cpf: '5299822472' }))).toBe('CPF deve ter 11 dígitos');
    expect(paymentRequestError(request({}, { cpf: '' }))).toBe('CPF deve ter 11 dígitos');
  });

  it('refuses a phone without 10 or 11 digits', () => {
    for (const phone of ['119876543', '119876543210', '']) {
      expect(paymentRequestError(request({}, { phone }))).toBe(
        'Telefone deve ter 10 ou 11 dígitos',
      );
    }
  });
});
