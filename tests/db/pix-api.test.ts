import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';

import type { Db } from '~/db/database.server';
import { orderEvents, orders, products, providerTokens } from '~/db/schema';
import { payOrder, refreshPayment } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import { reconcilePixPayments } from '~/flows/pix-api-payments.server';
import { REFUND_MESSAGES, refundOrderByStaff } from '~/flows/refund-order.server';
import { logger } from '~/lib/logger.server';
import { createAdmin } from '~/modules/auth/index.server';
import { checkoutFormSchema } from '~/modules/checkout';
import { secretsVault, type SecretsKey } from '~/modules/connections/index.server';
import { getOrder } from '~/modules/orders/index.server';
import {
  createPixApiProvider,
  databaseTokens,
  pixApiOrderId,
  pixApiTlsFromFiles,
  pixApiTlsFromUpload,
  type PixApiProvider,
  type PixApiTls,
  type SharedTokens,
} from '~/modules/payments/index.server';
import { defaultSettings } from '~/modules/settings';
import { action as pixApiWebhook } from '~/routes/api/payment-pix-api';

import { ADMIN } from '../support/admin';
import { describeDb } from '../support/db';
import {
  makeTestPki,
  startFakePixApi,
  type FakePixApi,
  type TestPki,
} from '../support/fake-pix-api';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { VALID_CHECKOUT } from '../support/visitor';

// Issue 40 through the real flows and both databases, the provider talking to the API Pix
// simulator over mutual TLS. Every request and answer of this file is validated against the
// Central Bank's spec by the simulator; the last check fails the file if any broke it.
const CLIENT_ID = 'Client_Id_loja_4f2a';
const CLIENT_SECRET = `Client_Secret_${randomBytes(8).toString('hex')}`;
const PIX_KEY = 'financeiro@loja.test';
const FONE = '5a3b1e00-0000-4000-8000-00000000e040';
const FONE_CENTS = 29990;
const withTracking = { tracking: false };
const SECRETS: SecretsKey = { bytes: randomBytes(32), id: 'test', source: 'env' };

let pki: TestPki;
let fake: FakePixApi;
let pem: PixApiTls;

beforeAll(async () => {
  pki = await makeTestPki();
  fake = await startFakePixApi({ pki, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  pem = await pixApiTlsFromFiles({ cert: pki.clientCert, key: pki.clientKey, ca: pki.caCert });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await pki?.remove();
});

/** The token row every instance of the store shares, sealed. */
function sharedTokens(db: Db): SharedTokens {
  return databaseTokens(db, 'pix-api', {
    seal: (value) => secretsVault(SECRETS).seal('provider_token:pix-api', value),
    open: (sealed) => secretsVault(SECRETS).open('provider_token:pix-api', sealed),
  });
}

function provider(
  db: Db,
  tls: PixApiTls = pem,
  tokens: SharedTokens = sharedTokens(db),
): PixApiProvider {
  return createPixApiProvider({
    apiUrl: fake.url,
    tokenUrl: fake.tokenUrl,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tls,
    publicUrl: 'https://loja.test',
    settings: async () => ({ pix_key: PIX_KEY, pix_expiration_minutes: 30 }),
    tokens,
  });
}

async function placed(db: Db): Promise<string> {
  const result = await placeOrder(
    db,
    {
      form: checkoutFormSchema.parse({
        ...VALID_CHECKOUT,
        customerCpf: shopperCpf(),
        idempotencyKey: randomUUID(),
      }),
      cart: [
        {
          productId: FONE,
          variantId: null,
          quantity: 1,
          seenPriceCents: FONE_CENTS,
          seenName: 'Fone',
        },
      ],
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: {},
      settings: defaultSettings(),
    },
    withTracking,
  );
  if (!result.ok) throw new Error(`Order refused: ${JSON.stringify(result)}`);
  return result.orderId;
}

async function charged(db: Db, pix = provider(db)) {
  const orderId = await placed(db);
  const paid = await payOrder(db, pix, orderId);
  if (!paid.ok) throw new Error(paid.error);
  return { orderId, txid: paid.paymentId };
}

const order = async (db: Db, orderId: string) => (await getOrder(db, orderId))!;

const webhook = (db: Db, body: string, pix: PixApiProvider | null) =>
  pixApiWebhook({
    request: new Request('https://loja.test/api/payments/pix-api/pix', { method: 'POST', body }),
    context: { db, payments: async () => pix, orderEvents: withTracking },
    params: {},
  } as unknown as Parameters<typeof pixApiWebhook>[0]);

describeDb('PIX through the bank’s API Pix', ({ db }) => {
  beforeEach(async () => {
    await db()
      .insert(products)
      .values({ id: FONE, name: 'Fone', priceCents: FONE_CENTS, stockQuantity: 100 });
    fake.setWebhookOn(false);
    fake.setBareArrayWebhook(false);
    vi.spyOn(logger, 'warn');
    vi.spyOn(logger, 'error');
    vi.spyOn(logger, 'info');
  });

  afterEach(() => {
    // No secret, key or token in any log line of the test.
    const logged = JSON.stringify([
      ...vi.mocked(logger.warn).mock.calls,
      ...vi.mocked(logger.error).mock.calls,
      ...vi.mocked(logger.info).mock.calls,
    ]);
    expect(logged).not.toContain(CLIENT_SECRET);
    expect(logged).not.toContain('PRIVATE KEY');
    vi.restoreAllMocks();
  });

  it('charges the order with a txid of its own (PUT /cob) and shows the bank’s copia e cola', async () => {
    const { orderId, txid } = await charged(db());
    expect(txid).toMatch(/^[a-z0-9]{35}$/);
    expect(pixApiOrderId(txid)).toBe(orderId);
    const charge = fake.charges.get(txid)!;
    const stored = await order(db(), orderId);
    expect(charge).toMatchObject({
      status: 'ATIVA',
      valor: (stored.totalCents / 100).toFixed(2),
      chave: PIX_KEY,
      devedor: { cpf: stored.customer.cpf.replace(/\D/g, ''), nome: stored.customer.name },
      solicitacaoPagador: `Pedido ${stored.number}`,
    });
    expect(stored.payment).toMatchObject({ provider: 'pix-api', id: txid, status: 'pending' });
    expect(stored.payment.pixCode).toContain(txid);
  });

  it('confirms by the webhook ({"pix":[…]} and Inter’s bare array), re-reading each charge', async () => {
    const pix = provider(db());
    const first = await charged(db(), pix);
    const second = await charged(db(), pix);
    await fake.pay(first.txid);
    await fake.pay(second.txid);
    const body = (txid: string) => ({
      endToEndId: fake.charges.get(txid)!.pix[0]!.endToEndId,
      txid,
      valor: fake.charges.get(txid)!.valor,
      horario: new Date().toISOString(),
    });
    expect(await webhook(db(), JSON.stringify({ pix: [body(first.txid)] }), pix)).toEqual({
      ok: true,
      settled: 1,
    });
    expect(await webhook(db(), JSON.stringify([body(second.txid)]), pix)).toEqual({
      ok: true,
      settled: 1,
    });
    expect((await order(db(), first.orderId)).status).toBe('confirmed');
    expect((await order(db(), second.orderId)).status).toBe('confirmed');
    // The same callback again changes nothing.
    await webhook(db(), JSON.stringify({ pix: [body(first.txid)] }), pix);
    const confirmations = await db()
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, first.orderId));
    expect(confirmations.filter((event) => event.toStatus === 'confirmed')).toHaveLength(1);
  });

  it('believes no callback: an unpaid charge named in one stays pending; junk is a 400, another provider a 404', async () => {
    const pix = provider(db());
    const { orderId, txid } = await charged(db(), pix);
    const forged = {
      endToEndId: `E${'1'.repeat(31)}`,
      txid,
      valor: '299.90',
      horario: new Date().toISOString(),
    };
    await webhook(db(), JSON.stringify({ pix: [forged] }), pix);
    expect((await order(db(), orderId)).status).toBe('pending');
    const junk = (await webhook(db(), '{"pix": 3', pix)) as { init: { status: number } };
    expect(junk.init.status).toBe(400);
    const elsewhere = (await webhook(db(), '{"pix":[]}', null)) as { init: { status: number } };
    expect(elsewhere.init.status).toBe(404);
  });

  it('confirms on the page’s polling, and the reconciliation finds a PIX whose webhook never came', async () => {
    const pix = provider(db());
    const polled = await charged(db(), pix);
    await fake.pay(polled.txid);
    const refreshed = await refreshPayment(
      db(),
      pix,
      await order(db(), polled.orderId),
      withTracking,
    );
    expect(refreshed.order.status).toBe('confirmed');

    const lost = await charged(db(), pix);
    await fake.pay(lost.txid);
    const now = new Date();
    expect(await reconcilePixPayments(db(), pix, withTracking, { intervalMs: 60_000, now })).toBe(
      1,
    );
    expect((await order(db(), lost.orderId)).status).toBe('confirmed');
    // Within the interval the run is no instance's turn again.
    expect(
      await reconcilePixPayments(db(), pix, withTracking, {
        intervalMs: 60_000,
        now: new Date(now.getTime() + 30_000),
      }),
    ).toBeNull();
  });

  it('flags a PIX of the wrong amount to staff and leaves the order pending', async () => {
    const pix = provider(db());
    for (const amountCents of [100, FONE_CENTS + 5_000]) {
      const { orderId, txid } = await charged(db(), pix);
      await fake.pay(txid, { amountCents });
      await refreshPayment(db(), pix, await order(db(), orderId), withTracking);
      const flagged = await order(db(), orderId);
      expect(flagged.status).toBe('pending');
      expect(flagged.payment.review).toContain('diferente do valor cobrado');
    }
  });

  it('“Gerar novo PIX” makes a new charge and removes the old one (PATCH REMOVIDA_PELO_USUARIO_RECEBEDOR)', async () => {
    const pix = provider(db());
    const { orderId, txid } = await charged(db(), pix);
    const later = new Date(Date.now() + 2 * 60 * 60_000);
    await db().update(orders).set({ paymentStatus: 'expired' }).where(eq(orders.id, orderId));
    const again = await payOrder(db(), pix, orderId, { now: later });
    expect(again.ok && again.paymentId).not.toBe(txid);
    expect(again.ok && pixApiOrderId(again.paymentId)).toBe(orderId);
    expect(fake.charges.get(txid)!.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });

  it('refunds a paid order once (PUT /pix/{e2eid}/devolucao/{id}) and writes it in the timeline', async () => {
    const created = await createAdmin(db(), ADMIN);
    if (!created.ok) throw new Error(created.error);
    const admin = { id: created.id, email: ADMIN.email, fullName: ADMIN.fullName };
    const pix = provider(db());
    const { orderId, txid } = await charged(db(), pix);
    await fake.pay(txid);
    await refreshPayment(db(), pix, await order(db(), orderId), withTracking);
    const before = fake.refundRequests();
    const result = await refundOrderByStaff(db(), pix, orderId, admin, withTracking);
    expect(result).toMatchObject({ ok: true });
    expect(await refundOrderByStaff(db(), pix, orderId, admin, withTracking)).toEqual({
      ok: true,
      message: REFUND_MESSAGES.alreadyRefunded,
    });
    expect(fake.refundRequests() - before).toBe(1);
    const refunded = await order(db(), orderId);
    expect(refunded).toMatchObject({ status: 'cancelled', payment: { status: 'refunded' } });
    const notes = (
      await db()
        .select({ note: orderEvents.note })
        .from(orderEvents)
        .where(eq(orderEvents.orderId, orderId))
        .orderBy(asc(orderEvents.id))
    ).map((row) => row.note);
    expect(notes).toContainEqual(
      expect.stringMatching(/^Reembolso de R\$ .* feito pelo banco \(API Pix\)/),
    );
  });

  it('renews an expired token once for 50 charges at once on two instances, and keeps it sealed', async () => {
    const instances = [provider(db()), provider(db())];
    await charged(db(), instances[0]);
    fake.expireTokens();
    const before = fake.tokensIssued();
    const orderIds = await Promise.all(Array.from({ length: 50 }, () => placed(db())));
    const paid = await Promise.all(
      orderIds.map((orderId, index) => payOrder(db(), instances[index % 2]!, orderId)),
    );
    expect(paid.every((result) => result.ok)).toBe(true);
    expect(fake.tokensIssued() - before).toBe(1);
    const [row] = await db().select().from(providerTokens);
    expect(row!.sealed).toBeTruthy();
    expect(row!.sealed).not.toContain(CLIENT_SECRET);
  }, 60_000);

  it('takes the token another instance saved between its look and its lease, instead of asking again', async () => {
    const first = provider(db());
    await charged(db(), first);
    fake.expireTokens();
    const before = fake.tokensIssued();
    const shared = sharedTokens(db());
    let other: Promise<unknown> | undefined;
    const second = provider(db(), pem, {
      ...shared,
      // This instance has seen the refused token; the other renews and saves it, freeing the
      // lease, before this one asks for the lease.
      async lease(now, ms) {
        other ??= placed(db()).then((orderId) => payOrder(db(), first, orderId));
        await other;
        return shared.lease(now, ms);
      },
    });
    const paid = await payOrder(db(), second, await placed(db()));
    expect(paid.ok).toBe(true);
    expect(other).toBeDefined();
    expect(fake.tokensIssued() - before).toBe(1);
  });

  it('is refused without the bank’s CA-signed client certificate, and works with the PKCS#12 file', async () => {
    const stranger = provider(db(), {
      cert: await readFile(pki.strangerCert),
      key: await readFile(pki.strangerKey),
      ca: pem.ca,
    });
    const orderId = await placed(db());
    const refused = await payOrder(db(), stranger, orderId);
    expect(refused.ok).toBe(false);
    expect((await order(db(), orderId)).payment.id).toBeNull();

    const p12 = pixApiTlsFromUpload(
      (await readFile(pki.clientP12)).toString('base64'),
      pki.p12Password,
    );
    const efi = provider(db(), { ...p12, ca: pem.ca });
    expect((await efi.testConnection()).ok).toBe(true);
    const { txid } = await charged(db(), efi);
    expect(fake.charges.get(txid)!.status).toBe('ATIVA');

    // A .pem uploaded with the certificate and its key in one file.
    const bundle = Buffer.concat([await readFile(pki.clientCert), await readFile(pki.clientKey)]);
    const pemUpload = pixApiTlsFromUpload(bundle.toString('base64'));
    expect((await provider(db(), { ...pemUpload, ca: pem.ca }).testConnection()).ok).toBe(true);
  });

  it('registers the webhook (PUT /webhook/{chave}) and reads it back', async () => {
    const pix = provider(db());
    expect(await pix.registerWebhook()).toEqual({
      ok: true,
      value: 'https://loja.test/api/payments/pix-api',
    });
    expect(await pix.webhook()).toEqual({
      ok: true,
      value: 'https://loja.test/api/payments/pix-api',
    });
  });
});

it('no request or answer of this file broke the API Pix spec', () => {
  expect(fake.requests.length).toBeGreaterThan(0);
  expect(fake.violations).toEqual([]);
});
