import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { connectionsView, resolveConnections } from './connections.server';
import { loadSecretsKey, sealSecret } from './secrets.server';

const key = (await loadSecretsKey({ secretsKey: randomBytes(32).toString('base64') }))!;
const otherKey = (await loadSecretsKey({ secretsKey: randomBytes(32).toString('base64') }))!;

const stored = [
  { name: 'payment_provider', value: 'mercadopago', sealed: null },
  {
    name: 'mercadopago_access_token',
    value: null,
    sealed: sealSecret(key, 'mercadopago_access_token', 'APP_USR-admin'),
  },
  {
    name: 'mercadopago_webhook_secret',
    value: null,
    sealed: sealSecret(otherKey, 'mercadopago_webhook_secret', 'segredo-antigo'),
  },
  { name: 'smtp_from', value: 'loja@exemplo.com.br', sealed: null },
];

describe('resolveConnections', () => {
  it("takes the admin's values, and the environment's over them", () => {
    const resolved = resolveConnections(stored, { SMTP_FROM: 'env@exemplo.com.br' }, key);
    expect(resolved.values).toEqual({
      payment_provider: 'mercadopago',
      mercadopago_access_token: 'APP_USR-admin',
      smtp_from: 'env@exemplo.com.br',
    });
    expect(resolved.sources).toMatchObject({
      payment_provider: 'admin',
      mercadopago_access_token: 'admin',
      // Sealed under another key: known to be there, not readable, to be typed again.
      mercadopago_webhook_secret: 'unreadable',
      smtp_from: 'env',
      smtp_url: null,
    });

    const overridden = resolveConnections(
      stored,
      { PAYMENT_PROVIDER: 'pix', MERCADOPAGO_WEBHOOK_SECRET: 'do-ambiente' },
      key,
    );
    expect(overridden.values.payment_provider).toBe('pix');
    expect(overridden.values.mercadopago_webhook_secret).toBe('do-ambiente');
    expect(overridden.sources.mercadopago_webhook_secret).toBe('env');
  });

  it('reads no secret without a key, and ignores rows it does not know', () => {
    const resolved = resolveConnections(
      [...stored, { name: 'outra_coisa', value: 'x', sealed: null }],
      {},
      null,
    );
    expect(resolved.values).toEqual({
      payment_provider: 'mercadopago',
      smtp_from: 'loja@exemplo.com.br',
    });
    expect(resolved.canStoreSecrets).toBe(false);
    expect(resolved.sources.mercadopago_access_token).toBe('unreadable');
  });

  it('shows the screen plain values and sources only, never a secret', () => {
    const view = connectionsView(resolveConnections(stored, {}, key));
    expect(JSON.stringify(view)).not.toContain('APP_USR-admin');
    expect(view.plain).toEqual({
      payment_provider: 'mercadopago',
      gateway_url: '',
      pix_api_url: '',
      pix_api_token_url: '',
      pix_api_client_id: '',
      smtp_from: 'loja@exemplo.com.br',
      bling_client_id: '',
    });
  });
});
