import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { installmentOffer } from '~/modules/pricing';
import { defaultSettings } from '~/modules/settings';

import { narrowPaymentSwitches } from './offered';
import { offeredMethods } from './types';
import { createPaymentProvider } from './provider.server';

const everything = { ...defaultSettings(), max_installments: 12, enable_paypal: true };

describe('narrowPaymentSwitches', () => {
  it('turns off the switches of methods the provider does not take', () => {
    const narrowed = narrowPaymentSwitches(everything, ['pix']);
    expect(narrowed).toMatchObject({
      enable_pix: true,
      enable_credit_card: false,
      enable_debit_card: false,
      enable_boleto: false,
      enable_paypal: false,
    });
    // The other settings are the same, and the original is left alone.
    expect(narrowed.store_name).toBe(everything.store_name);
    expect(everything.enable_credit_card).toBe(true);
  });

  it("shows 'ou 12x… sem juros' only when the provider takes cards and the switch is on", () => {
    const price = 120_000;
    expect(installmentOffer(price, narrowPaymentSwitches(everything, ['pix']))).toBeNull();
    expect(
      installmentOffer(price, narrowPaymentSwitches(everything, ['pix', 'credit_card'])),
    ).toEqual({ count: 12, amountCents: 10_000 });
    expect(
      installmentOffer(
        price,
        narrowPaymentSwitches({ ...everything, enable_credit_card: false }, ['credit_card']),
      ),
    ).toBeNull();
  });

  it('every provider takes PIX; Mercado Pago also cards and boleto, and so the sandbox', () => {
    const db = {} as Db;
    const settings = async () => defaultSettings();
    const expected = {
      sandbox: ['pix', 'credit_card', 'boleto'],
      pix: ['pix'],
      gateway: ['pix'],
      mercadopago: ['pix', 'credit_card', 'boleto'],
    };
    for (const PAYMENT_PROVIDER of ['sandbox', 'pix', 'gateway', 'mercadopago'] as const) {
      const provider = createPaymentProvider({
        env: {
          NODE_ENV: 'development',
          MERCADOPAGO_API_URL: 'https://api.mercadopago.test',
          MERCADOPAGO_ACCESS_TOKEN: 'TEST-token',
          MERCADOPAGO_WEBHOOK_SECRET: 'whsec',
          PAYMENT_PROVIDER,
          PAYMENT_GATEWAY_URL: 'https://gateway.test',
          PAYMENT_GATEWAY_SECRET_KEY: 'sk_test',
          PUBLIC_URL: 'https://loja.test',
        },
        db,
        settings,
        mode: 'live',
      });
      expect(provider?.accepts, PAYMENT_PROVIDER).toEqual(expected[PAYMENT_PROVIDER]);
    }
  });
});

describe('offeredMethods', () => {
  const all = ['pix', 'credit_card', 'boleto'] as const;
  const on = { enable_pix: true, enable_credit_card: true, enable_boleto: true };

  it('offers what the provider takes and the switches leave on, PIX first', () => {
    expect(offeredMethods(all, on)).toEqual(['pix', 'credit_card', 'boleto']);
    expect(offeredMethods(['pix'], on)).toEqual(['pix']);
    expect(offeredMethods(all, { ...on, enable_boleto: false })).toEqual(['pix', 'credit_card']);
    expect(offeredMethods(all, { ...on, enable_pix: false })).toEqual(['credit_card', 'boleto']);
  });

  it('still takes PIX when every switch is off, as before there was a choice', () => {
    const off = { enable_pix: false, enable_credit_card: false, enable_boleto: false };
    expect(offeredMethods(all, off)).toEqual(['pix']);
    expect(offeredMethods(['credit_card'], off)).toEqual([]);
  });
});
