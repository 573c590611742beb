import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { defaultSettings } from '~/modules/settings';

import type { StoreMode } from '~/modules/settings';

import type { SharedTokens } from './pix-api-token.server';
import {
  canTakePayments,
  createPaymentProvider,
  liveSandboxError,
  type PaymentProviderOptions,
} from './provider.server';

// Choosing a provider never touches the database; only paying does.
const db = {} as Db;
const settings = async () => defaultSettings();
const base = {
  NODE_ENV: 'development',
  MERCADOPAGO_API_URL: 'https://api.mercadopago.test',
} as const;

function chosen(env: Partial<PaymentProviderOptions['env']>, mode: StoreMode = 'live') {
  return createPaymentProvider({ env: { ...base, ...env }, db, settings, mode })?.name;
}

describe('createPaymentProvider', () => {
  it('uses the sandbox when none is chosen, outside production', () => {
    expect(chosen({ NODE_ENV: 'development' })).toBe('sandbox');
    expect(chosen({ NODE_ENV: 'test' })).toBe('sandbox');
  });

  it('has no provider for a live store in production unless a real one is chosen', () => {
    expect(chosen({ NODE_ENV: 'production' })).toBeUndefined();
    expect(chosen({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' })).toBeUndefined();
  });

  it('uses the sandbox for a demo store in production unless another is chosen', () => {
    expect(chosen({ NODE_ENV: 'production' }, 'demo')).toBe('sandbox');
    expect(chosen({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'pix' }, 'demo')).toBe('pix');
  });

  it('refuses to start a live store in production with the sandbox, naming the variable', () => {
    const production = { NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' } as const;
    expect(liveSandboxError(production, 'live')).toMatch(/PAYMENT_PROVIDER/);
    expect(liveSandboxError(production, 'demo')).toBeNull();
    expect(liveSandboxError({ ...production, NODE_ENV: 'development' }, 'live')).toBeNull();
    expect(liveSandboxError({ NODE_ENV: 'production' }, 'live')).toBeNull();
  });

  it('uses the chosen one in any mode', () => {
    for (const NODE_ENV of ['development', 'production'] as const) {
      expect(chosen({ NODE_ENV, PAYMENT_PROVIDER: 'sandbox' }, 'demo')).toBe('sandbox');
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
    const sandbox = createPaymentProvider({
      env: base,
      db,
      settings,
      mode: 'live',
    });
    const pix = createPaymentProvider({
      env: { ...base, NODE_ENV: 'production', PAYMENT_PROVIDER: 'pix' },
      db,
      settings,
      mode: 'live',
    });
    expect(sandbox?.testMode).toBe(true);
    expect(pix?.testMode).toBe(false);
  });
});

describe('the API Pix (pix-api)', () => {
  const pixApi = {
    PAYMENT_PROVIDER: 'pix-api',
    PIX_API_URL: 'https://pix.banco.test/v2',
    PIX_API_TOKEN_URL: 'https://pix.banco.test/oauth/token',
    PIX_API_CLIENT_ID: 'id',
    PIX_API_CLIENT_SECRET: 'secret',
    PUBLIC_URL: 'https://loja.test',
  } as const;
  const tokens = {} as SharedTokens;

  it('is built only with every credential and a certificate', () => {
    const build = (env: Partial<PaymentProviderOptions['env']>, withTls = true) =>
      createPaymentProvider({
        env: { ...base, ...env },
        db,
        settings,
        mode: 'live',
        pixApi: withTls ? { tls: { pfx: Buffer.from('') }, tokens } : undefined,
      })?.name ?? null;
    expect(build(pixApi)).toBe('pix-api');
    expect(build(pixApi, false)).toBeNull();
    expect(build({ ...pixApi, PIX_API_CLIENT_SECRET: undefined })).toBeNull();
    expect(build({ ...pixApi, PUBLIC_URL: undefined })).toBeNull();
  });

  it('takes payments only with the store’s PIX key', () => {
    const provider = { name: 'pix-api' } as const;
    const identity = { pix_key: '', pix_merchant_name: '', pix_merchant_city: '' };
    expect(canTakePayments(provider, identity)).toBe(false);
    expect(canTakePayments(provider, { ...identity, pix_key: 'financeiro@loja.test' })).toBe(true);
  });
});
