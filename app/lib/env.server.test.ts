import { describe, expect, it } from 'vitest';

import { parseEnv } from './env.server';

describe('parseEnv', () => {
  it('gives every setting its default', () => {
    expect(parseEnv({})).toEqual({
      NODE_ENV: 'development',
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      DATABASE_POOL_MAX: 10,
      BACKUP_INTERVAL_HOURS: 0,
      BACKUP_KEEP: 7,
      SEED: true,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10_000,
      SHUTDOWN_DELAY_MS: 0,
      TRUST_PROXY: ['loopback'],
      MAX_BODY_BYTES: 262_144,
      MAX_UPLOAD_BYTES: 94_371_840,
      HEADERS_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      KEEP_ALIVE_TIMEOUT_MS: 5_000,
      MAX_CONNECTIONS: 1_000,
      UTMIFY_API_URL: 'https://api.utmify.com.br/api-credentials/orders',
      CEP_SERVICE_URL: 'https://viacep.com.br/ws',
      MERCADOPAGO_API_URL: 'https://api.mercadopago.com',
      MELHOR_ENVIO_API_URL: 'https://melhorenvio.com.br/api/v2',
      BLING_API_URL: 'https://api.bling.com.br/Api/v3',
      CHECKOUT_RATE_LIMIT: 20,
      PAGE_CACHE_MAX_BYTES: 64 * 1024 * 1024,
      PAGE_CACHE_TTL_SECONDS: 300,
      PIX_API_RECONCILE_SECONDS: 180,
      WEB_CONCURRENCY: 1,
      ORDER_EXPIRY_SECONDS: 30,
      RECOVERY_SWEEP_SECONDS: 60,
    });
  });

  it('reads the backup schedule in hours, fractions too, at most a week', () => {
    expect(parseEnv({ BACKUP_INTERVAL_HOURS: '0.5', BACKUP_KEEP: '3' })).toMatchObject({
      BACKUP_INTERVAL_HOURS: 0.5,
      BACKUP_KEEP: 3,
    });
    expect(() => parseEnv({ BACKUP_INTERVAL_HOURS: '169' })).toThrow(/BACKUP_INTERVAL_HOURS/);
    expect(() => parseEnv({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
  });

  it('needs the gateway address and key when the gateway is chosen', () => {
    expect(() => parseEnv({ PAYMENT_PROVIDER: 'gateway' })).toThrow(
      /PAYMENT_PROVIDER: gateway precisa de PAYMENT_GATEWAY_URL e PAYMENT_GATEWAY_SECRET_KEY/,
    );
    const gateway = {
      PAYMENT_PROVIDER: 'gateway',
      PAYMENT_GATEWAY_URL: 'https://pay.example/api/',
      PAYMENT_GATEWAY_SECRET_KEY: 'sk_test',
    };
    // Its postbacks go to PUBLIC_URL, never to a host a request named.
    expect(() => parseEnv(gateway)).toThrow(
      /PUBLIC_URL: gateway, mercadopago e pix-api precisam de PUBLIC_URL/,
    );
    expect(parseEnv({ ...gateway, PUBLIC_URL: 'https://loja.test' }).PAYMENT_GATEWAY_URL).toBe(
      'https://pay.example/api',
    );
  });

  it('needs the Mercado Pago token, webhook secret and PUBLIC_URL when it is chosen', () => {
    expect(() =>
      parseEnv({ PAYMENT_PROVIDER: 'mercadopago', MERCADOPAGO_ACCESS_TOKEN: 'TEST-1' }),
    ).toThrow(/mercadopago precisa de MERCADOPAGO_ACCESS_TOKEN e MERCADOPAGO_WEBHOOK_SECRET/);
    const mercadoPago = {
      PAYMENT_PROVIDER: 'mercadopago',
      MERCADOPAGO_ACCESS_TOKEN: 'TEST-1',
      MERCADOPAGO_WEBHOOK_SECRET: 'whsec',
    };
    expect(() => parseEnv(mercadoPago)).toThrow(
      /PUBLIC_URL: gateway, mercadopago e pix-api precisam de/,
    );
    const env = parseEnv({ ...mercadoPago, PUBLIC_URL: 'https://loja.test' });
    expect(env.MERCADOPAGO_API_URL).toBe('https://api.mercadopago.com');
    expect(
      parseEnv({
        ...mercadoPago,
        PUBLIC_URL: 'https://loja.test',
        MERCADOPAGO_API_URL: 'http://127.0.0.1:9/',
      }).MERCADOPAGO_API_URL,
    ).toBe('http://127.0.0.1:9');
  });

  it('reads values and treats empty ones as unset', () => {
    const env = parseEnv({
      PORT: '8080',
      SEED: 'false',
      DATABASE_URL: 'postgres://localhost/loja',
      DATA_DIR: '',
    });
    expect(env).toMatchObject({
      PORT: 8080,
      SEED: false,
      DATABASE_URL: 'postgres://localhost/loja',
      DATA_DIR: './data',
    });
  });

  it('names every bad variable in one error', () => {
    expect(() => parseEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED: 'maybe' })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*SEED|PORT[\s\S]*SEED[\s\S]*DATABASE_URL/,
    );
    // In Portuguese, the schema's own words included.
    expect(() => parseEnv({ LOG_LEVEL: 'alto', DATABASE_URL: 'mysql://x' })).toThrow(
      /^Configuração do ambiente inválida:\n {2}DATABASE_URL: use um endereço postgres:\/\/ ou postgresql:\/\/\n {2}LOG_LEVEL: Opção inválida/,
    );
  });

  it('takes a read replica only beside DATABASE_URL, as a postgres:// URL', () => {
    const replica = 'postgres://replica.local/loja';
    expect(() => parseEnv({ DATABASE_REPLICA_URL: replica })).toThrow(
      /DATABASE_REPLICA_URL: precisa de DATABASE_URL/,
    );
    expect(() =>
      parseEnv({ DATABASE_URL: 'postgres://localhost/loja', DATABASE_REPLICA_URL: 'replica' }),
    ).toThrow(/DATABASE_REPLICA_URL: use um endereço postgres/);
    expect(
      parseEnv({ DATABASE_URL: 'postgres://localhost/loja', DATABASE_REPLICA_URL: replica })
        .DATABASE_REPLICA_URL,
    ).toBe(replica);
    expect(parseEnv({ DATABASE_REPLICA_URL: '' }).DATABASE_REPLICA_URL).toBeUndefined();
  });

  it('runs several copies of the server only on PostgreSQL', () => {
    expect(() => parseEnv({ WEB_CONCURRENCY: '2' })).toThrow(
      /WEB_CONCURRENCY: acima de 1 precisa de DATABASE_URL/,
    );
    expect(() => parseEnv({ WEB_CONCURRENCY: '0' })).toThrow(/WEB_CONCURRENCY/);
    expect(
      parseEnv({ WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://localhost/loja' }).WEB_CONCURRENCY,
    ).toBe(2);
  });

  it('reads the public address as an origin, and refuses one with a path', () => {
    expect(parseEnv({ PUBLIC_URL: 'https://Loja.com.br/' }).PUBLIC_URL).toBe('https://loja.com.br');
    expect(() => parseEnv({ PUBLIC_URL: 'https://loja.com.br/loja' })).toThrow(/PUBLIC_URL/);
    expect(() => parseEnv({ PUBLIC_URL: 'loja.com.br' })).toThrow(/PUBLIC_URL/);
  });

  it('reads the admin address as an origin of its own, beside the public one', () => {
    const store = 'https://loja.com.br';
    expect(parseEnv({ PUBLIC_URL: store, ADMIN_URL: 'https://Admin.loja.com.br/' }).ADMIN_URL).toBe(
      'https://admin.loja.com.br',
    );
    expect(() => parseEnv({ PUBLIC_URL: store, ADMIN_URL: 'https://loja.com.br/admin' })).toThrow(
      /ADMIN_URL: use o endereço do painel/,
    );
    expect(() => parseEnv({ ADMIN_URL: 'https://admin.loja.com.br' })).toThrow(
      /ADMIN_URL: precisa de PUBLIC_URL/,
    );
    expect(() => parseEnv({ PUBLIC_URL: store, ADMIN_URL: 'https://loja.com.br:8443' })).toThrow(
      /ADMIN_URL: precisa de PUBLIC_URL, em outro nome de host/,
    );
  });

  it('reads allowed hosts as a list of names', () => {
    expect(parseEnv({ ALLOWED_HOSTS: 'Loja.com.br, .loja.com.br,[::1]' }).ALLOWED_HOSTS).toEqual([
      'loja.com.br',
      '.loja.com.br',
      '::1',
    ]);
    expect(() => parseEnv({ ALLOWED_HOSTS: 'https://loja.com.br' })).toThrow(/ALLOWED_HOSTS/);
    expect(() => parseEnv({ ALLOWED_HOSTS: ' , ' })).toThrow(/ALLOWED_HOSTS/);
  });

  it("reads TRUST_PROXY as Express's trust proxy does", () => {
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(
      parseEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 192.168.1.1' }).TRUST_PROXY,
    ).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.1']);
    expect(() => parseEnv({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    expect(() => parseEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });

  it('keeps the header timeout within the request timeout', () => {
    expect(() => parseEnv({ HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '30000' })).toThrow(
      /HEADERS_TIMEOUT_MS/,
    );
  });
});
