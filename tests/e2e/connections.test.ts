import { randomBytes } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { backupDatabase } from '~/db/backup.server';
import { openDatabase, type Database } from '~/db/database.server';
import { createAdmin } from '~/modules/auth/index.server';

import { ADMIN, adminVisitor, signIn, withAdmin } from '../support/admin';
import { launchBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { startFakeCepServer, type FakeCepServer } from '../support/fake-cep';
import { startFakeMercadoPago, type FakeMercadoPago } from '../support/fake-mercadopago';
import { freePort } from '../support/ports';
import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { sampleProduct } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { prepareStoreFolder } from '../support/store';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { VALID_CHECKOUT, visibleText, type Page as VisitorPage } from '../support/visitor';

// Issue 35: a live store with no payment variables reaches its first real sale from the admin.
// Staff type Mercado Pago's credentials at /admin/payments on one instance; a shopper buys with
// PIX on the other, and the signed notification confirms it; nobody restarts anything. Then the
// secrets typed are looked for everywhere they must not be.
const ACCESS_TOKEN = `APP_USR-${randomBytes(16).toString('hex')}`;
const WEBHOOK_SECRET = `assinatura-${randomBytes(16).toString('hex')}`;
const SECRETS_KEY = randomBytes(32).toString('base64');
const HEADPHONES = sampleProduct('Fone de Ouvido');
const PAULISTA_CEP = '01310100';
const PAULISTA = {
  logradouro: 'Avenida Paulista',
  bairro: 'Bela Vista',
  localidade: 'São Paulo',
  uf: 'SP',
};

/** Every place a secret must not be, as text: what a test collected and the servers' logs. */
function expectNoSecrets(texts: string[], secrets: string[]) {
  for (const text of texts) {
    for (const secret of secrets) expect(text.includes(secret), 'a secret in clear').toBe(false);
  }
}

/** Every row of every table of ours, as JSON text: no column may hold a secret in clear. */
async function databaseDump(database: Database): Promise<string> {
  const tables = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  )) as unknown as { rows: { tablename: string }[] };
  const dumps: string[] = [];
  for (const { tablename } of tables.rows) {
    const rows = await database.db.execute(
      sql`select coalesce(json_agg(t)::text, '') as dump from ${sql.identifier(tablename)} t`,
    );
    dumps.push((rows as unknown as { rows: { dump: string }[] }).rows[0]!.dump);
  }
  return dumps.join('\n');
}

describe.runIf(TEST_DATABASE_URL)('a live store connects Mercado Pago from the admin', () => {
  const name = uniqueDatabaseName('vitrine_connections');
  let mp: FakeMercadoPago;
  let cep: FakeCepServer;
  let database: Database;
  let staffSide: TestServer;
  let shopperSide: TestServer;
  let browser: Browser;
  /** Every body the servers sent the browser: pages and data requests. */
  const answers: string[] = [];
  const reads: Promise<void>[] = [];

  beforeAll(async () => {
    [mp, cep] = await Promise.all([
      startFakeMercadoPago({ accessToken: ACCESS_TOKEN, webhookSecret: WEBHOOK_SECRET }),
      startFakeCepServer({ [PAULISTA_CEP]: PAULISTA }),
    ]);
    const url = await createDatabase(TEST_DATABASE_URL!, name);
    // Notifications go to PUBLIC_URL: the shoppers' instance, whose port is chosen first.
    const shopperPort = await freePort();
    const publicUrl = `http://127.0.0.1:${shopperPort}`;
    const env = {
      DATABASE_URL: url,
      SECRETS_KEY,
      PUBLIC_URL: publicUrl,
      MERCADOPAGO_API_URL: mp.url,
      CEP_SERVICE_URL: cep.url,
      SMTP_URL: '',
    };
    // The first start creates the tables and the sample store; the store is then live, with an
    // admin, and no payment variable anywhere.
    staffSide = await startServer({ env });
    database = await openDatabase({ databaseUrl: url, poolMax: 2 });
    const created = await createAdmin(database.db, ADMIN);
    if (!created.ok) throw new Error(created.error);
    await database.db.execute(sql`update store_settings set mode = 'live'`);
    [shopperSide, browser] = await Promise.all([
      startServer({ env: { ...env, PORT: String(shopperPort) } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([staffSide?.stop(), shopperSide?.stop()]);
    await database?.close();
    await Promise.all([mp?.close(), cep?.close()]);
    await dropDatabase(TEST_DATABASE_URL!, name);
  });

  async function openKept(
    viewport: { width: number; height: number } = VIEWPORTS.desktop,
  ): Promise<Page> {
    const context = await browser.newContext({
      viewport,
      locale: 'pt-BR',
      extraHTTPHeaders: { 'X-Forwarded-For': shopperAddress() },
    });
    const page = await context.newPage();
    page.on('response', (response) => {
      if (response.status() >= 300 && response.status() < 400) return;
      reads.push(
        response.text().then(
          (text) => void answers.push(text),
          () => undefined,
        ),
      );
    });
    return page;
  }

  it('staff type the token and the webhook secret, checked with Mercado Pago, and see them in force', async () => {
    // Before: shoppers read that the store is not selling yet, and search engines are kept away.
    const shop = await openKept(VIEWPORTS.mobile);
    await shop.goto(`${shopperSide.url}/product/${HEADPHONES.id}`, { waitUntil: 'networkidle' });
    expect(await shop.getByTestId('not-selling').innerText()).toContain(
      'Esta loja ainda não está vendendo pela internet.',
    );
    expect(await shop.getByRole('button', { name: 'Comprar agora' }).count()).toBe(0);
    expect(await shop.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
    await shop.context().close();

    // The dashboard lists what is missing, first the payment provider, linked to where it is set.
    const page = await openKept();
    await signIn(page, staffSide.url);
    const missing = page.getByRole('region', { name: 'Falta para vender' });
    const provider = missing.locator('li[data-item="payment-provider"]').getByRole('link');
    expect(await provider.getAttribute('href')).toBe('/admin/payments');
    await provider.click();
    await page.waitForURL(`${staffSide.url}/admin/payments`);
    await waitForHydration(page);
    expect(await page.getByTestId('active-provider').innerText()).toBe('nenhum');
    expect(await page.getByTestId('webhook-url').innerText()).toBe(
      `${shopperSide.url}/api/payments/mercadopago`,
    );

    await page.getByLabel('Provedor de pagamento').selectOption('mercadopago');
    await page.getByLabel(/^Token de acesso/).fill(ACCESS_TOKEN);
    await page.getByLabel(/^Assinatura secreta/).fill(WEBHOOK_SECRET);
    await page.getByRole('button', { name: 'Salvar conexões' }).click();
    await page.getByText('Conexões salvas com sucesso!').first().waitFor();
    await expect.poll(() => page.getByTestId('active-provider').innerText()).toBe('Mercado Pago');
    // Said to be there, never shown: the fields come back empty.
    expect(await page.getByLabel(/^Token de acesso/).inputValue()).toBe('');
    expect(await page.getByRole('button', { name: /^Remover Token de acesso/ }).count()).toBe(1);
    // The token was checked with the account before it was kept.
    expect(
      mp.requests.some(
        (each) =>
          each.path === '/users/me' && each.headers.authorization === `Bearer ${ACCESS_TOKEN}`,
      ),
    ).toBe(true);
    await page.context().close();
  });

  it('a shopper on the other instance pays with PIX and the signed notification confirms it', async () => {
    const page = await openKept(VIEWPORTS.mobile);
    await page.goto(`${shopperSide.url}/product/${HEADPHONES.id}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Comprar agora' }).click();
    await page.waitForURL(`${shopperSide.url}/checkout`);
    const form = page.locator('form[action="/checkout"]');
    await form.getByRole('button', { name: 'Finalizar pedido' }).waitFor();
    await waitForHydration(page);
    const field = (label: string) => form.getByLabel(label, { exact: true });
    await field('Nome completo').fill(VALID_CHECKOUT.customerName);
    await field('E-mail').fill(VALID_CHECKOUT.customerEmail);
    await field('CPF').pressSequentially(shopperCpf().replace(/\D/g, ''));
    await field('Telefone').pressSequentially(VALID_CHECKOUT.customerPhone.replace(/\D/g, ''));
    await field('CEP').pressSequentially(PAULISTA_CEP);
    await expect.poll(() => field('Rua').inputValue()).toBe(PAULISTA.logradouro);
    await field('Número').fill(VALID_CHECKOUT.number);
    await form.getByRole('button', { name: 'Finalizar pedido' }).click();

    await page.waitForURL(/\/order-confirmation\?/);
    const paymentId = new URL(page.url()).searchParams.get('paymentId')!;
    expect(mp.payments.get(paymentId)).toMatchObject({
      status: 'pending',
      notification_url: `${shopperSide.url}/api/payments/mercadopago?source_news=webhooks`,
    });
    expect(await page.getByTestId('pix-code').inputValue()).toMatch(/^000201/);

    await mp.approve(paymentId);
    const notified = mp.notifications.filter((each) => each.url.includes(`data.id=${paymentId}`));
    expect(notified.map((each) => each.status)).toEqual([200]);
    await page.waitForURL(/\/thank-you\?/, { timeout: 15_000 });
    await page.getByRole('heading', { level: 1, name: 'Obrigado pela sua compra!' }).waitFor();
    await page.context().close();
  });

  it('keeps the secrets out of every page, data request, log line and database column', async () => {
    // The admin's pages and their data requests, read over HTTP too.
    const admin = await adminVisitor(staffSide.url);
    const pages: VisitorPage[] = [];
    for (const path of [
      '/admin/payments',
      '/admin/payments.data',
      '/admin/settings?aba=avancado',
    ]) {
      pages.push(await admin.get(path));
    }
    expect(pages.map((each) => each.status)).toEqual([200, 200, 200]);
    expect(visibleText(pages[0]!.text)).toContain('configurado');
    await Promise.all(reads);
    expect(answers.length).toBeGreaterThan(5);
    expectNoSecrets(
      [
        ...answers,
        ...pages.map((each) => each.text),
        staffSide.output(),
        shopperSide.output(),
        await databaseDump(database),
      ],
      [ACCESS_TOKEN, WEBHOOK_SECRET],
    );
  });
});

describe('secrets at rest on the embedded database', () => {
  const TOKEN = `token-${randomBytes(16).toString('hex')}`;
  const GATEWAY_KEY = `sk_${randomBytes(16).toString('hex')}`;
  let dataDir: string;
  let server: TestServer;

  beforeAll(async () => {
    // A folder of the test's own: the store is started on it twice.
    dataDir = await prepareStoreFolder({}, withAdmin(), 'live');
    server = await startServer({ dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('makes a key readable by the server only, and keeps it out of the backups', async () => {
    const keyFile = join(dataDir, 'secrets.key');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const admin = await adminVisitor(server.url);
    const saved = await admin.post('/admin/payments', {
      intent: 'save',
      melhor_envio_webhook_secret: TOKEN,
      gateway_secret_key: GATEWAY_KEY,
    });
    expect(saved.status).toBe(303);
    const page = await admin.get('/admin/payments');
    expect(page.text).not.toContain(TOKEN);

    const file = await backupDatabase({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    const tarball = gunzipSync(await readFile(file)).toString('latin1');
    const key = (await readFile(keyFile, 'utf8')).trim();
    expect(tarball).toContain('PG_VERSION');
    for (const secret of [TOKEN, GATEWAY_KEY, key]) expect(tarball.includes(secret)).toBe(false);
    expect(tarball).not.toContain('secrets.key');
    expectNoSecrets([server.output()], [TOKEN, GATEWAY_KEY]);
  });

  it('starts with another key, says the stored secrets cannot be read, and asks for them again', async () => {
    await server.stop();
    server = await startServer({
      dataDir,
      env: { SECRETS_KEY: randomBytes(32).toString('base64') },
    });
    expect(server.output()).toMatch(
      /"fields":\["gateway_secret_key","melhor_envio_webhook_secret"\]/,
    );
    expect(server.output()).toContain('Stored secrets cannot be read with this secrets key');
    const admin = await adminVisitor(server.url);
    const text = visibleText((await admin.get('/admin/payments')).text);
    expect(text.match(/digite de novo/g)).toHaveLength(2);
  });
});
