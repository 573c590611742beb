import { randomBytes } from 'node:crypto';

import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';

import { createChangeFeed } from '~/db/changes.server';
import type { Database } from '~/db/database.server';
import { storeConnections } from '~/db/schema';
import { saveConnections } from '~/flows/save-connections.server';
import {
  createConnectionsStore,
  loadSecretsKey,
  type ConnectionsEnv,
  type ConnectionsStore,
  type SecretsKey,
} from '~/modules/connections/index.server';
import { CONNECTIONS_MESSAGES, connectionsFormSchema } from '~/modules/connections/index.admin';
import { MERCADOPAGO_ACCOUNT_MESSAGES } from '~/modules/payments/index.server';

import { describeDb } from '../support/db';
import { startFakeMercadoPago, type FakeMercadoPago } from '../support/fake-mercadopago';

const TOKEN = `APP_USR-${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `segredo-${randomBytes(12).toString('hex')}`;

let mercadoPago: FakeMercadoPago;
beforeAll(async () => {
  mercadoPago = await startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await mercadoPago?.close();
});

/** What /admin/payments posts, checked as its action checks it. */
function form(fields: Record<string, string>) {
  const parsed = connectionsFormSchema.safeParse({ intent: 'save', ...fields });
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}

describeDb('connections', ({ database, db }) => {
  const opened: { close(): Promise<void> }[] = [];
  let key: SecretsKey;
  beforeAll(async () => {
    key = (await loadSecretsKey({ secretsKey: randomBytes(32).toString('base64') }))!;
  });
  afterEach(async () => {
    for (const each of opened.splice(0).reverse()) await each.close();
  });

  /** One instance's store: its own ear on the database's change announcements. */
  async function instance(
    options: { env?: ConnectionsEnv; key?: SecretsKey | null; of?: Database } = {},
  ): Promise<ConnectionsStore> {
    const changes = await createChangeFeed(options.of ?? database());
    opened.push(changes);
    const store = createConnectionsStore({
      db: (options.of ?? database()).db,
      changes,
      env: options.env ?? {},
      key: options.key === undefined ? key : options.key,
    });
    opened.push(store);
    return store;
  }

  const save = (store: ConnectionsStore, fields: Record<string, string>) =>
    saveConnections({ store, form: form(fields), mercadoPagoApiUrl: mercadoPago.url });

  it('checks a Mercado Pago token with the account, stores it sealed, and every instance sees it', async () => {
    const one = await instance();
    const other = await instance();
    expect((await other.get()).values.payment_provider).toBeUndefined();

    const saved = await save(one, {
      payment_provider: 'mercadopago',
      mercadopago_access_token: TOKEN,
      mercadopago_webhook_secret: WEBHOOK_SECRET,
    });
    expect(saved).toEqual({
      ok: true,
      changed: ['payment_provider', 'mercadopago_access_token', 'mercadopago_webhook_secret'],
    });
    expect(mercadoPago.requests.some((each) => each.path === '/users/me')).toBe(true);

    await vi.waitFor(
      async () =>
        expect((await other.get()).values).toMatchObject({
          payment_provider: 'mercadopago',
          mercadopago_access_token: TOKEN,
          mercadopago_webhook_secret: WEBHOOK_SECRET,
        }),
      { timeout: 5_000, interval: 20 },
    );
    // In the database, only sealed text: no column of any row holds the secrets.
    const rows = await db().select().from(storeConnections);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(TOKEN);
    expect(dump).not.toContain(WEBHOOK_SECRET);
    expect(rows.find((row) => row.name === 'mercadopago_access_token')).toMatchObject({
      value: null,
      sealed: expect.stringMatching(/^v1\./),
    });
  });

  it('keeps a stored secret when its field comes back blank, and removes it when asked', async () => {
    const store = await instance();
    await save(store, { smtp_url: 'smtp://loja:senha@127.0.0.1:2525', smtp_from: 'a@b.com.br' });
    expect(await save(store, { smtp_url: '', smtp_from: 'a@b.com.br' })).toEqual({
      ok: true,
      changed: [],
    });
    expect((await store.get()).values.smtp_url).toBe('smtp://loja:senha@127.0.0.1:2525');
    expect(await save(store, { remove: 'smtp_url', smtp_url: '' })).toEqual({
      ok: true,
      changed: ['smtp_url'],
    });
    expect((await store.get()).sources.smtp_url).toBeNull();
    expect((await store.get()).values.smtp_from).toBe('a@b.com.br');
  });

  it('refuses, saving nothing, a token Mercado Pago refuses or a provider without its credentials', async () => {
    const store = await instance();
    const refused = await save(store, {
      payment_provider: 'mercadopago',
      mercadopago_access_token: 'APP_USR-errado',
      mercadopago_webhook_secret: WEBHOOK_SECRET,
    });
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { mercadopago_access_token: MERCADOPAGO_ACCOUNT_MESSAGES.refused },
    });
    expect(refused.ok || refused.error).not.toContain('APP_USR-errado');
    expect(await save(store, { payment_provider: 'gateway' })).toMatchObject({
      ok: false,
      fieldErrors: {
        gateway_url: CONNECTIONS_MESSAGES.gatewayMissing,
        gateway_secret_key: CONNECTIONS_MESSAGES.gatewayMissing,
      },
    });
    expect(await db().select().from(storeConnections)).toEqual([]);
  });

  it('leaves what the environment sets alone, and says so when asked to remove it', async () => {
    const store = await instance({ env: { PAYMENT_PROVIDER: 'pix', SMTP_FROM: 'env@b.com.br' } });
    expect(await save(store, { payment_provider: 'gateway', smtp_from: 'outro@b.com.br' })).toEqual(
      { ok: true, changed: [] },
    );
    expect(await save(store, { remove: 'smtp_from' })).toMatchObject({
      ok: false,
      fieldErrors: { smtp_from: CONNECTIONS_MESSAGES.fromEnv },
    });
    expect((await store.get()).values).toMatchObject({
      payment_provider: 'pix',
      smtp_from: 'env@b.com.br',
    });
  });

  it('takes no secret without a key, and asks again for those sealed under another key', async () => {
    const keyless = await instance({ key: null });
    expect(await save(keyless, { melhor_envio_token: 'token-me' })).toMatchObject({
      ok: false,
      fieldErrors: { melhor_envio_token: CONNECTIONS_MESSAGES.noKey },
    });
    await save(await instance(), { melhor_envio_token: 'token-me' });
    const otherKey = (await loadSecretsKey({ secretsKey: randomBytes(32).toString('base64') }))!;
    const rekeyed = await instance({ key: otherKey });
    expect((await rekeyed.get()).sources.melhor_envio_token).toBe('unreadable');
    expect((await rekeyed.get()).values.melhor_envio_token).toBeUndefined();
    // Typed again, it is sealed under the new key.
    await save(rekeyed, { melhor_envio_token: 'token-novo' });
    expect((await rekeyed.get()).values.melhor_envio_token).toBe('token-novo');
  });

  it('never lets a secret row hold clear text, whoever writes it', async () => {
    await expect(
      db().execute(
        sql`insert into store_connections (name, value) values ('smtp_url', 'smtp://a:b@c')`,
      ),
    ).rejects.toThrow();
  });
});
