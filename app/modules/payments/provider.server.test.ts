import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { defaultSettings } from '~/modules/settings';

import { createPaymentProvider, type PaymentProviderOptions } from './provider.server';

// Choosing a provider never touches the database; only paying does.
const db = {} as Db;
const settings = async () => defaultSettings();

function chosen(env: Partial<PaymentProviderOptions['env']>) {
  return createPaymentProvider({ env: { NODE_ENV: 'development', ...env }, db, settings })?.name;
}

describe('createPaymentProvider', () => {
  it('uses the sandbox when none is chosen, outside production', () => {
    expect(chosen({ NODE_ENV: 'development' })).toBe('sandbox');
    expect(chosen({ NODE_ENV: 'test' })).toBe('sandbox');
  });

  it('has no provider in production unless one is chosen', () => {
    expect(chosen({ NODE_ENV: 'production' })).toBeUndefined();
  });

  it('uses the chosen one in any mode', () => {
    for (const NODE_ENV of ['development', 'production'] as const) {
      expect(chosen({ NODE_ENV, PAYMENT_PROVIDER: 'sandbox' })).toBe('sandbox');
      expect(chosen({ NODE_ENV, PAYMENT_PROVIDER: 'pix' })).toBe('pix');
      expect(
        chosen({
          NODE_ENV,
          PAYMENT_PROVIDER: 'gateway',
          PAYMENT_GATEWAY_URL: 'https://gateway.test/v1',
          PAYMENT_GATEWAY_SECRET_KEY: 'sk_test',
          PUBLIC_URL: 'https://loja.test',
        }),
      ).toBe('gateway');
    }
  });

  it('has no gateway without its address, key and the store’s public address', () => {
    expect(chosen({ PAYMENT_PROVIDER: 'gateway' })).toBeUndefined();
    expect(
      chosen({ PAYMENT_PROVIDER: 'gateway', PAYMENT_GATEWAY_URL: 'https://gateway.test' }),
    ).toBeUndefined();
    expect(
      chosen({
        PAYMENT_PROVIDER: 'gateway',
        PAYMENT_GATEWAY_URL: 'https://gateway.test',
        PAYMENT_GATEWAY_SECRET_KEY: 'sk_test',
      }),
    ).toBeUndefined();
  });

  it('marks only the sandbox as test mode', () => {
    const sandbox = createPaymentProvider({ env: { NODE_ENV: 'development' }, db, settings });
    const pix = createPaymentProvider({
      env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'pix' },
      db,
      settings,
    });
    expect(sandbox?.testMode).toBe(true);
    expect(pix?.testMode).toBe(false);
  });
});
