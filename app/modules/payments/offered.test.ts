import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { installmentOffer } from '~/modules/pricing';
import { defaultSettings } from '~/modules/settings';

import { narrowPaymentSwitches } from './offered';
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

  it('every provider takes what checkout asks for today: PIX only', () => {
    const db = {} as Db;
    const settings = async () => defaultSettings();
    for (const PAYMENT_PROVIDER of ['sandbox', 'pix', 'gateway'] as const) {
      const provider = createPaymentProvider({
        env: {
          NODE_ENV: 'development',
          MERCADOPAGO_API_URL: 'https://api.mercadopago.test',
          PAYMENT_PROVIDER,
          PAYMENT_GATEWAY_URL: 'https://gateway.test',
          PAYMENT_GATEWAY_SECRET_KEY: 'sk_test',
          PUBLIC_URL: 'https://loja.test',
        },
        db,
        settings,
        mode: 'live',
      });
      expect(provider?.accepts, PAYMENT_PROVIDER).toEqual(['pix']);
    }
  });
});
