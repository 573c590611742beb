import { describe, expect, it } from 'vitest';

import { defaultSettings } from '~/modules/settings';

import {
  CEP_INVALID,
  CEP_UNKNOWN,
  deliveryEstimate,
  pageShippingEstimate,
} from './delivery-estimate.server';

const SETTINGS = { estimated_delivery_days: 7, timezone: 'America/Sao_Paulo' } as const;
const STORE = { ...defaultSettings(), ...SETTINGS };
// No carrier integration: nothing reaches the database.
const NO_CARRIER = { db: undefined as never, shipping: async () => null, clientIp: '203.0.113.7' };
const GOODS = { items: [{ variantId: 'v1', quantity: 1 }], subtotalCents: 5_000 };
// Tuesday 2026-11-24, 10:00 in São Paulo.
const NOW = new Date('2026-11-24T13:00:00Z');

describe('deliveryEstimate', () => {
  it('names the state and the day, counting business days', () => {
    expect(deliveryEstimate('01310-100', SETTINGS, NOW)).toEqual({
      ok: true,
      cep: '01310-100',
      state: 'SP',
      stateName: 'São Paulo',
      text: 'Entrega em até 7 dias úteis para SP: chega até quinta-feira, 3 de dezembro, se o pagamento for confirmado hoje.',
    });
  });

  it("counts the state's own holidays", () => {
    // Wednesday 2026-07-08; 9 July is São Paulo's holiday, not Rio's.
    const july = new Date('2026-07-08T15:00:00Z');
    const one = { ...SETTINGS, estimated_delivery_days: 1 };
    expect(deliveryEstimate('01310100', one, july)).toMatchObject({
      text: 'Entrega em até 1 dia útil para SP: chega até sexta-feira, 10 de julho, se o pagamento for confirmado hoje.',
    });
    expect(deliveryEstimate('20040-020', one, july)).toMatchObject({
      state: 'RJ',
      stateName: 'Rio de Janeiro',
      text: expect.stringContaining('chega até quinta-feira, 9 de julho'),
    });
  });

  it.each(['0131010', '01310-1000', 'abc', '', ' ', '01310 100', '0'.repeat(200)])(
    'refuses %j with a message',
    (typed) => {
      const estimate = deliveryEstimate(typed, SETTINGS, NOW);
      expect(estimate).toMatchObject({ ok: false, error: CEP_INVALID });
      expect(estimate.cep.length).toBeLessThanOrEqual(9);
    },
  );

  it('refuses a CEP of no state', () => {
    expect(deliveryEstimate('00500-000', SETTINGS, NOW)).toEqual({
      ok: false,
      cep: '00500-000',
      error: CEP_UNKNOWN,
    });
  });
});

describe('pageShippingEstimate', () => {
  const request = (query: string, cookie?: string) =>
    new Request(`http://loja.test/product/fone${query}`, {
      headers: cookie ? { Cookie: cookie } : {},
    });

  it('estimates the CEP asked for and remembers it', async () => {
    const { estimate, headers } = await pageShippingEstimate(
      NO_CARRIER,
      request('?cep=30130-010'),
      GOODS,
      STORE,
    );
    // Without a carrier, the store's own rule prices shipping, and it is not approximate.
    expect(estimate).toMatchObject({
      ok: true,
      cep: '30130-010',
      state: 'MG',
      shipping: { kind: 'rule', approximate: false },
    });
    expect(headers['Set-Cookie']).toBe(
      'vitrine_cep=30130010; Path=/; Max-Age=7776000; SameSite=Lax',
    );
  });

  it('remembers nothing for an invalid CEP', async () => {
    const { estimate, headers } = await pageShippingEstimate(
      NO_CARRIER,
      request('?cep=123'),
      GOODS,
      STORE,
    );
    expect(estimate).toMatchObject({ ok: false, error: CEP_INVALID, cep: '123' });
    expect(headers).toEqual({});
  });

  it('estimates the remembered CEP when none is asked for', async () => {
    const { estimate, headers } = await pageShippingEstimate(
      NO_CARRIER,
      request('', 'vitrine_cart=x; vitrine_cep=90010150'),
      GOODS,
      STORE,
    );
    expect(estimate).toMatchObject({ ok: true, cep: '90010-150', state: 'RS' });
    expect(headers).toEqual({});
  });

  it.each([
    'abc',
    '9001015',
    '00500000',
    '"90010150"',
    '90010150=x',
    '90010150x',
    '%2090010150',
    '',
  ])('ignores the remembered value %j', async (value) => {
    const page = await pageShippingEstimate(
      NO_CARRIER,
      request('', `vitrine_cep=${value}`),
      GOODS,
      STORE,
    );
    expect(page.estimate).toBe(null);
  });

  it('has nothing without a CEP', async () => {
    expect(await pageShippingEstimate(NO_CARRIER, request(''), GOODS, STORE)).toEqual({
      estimate: null,
      headers: {},
    });
  });
});
