import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';

import { createChangeFeed } from '~/db/changes.server';
import type { Database } from '~/db/database.server';
import { storeConnections } from '~/db/schema';
import { saveConnections } from '~/flows/save-connections.server';
import { logger } from '~/lib/logger.server';
import {
  createConnectionsStore,
  loadSecretsKey,
  type ConnectionsEnv,
  type ConnectionsStore,
  type SecretsKey,
} from '~/modules/connections/index.server';
import {
  CONNECTIONS_MESSAGES,
  connectionsFormSchema,
  type ConnectionsSaveForm,
} from '~/modules/connections/index.admin';
import { MAIL_TEST_MESSAGES } from '~/modules/notifications/index.server';
import { MERCADOPAGO_ACCOUNT_MESSAGES } from '~/modules/payments/index.server';
import { defaultSettings } from '~/modules/settings';
import { MELHOR_ENVIO_ACCOUNT_MESSAGES } from '~/modules/shipping/index.server';

import { describeDb } from '../support/db';
import { startFakeMelhorEnvio, type FakeMelhorEnvio } from '../support/fake-melhorenvio';
import { makeTestPki } from '../support/fake-pix-api';
import { startFakeMercadoPago, type FakeMercadoPago } from '../support/fake-mercadopago';
import { startFakeSmtpServer, type FakeSmtpServer } from '../support/fake-smtp';

const TOKEN = `APP_USR-${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `segredo-${randomBytes(12).toString('hex')}`;
const ME_TOKEN = `me-${randomBytes(12).toString('hex')}`;
/** The e-mail server's password: characters a URL must encode, so both of its forms are sought. */
const SMTP_PASSWORD = `s3nh@-${randomBytes(6).toString('hex')}`;
const ADMIN = { email: 'gerente@loja.test' };
const SETTINGS = {
  ...defaultSettings(),
  store_name: 'Loja Teste',
  contact_email: 'contato@loja.test',
};

let mercadoPago: FakeMercadoPago;
let melhorEnvio: FakeMelhorEnvio;
let smtp: FakeSmtpServer;
let refusingSmtp: FakeSmtpServer;
beforeAll(async () => {
  [mercadoPago, melhorEnvio, smtp, refusingSmtp] = await Promise.all([
    startFakeMercadoPago({ accessToken: TOKEN, webhookSecret: WEBHOOK_SECRET }),
    startFakeMelhorEnvio({ token: ME_TOKEN }),
    startFakeSmtpServer(),
    startFakeSmtpServer({ refuseAuth: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([
    mercadoPago?.close(),
    melhorEnvio?.close(),
    smtp?.close(),
    refusingSmtp?.close(),
  ]);
});

/** An SMTP URL signing in to `port` as the store, with the password. */
const smtpUrl = (port: number) =>
  `smtp://loja:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`;

/** What /admin/payments posts, checked as its action checks it. */
function form(fields: Record<string, string | File>): ConnectionsSaveForm {
  const parsed = connectionsFormSchema.safeParse({ intent: 'save', ...fields });
  if (!parsed.success) throw new Error(parsed.error.message);
  if (parsed.data.intent !== 'save') throw new Error('Not a save');
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

  const save = (
    store: ConnectionsStore,
    fields: Record<string, string | File>,
    settings: typeof SETTINGS = SETTINGS,
  ) =>
    saveConnections({
      store,
      form: form(fields),
      mercadoPagoApiUrl: mercadoPago.url,
      melhorEnvio: { apiUrl: melhorEnvio.url, userAgent: null },
      admin: ADMIN,
      settings,
    });

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
    await save(store, { smtp_url: smtpUrl(smtp.port), smtp_from: 'a@b.com.br' });
    expect(await save(store, { smtp_url: '', smtp_from: 'a@b.com.br' })).toEqual({
      ok: true,
      changed: [],
    });
    expect((await store.get()).values.smtp_url).toBe(smtpUrl(smtp.port));
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

  it('asks the API Pix for every field, the store’s PIX key and a certificate that opens, then keeps the certificate sealed', async () => {
    const pki = await makeTestPki();
    try {
      const store = await instance();
      const fields = {
        payment_provider: 'pix-api',
        pix_api_url: 'https://pix.banco.test/v2',
        pix_api_token_url: 'https://pix.banco.test/oauth/token',
        pix_api_client_id: 'Client_Id_1',
        pix_api_client_secret: 'Client_Secret_2',
      };
      expect(await save(store, { payment_provider: 'pix-api' })).toMatchObject({
        ok: false,
        fieldErrors: {
          pix_api_url: CONNECTIONS_MESSAGES.pixApiMissing,
          pix_api_certificate: CONNECTIONS_MESSAGES.pixApiMissing,
        },
      });
      const junk = new File(['não é um certificado'], 'banco.p12');
      expect(await save(store, { ...fields, pix_api_certificate: junk })).toMatchObject({
        ok: false,
        fieldErrors: { pix_api_certificate: CONNECTIONS_MESSAGES.pixApiCertificate },
      });
      const p12 = await readFile(pki.clientP12);
      const upload = () => new File([p12], 'banco.p12');
      expect(
        await save(store, {
          ...fields,
          pix_api_certificate: upload(),
          pix_api_certificate_password: 'errada',
        }),
      ).toMatchObject({
        ok: false,
        fieldErrors: { pix_api_certificate: CONNECTIONS_MESSAGES.pixApiCertificate },
      });
      expect(
        await save(
          store,
          {
            ...fields,
            pix_api_certificate: upload(),
            pix_api_certificate_password: pki.p12Password,
          },
          { ...SETTINGS, pix_key: '' },
        ),
      ).toMatchObject({
        ok: false,
        fieldErrors: { payment_provider: CONNECTIONS_MESSAGES.pixApiNoKey },
      });
      expect(await db().select().from(storeConnections)).toEqual([]);

      const saved = await save(
        store,
        { ...fields, pix_api_certificate: upload(), pix_api_certificate_password: pki.p12Password },
        { ...SETTINGS, pix_key: 'financeiro@loja.test' },
      );
      expect(saved).toMatchObject({ ok: true });
      expect((await store.get()).values.pix_api_certificate).toBe(p12.toString('base64'));
      const rows = await db().select().from(storeConnections);
      const certificate = rows.find((row) => row.name === 'pix_api_certificate')!;
      expect(certificate.value).toBeNull();
      expect(certificate.sealed).not.toContain(p12.toString('base64').slice(0, 20));
      expect(JSON.stringify(rows)).not.toContain('Client_Secret_2');
    } finally {
      await pki.remove();
    }
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
    expect(await save(keyless, { melhor_envio_webhook_secret: 'segredo-me' })).toMatchObject({
      ok: false,
      fieldErrors: { melhor_envio_webhook_secret: CONNECTIONS_MESSAGES.noKey },
    });
    await save(await instance(), { melhor_envio_webhook_secret: 'segredo-me' });
    const otherKey = (await loadSecretsKey({ secretsKey: randomBytes(32).toString('base64') }))!;
    const rekeyed = await instance({ key: otherKey });
    expect((await rekeyed.get()).sources.melhor_envio_webhook_secret).toBe('unreadable');
    expect((await rekeyed.get()).values.melhor_envio_webhook_secret).toBeUndefined();
    // Typed again, it is sealed under the new key.
    await save(rekeyed, { melhor_envio_webhook_secret: 'segredo-novo' });
    expect((await rekeyed.get()).values.melhor_envio_webhook_secret).toBe('segredo-novo');
  });

  it('sends a test e-mail to the admin through a new e-mail server, then saves it', async () => {
    const store = await instance();
    const before = smtp.mails.length;
    const saved = await save(store, {
      smtp_url: smtpUrl(smtp.port),
      smtp_from: 'vendas@loja.test',
    });
    expect(saved).toEqual({
      ok: true,
      changed: ['smtp_from', 'smtp_url'],
      mailTestedTo: ADMIN.email,
    });
    const [mail, ...more] = smtp.mails.slice(before);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      auth: `\0loja\0${SMTP_PASSWORD}`,
      from: 'vendas@loja.test',
      to: [ADMIN.email],
      subject: 'E-mail de teste da loja Loja Teste',
    });
    expect(mail!.text).toContain('O envio de e-mails da loja está funcionando.');
    expect((await store.get()).values).toMatchObject({
      smtp_url: smtpUrl(smtp.port),
      smtp_from: 'vendas@loja.test',
    });
    // Nothing new about the e-mail settings: nothing is sent again.
    expect(await save(store, { smtp_url: '', smtp_from: 'vendas@loja.test' })).toEqual({
      ok: true,
      changed: [],
    });
    // A new sender alone is tested through the stored server.
    await save(store, { smtp_url: '', smtp_from: 'pedidos@loja.test' });
    expect(smtp.mails.slice(before).map((each) => each.from)).toEqual([
      'vendas@loja.test',
      'pedidos@loja.test',
    ]);
  });

  it('refuses, saving nothing, an e-mail server that refuses the sign-in or cannot be reached, never quoting the password', async () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const store = await instance();
    const refused = await save(store, {
      smtp_url: smtpUrl(refusingSmtp.port),
      smtp_from: 'vendas@loja.test',
    });
    expect(refused).toEqual({
      ok: false,
      error: `${CONNECTIONS_MESSAGES.notSaved}: ${MAIL_TEST_MESSAGES.login}`,
      fieldErrors: { smtp_url: MAIL_TEST_MESSAGES.login },
    });
    // The fake echoed the credentials in its refusal: the log line has them masked.
    expect(refusingSmtp.mails).toEqual([]);
    expect(warn).toHaveBeenCalled();
    const logged = JSON.stringify(warn.mock.calls, (_key, value: unknown) =>
      value instanceof Error ? { message: value.message, stack: value.stack } : value,
    );
    expect(logged).toContain('535');
    for (const said of [JSON.stringify(refused), logged]) {
      expect(said).not.toContain(SMTP_PASSWORD);
      expect(said).not.toContain(encodeURIComponent(SMTP_PASSWORD));
      expect(said).not.toContain(smtpUrl(refusingSmtp.port));
    }

    const closed = await startFakeSmtpServer();
    await closed.close();
    expect(await save(store, { smtp_url: smtpUrl(closed.port) })).toMatchObject({
      ok: false,
      fieldErrors: { smtp_url: MAIL_TEST_MESSAGES.connection(`127.0.0.1:${closed.port}`) },
    });
    expect(await db().select().from(storeConnections)).toEqual([]);
    warn.mockRestore();
  });

  it('checks a Melhor Envio token with the account before saving it', async () => {
    const store = await instance();
    const refused = await save(store, { melhor_envio_token: 'me-revogado' });
    expect(refused).toMatchObject({
      ok: false,
      fieldErrors: { melhor_envio_token: MELHOR_ENVIO_ACCOUNT_MESSAGES.refused },
    });
    expect(refused.ok || refused.error).not.toContain('me-revogado');
    expect(await db().select().from(storeConnections)).toEqual([]);

    // Melhor Envio wants to know who calls: without the store's e-mail, nothing is asked.
    const calls = melhorEnvio.requests.length;
    expect(
      await save(store, { melhor_envio_token: ME_TOKEN }, { ...SETTINGS, contact_email: '' }),
    ).toMatchObject({
      ok: false,
      fieldErrors: { melhor_envio_token: MELHOR_ENVIO_ACCOUNT_MESSAGES.noContact },
    });
    expect(melhorEnvio.requests.length).toBe(calls);

    expect(await save(store, { melhor_envio_token: ME_TOKEN })).toEqual({
      ok: true,
      changed: ['melhor_envio_token'],
    });
    const asked = melhorEnvio.requests.at(-1)!;
    expect(asked).toMatchObject({ method: 'GET', path: '/api/v2/me/balance' });
    expect(asked.headers['user-agent']).toBe('Loja Teste (contato@loja.test)');
    expect((await store.get()).values.melhor_envio_token).toBe(ME_TOKEN);
  });

  it('never lets a secret row hold clear text, whoever writes it', async () => {
    await expect(
      db().execute(
        sql`insert into store_connections (name, value) values ('smtp_url', 'smtp://a:b@c')`,
      ),
    ).rejects.toThrow();
  });
});
