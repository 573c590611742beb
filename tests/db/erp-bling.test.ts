import { randomBytes, randomUUID } from 'node:crypto';

import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

import { erpConnections, erpOrders, orderEvents, orderItems, outbox, products } from '~/db/schema';
import { changeOrderStatus } from '~/flows/admin-order-status.server';
import { runOrderAction } from '~/flows/admin-orders.server';
import {
  erpHandlers,
  issueInvoicesBy,
  noteErpNotification,
  retryInvoiceBy,
  sendOrderToErpBy,
  type ErpAccess,
} from '~/flows/erp-orders.server';
import type { StaffMember } from '~/flows/order-changes.server';
import { placeOrder } from '~/flows/place-order.server';
import { createAdmin } from '~/modules/auth/index.server';
import { loadSecretsKey, secretsVault, type SecretsKey } from '~/modules/connections/index.server';
import { blingInvoiceLink, ERP_MESSAGES } from '~/modules/erp';
import {
  accessToken,
  beginAuthorization,
  connectionState,
  createBling,
  ERP_TOPICS,
  ErpError,
  getErpOrder,
  saveAuthorization,
  takeAuthorizationState,
} from '~/modules/erp/index.server';
import { defaultSettings, type StoreSettings } from '~/modules/settings';

import { ADMIN } from '../support/admin';
import { describeDb, queryRows } from '../support/db';
import { startFakeBling, type FakeBling } from '../support/fake-bling';
import { shopperAddress } from '../support/shoppers';
import { shopperCheckout } from '../support/visitor';

const CLIENT_ID = 'bling-client-7731';
const CLIENT_SECRET = 'bling-secret-0c9f2a77e1';
const LAMP = '5a3b1e00-0000-4000-8000-00000000b001';
const LAMP_SKU = 'LUM-MESA-01';

let fake: FakeBling;
let key: SecretsKey;

beforeAll(async () => {
  fake = await startFakeBling({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    rateLimitPerSecond: 1000,
  });
  key = (await loadSecretsKey({ secretsKey: randomBytes(32).toString('base64') }))!;
});

afterAll(async () => {
  await fake.close();
});

const bling = () =>
  createBling({
    apiUrl: fake.url,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    rateLimitPauseMs: () => 5,
  });

function settings(patch: Partial<StoreSettings> = {}): StoreSettings {
  return { ...defaultSettings(), store_name: 'Loja Teste', ...patch };
}

describeDb('notas fiscais through Bling', ({ db }) => {
  let admin: StaffMember;
  let storeSettings: StoreSettings;
  const access = (): ErpAccess => ({ erp: bling(), vault: secretsVault(key) });
  const handlers = () =>
    erpHandlers({
      db: db(),
      erp: async () => access(),
      settings: { get: async () => storeSettings },
    });

  /** Runs the outbox's ERP jobs due now, in order, until none is left (a job may queue the next). */
  async function runErpJobs(): Promise<void> {
    const run = handlers();
    for (let round = 0; round < 20; round++) {
      const due = await db()
        .select()
        .from(outbox)
        .where(
          sql`${outbox.status} = 'pending' and ${outbox.topic} like 'erp.%' and ${outbox.runAt} <= now()`,
        )
        .orderBy(asc(outbox.id));
      if (due.length === 0) return;
      for (const job of due) {
        await db().update(outbox).set({ status: 'done' }).where(eq(outbox.id, job.id));
        await run[job.topic]!(job.payload, new AbortController().signal);
      }
    }
  }

  async function connect(): Promise<void> {
    await saveAuthorization(db(), secretsVault(key), 'bling', fromGrant(fake.grant()), new Date());
  }

  const fromGrant = (grant: {
    access_token: string;
    refresh_token: string;
    expires_in: number;
  }) => ({
    accessToken: grant.access_token,
    refreshToken: grant.refresh_token,
    expiresInSeconds: grant.expires_in,
  });

  async function paidOrder(): Promise<string> {
    const placed = await placeOrder(
      db(),
      {
        form: shopperCheckout({ customerCpf: '52998224725' }),
        cart: [
          {
            productId: LAMP,
            variantId: null,
            quantity: 2,
            seenPriceCents: 15990,
            seenName: 'Luminária de mesa',
          },
        ],
        orderToken: randomUUID(),
        clientAddress: shopperAddress(),
        trackingParameters: {},
        settings: defaultSettings(),
      },
      { tracking: false },
    );
    if (!placed.ok) throw new Error(`Order refused: ${JSON.stringify(placed)}`);
    const paid = await changeOrderStatus(
      db(),
      { orderId: placed.orderId, to: 'confirmed', trackingCode: null, admin },
      { tracking: false },
    );
    if (!paid.ok) throw new Error(paid.error);
    return placed.orderId;
  }

  const notes = async (orderId: string) =>
    (
      await db()
        .select({ note: orderEvents.note })
        .from(orderEvents)
        .where(sql`${orderEvents.orderId} = ${orderId} and ${orderEvents.kind} = 'invoice'`)
        .orderBy(asc(orderEvents.id))
    ).map((row) => row.note);

  beforeEach(async () => {
    storeSettings = settings();
    fake.orders.length = 0;
    fake.contacts.length = 0;
    fake.invoices.length = 0;
    fake.products.length = 0;
    fake.addProduct(LAMP_SKU, 'Luminária de mesa');
    await db()
      .insert(products)
      .values({ id: LAMP, name: 'Luminária de mesa', priceCents: 15990, stockQuantity: 50 });
    // The product's own variant takes the code Bling knows it by.
    await db().execute(
      sql`update product_variants set sku = ${LAMP_SKU} where product_id = ${LAMP}`,
    );
    const created = await createAdmin(db(), ADMIN);
    if (!created.ok) throw new Error(created.error);
    admin = { id: created.id, email: ADMIN.email, fullName: ADMIN.fullName };
  });

  it('connects: the state is single use, the code is exchanged with Basic auth, tokens sealed', async () => {
    const now = new Date();
    const state = await beginAuthorization(db(), 'bling', now);
    expect(await takeAuthorizationState(db(), 'bling', 'forjado', now)).toBe(false);
    expect(await takeAuthorizationState(db(), 'bling', state, now)).toBe(true);
    expect(await takeAuthorizationState(db(), 'bling', state, now)).toBe(false);
    const late = await beginAuthorization(db(), 'bling', now);
    expect(
      await takeAuthorizationState(db(), 'bling', late, new Date(now.getTime() + 16 * 60_000)),
    ).toBe(false);

    fake.redirectUri = 'http://loja.test/admin/integrations/bling/callback';
    const authorize = await fetch(bling().authorizeUrl(state));
    expect(authorize.status).toBe(200);
    const approved = await fetch(`${fake.url}/oauth/authorize/approve?state=${state}`, {
      redirect: 'manual',
    });
    const back = new URL(approved.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe(state);
    const tokens = await bling().exchangeCode(back.searchParams.get('code')!);
    await saveAuthorization(db(), secretsVault(key), 'bling', tokens, now);
    const tokenCall = fake.requests.findLast((request) => request.path === '/oauth/token')!;
    expect(tokenCall.headers.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    );
    expect(await connectionState(db(), 'bling')).toMatchObject({ state: 'connected' });
    // No token in clear anywhere in the table.
    const dump = JSON.stringify(await queryRows(db(), sql`select * from erp_connections`));
    expect(dump).not.toContain(tokens.accessToken);
    expect(dump).not.toContain(tokens.refreshToken);
    // A code works once.
    await expect(bling().exchangeCode(back.searchParams.get('code')!)).rejects.toMatchObject({
      failure: 'revoked',
    });
  });

  it('sends a paid order once, even when the first answer is lost, and finds the contact by CPF', async () => {
    await connect();
    fake.addContact('52998224725', 'Maria já cadastrada');
    const orderId = await paidOrder();
    // Paid while connected: queued in the payment's own transaction.
    expect((await getErpOrder(db(), orderId))?.sendState).toBe('queued');
    fake.dropNextOrderAnswer();
    await expect(runErpJobs()).rejects.toBeInstanceOf(ErpError);
    expect(fake.orders).toHaveLength(1);
    // The outbox's retry finds the order by its number instead of creating another.
    await handlers()[ERP_TOPICS.sendOrder]!({ orderId }, new AbortController().signal);
    expect(fake.orders).toHaveLength(1);
    const row = await getErpOrder(db(), orderId);
    expect(row).toMatchObject({ sendState: 'sent', erpOrderId: String(fake.orders[0]!.id) });
    expect(fake.contacts).toHaveLength(1);
    const sent = fake.orders[0]!;
    expect(sent.contato.id).toBe(fake.contacts[0]!.id);
    expect(sent.body).toMatchObject({
      itens: [
        { codigo: LAMP_SKU, quantidade: 2, valor: 159.9, produto: { id: fake.products[0]!.id } },
      ],
      parcelas: [{ valor: expect.any(Number) }],
    });
    expect(sent.numeroLoja).toMatch(/^\d+$/);
    // 'Enviar ao Bling' afterwards changes nothing.
    expect(await sendOrderToErpBy(db(), orderId, { actor: 'Gerente' })).toEqual({
      ok: true,
      message: ERP_MESSAGES.alreadySent,
    });
    expect((await notes(orderId)).at(-1)).toContain('Pedido enviado ao Bling');
  });

  it("creates the contact when Bling has none, and refuses an item whose SKU it doesn't know", async () => {
    await connect();
    const orderId = await paidOrder();
    await runErpJobs();
    expect(fake.contacts).toMatchObject([{ numeroDocumento: '52998224725', tipo: 'F' }]);

    const other = await paidOrder();
    await db().update(orderItems).set({ sku: 'NAO-EXISTE' }).where(eq(orderItems.orderId, other));
    await runErpJobs();
    const row = await getErpOrder(db(), other);
    expect(row?.sendState).toBe('refused');
    expect(row?.sendError).toContain('NAO-EXISTE');
    expect(fake.orders).toHaveLength(1);
    expect(orderId).not.toBe(other);
  });

  it("'Emitir NF-e' gives an authorized note: number, 44-digit key, DANFE, an e-mail queued", async () => {
    await connect();
    const orderId = await paidOrder();
    await runErpJobs();
    expect(await issueInvoicesBy(db(), [orderId], { actor: 'Gerente' })).toEqual({
      ok: true,
      message: ERP_MESSAGES.invoiceQueued,
    });
    await runErpJobs();
    const row = await getErpOrder(db(), orderId);
    expect(row).toMatchObject({ invoiceState: 'authorized', invoiceNumber: '000001' });
    expect(row?.invoiceKey).toMatch(/^\d{44}$/);
    expect(row?.danfeUrl).toMatch(/\/danfe\/\d+\.pdf$/);
    const mail = await db().select().from(outbox).where(eq(outbox.topic, ERP_TOPICS.invoiceEmail));
    expect(mail).toHaveLength(1);
    // Asked again: nothing new at Bling.
    expect(await issueInvoicesBy(db(), [orderId], { actor: 'Gerente' })).toMatchObject({
      ok: false,
      error: ERP_MESSAGES.invoiceAlready,
    });
    expect(fake.invoices).toHaveLength(1);

    // Cancelled here, the note stays authorized: staff are told to cancel it in Bling.
    const cancelled = await runOrderAction(
      {
        db: db(),
        orderEvents: { tracking: false },
        settings: { get: async () => storeSettings },
        payments: async () => null,
        shippingLabels: async () => null,
      },
      orderId,
      { intent: 'status', status: 'cancelled' },
      admin,
    );
    expect(cancelled).toMatchObject({ ok: true, warning: true });
    expect(cancelled.ok && cancelled.message).toContain(
      ERP_MESSAGES.cancelInBling(blingInvoiceLink(String(fake.invoices[0]!.id))),
    );
  });

  it("'Emitir NF-e' for the orders ticked asks for each paid one and says how many", async () => {
    await connect();
    const first = await paidOrder();
    const second = await paidOrder();
    await runErpJobs();
    expect(await issueInvoicesBy(db(), [first, second], { actor: 'Gerente' })).toEqual({
      ok: true,
      message: ERP_MESSAGES.invoicesQueued(2),
    });
    await runErpJobs();
    expect(fake.invoices).toHaveLength(2);
    expect(await issueInvoicesBy(db(), [first, randomUUID()], { actor: 'Gerente' })).toMatchObject({
      ok: false,
      status: 409,
    });
  });

  it('with invoice_on = paid the note follows the order; a pending note is read again on notice', async () => {
    storeSettings = settings({ invoice_on: 'paid' });
    await connect();
    fake.holdInvoices(true);
    const orderId = await paidOrder();
    await runErpJobs();
    expect((await getErpOrder(db(), orderId))?.invoiceState).toBe('pending');
    fake.authorizePending();
    fake.holdInvoices(false);
    const { body, signature } = fake.invoiceWebhook(fake.invoices[0]!.id);
    const scope = { db: db(), erp: async () => access() };
    expect(await noteErpNotification(scope, body, 'sha256=00')).toBe('unsigned');
    expect(await noteErpNotification(scope, body, signature)).toBe('queued');
    await runErpJobs();
    expect((await getErpOrder(db(), orderId))?.invoiceState).toBe('authorized');
  });

  it("a rejected note shows SEFAZ's reason and goes through after 'Tentar de novo'", async () => {
    await connect();
    const orderId = await paidOrder();
    await runErpJobs();
    const reason = 'Rejeição 778: Informado NCM inexistente';
    fake.rejectNextInvoice(reason);
    await issueInvoicesBy(db(), [orderId], { actor: 'Gerente' });
    await runErpJobs();
    expect(await getErpOrder(db(), orderId)).toMatchObject({
      invoiceState: 'rejected',
      invoiceReason: reason,
    });
    expect(await notes(orderId)).toContain(`NF-e rejeitada pela SEFAZ: ${reason}`);
    expect(await retryInvoiceBy(db(), orderId, { actor: 'Gerente' })).toEqual({
      ok: true,
      message: ERP_MESSAGES.retryQueued,
    });
    await runErpJobs();
    expect(await getErpOrder(db(), orderId)).toMatchObject({
      invoiceState: 'authorized',
      invoiceReason: null,
    });
    expect(fake.invoices).toHaveLength(1);
    expect(await retryInvoiceBy(db(), orderId, { actor: 'Gerente' })).toMatchObject({ ok: false });
  });

  it("a note Bling refuses to generate shows its words, and is generated after 'Tentar de novo'", async () => {
    await connect();
    const orderId = await paidOrder();
    await runErpJobs();
    fake.refuseNextGeneration('Natureza de operação padrão não configurada');
    await issueInvoicesBy(db(), [orderId], { actor: 'Gerente' });
    await runErpJobs();
    expect(await getErpOrder(db(), orderId)).toMatchObject({
      invoiceState: 'rejected',
      invoiceId: null,
      invoiceReason: 'Natureza de operação padrão não configurada',
    });
    expect(fake.invoices).toHaveLength(0);
    await retryInvoiceBy(db(), orderId, { actor: 'Gerente' });
    await runErpJobs();
    expect(await getErpOrder(db(), orderId)).toMatchObject({ invoiceState: 'authorized' });
    expect(fake.invoices).toHaveLength(1);
  });

  it('renews an expired token once for 20 orders sent at once', async () => {
    await connect();
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await paidOrder());
    fake.expireAccessTokens();
    await db()
      .update(erpConnections)
      .set({ expiresAt: new Date(Date.now() - 1000) });
    const refreshes = fake.tokenGrants.refresh_token;
    const run = handlers();
    await Promise.all(
      ids.map((orderId) => run[ERP_TOPICS.sendOrder]!({ orderId }, new AbortController().signal)),
    );
    expect(fake.tokenGrants.refresh_token - refreshes).toBe(1);
    expect(fake.orders).toHaveLength(20);
    const sent = await db().select({ state: erpOrders.sendState }).from(erpOrders);
    expect(sent.every((row) => row.state === 'sent')).toBe(true);
  });

  it('a token Bling refuses before its time is renewed once, and every call made again', async () => {
    await connect();
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await paidOrder());
    // Bling let the tokens go while the store still thinks them good.
    fake.expireAccessTokens();
    const refreshes = fake.tokenGrants.refresh_token;
    const run = handlers();
    await Promise.all(
      ids.map((orderId) => run[ERP_TOPICS.sendOrder]!({ orderId }, new AbortController().signal)),
    );
    expect(fake.tokenGrants.refresh_token - refreshes).toBe(1);
    expect(fake.orders).toHaveLength(20);
  });

  it('a refused refresh marks the connection revoked', async () => {
    await connect();
    fake.revoke();
    await db()
      .update(erpConnections)
      .set({ expiresAt: new Date(Date.now() - 1000) });
    await expect(
      accessToken(db(), secretsVault(key), bling(), () => new Date()),
    ).rejects.toMatchObject({
      failure: 'revoked',
    });
    expect(await connectionState(db(), 'bling')).toMatchObject({ state: 'revoked' });
  });
});
