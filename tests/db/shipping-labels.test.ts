import { randomUUID } from 'node:crypto';

import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { erpOrders, orderEvents, orders, outbox, products } from '~/db/schema';
import { changeOrderStatus } from '~/flows/admin-order-status.server';
import type { StaffMember } from '~/flows/order-changes.server';
import { placeOrder } from '~/flows/place-order.server';
import {
  buyShippingLabel,
  buyShippingLabels,
  followNotifiedShipment,
  followShippedLabels,
  LABEL_MESSAGES,
  labelsSummary,
  type LabelScope,
} from '~/flows/shipping-labels.server';
import { createAdmin } from '~/modules/auth/index.server';
import { claimLabelLease, releaseLabelLease, ORDER_TOPICS } from '~/modules/orders/index.server';
import { defaultSettings, type StoreSettings } from '~/modules/settings';
import {
  createMelhorEnvioLabels,
  LABEL_REFUSALS,
  readMelhorEnvioWebhook,
} from '~/modules/shipping/index.server';

import { ADMIN } from '../support/admin';
import { describeDb } from '../support/db';
import { SEDEX_SHIPPING } from '../support/orders';
import {
  signMelhorEnvioWebhook,
  startFakeMelhorEnvio,
  type FakeMelhorEnvio,
} from '../support/fake-melhorenvio';
import { shopperAddress } from '../support/shoppers';
import { shopperCheckout } from '../support/visitor';

const TOKEN = 'me-labels-token-5521';
const SECRET = 'me-labels-secret-8830';
const LAMP = '5a3b1e00-0000-4000-8000-00000000f001';

let fake: FakeMelhorEnvio;

beforeAll(async () => {
  fake = await startFakeMelhorEnvio({ token: TOKEN, webhookSecret: SECRET });
});

afterAll(async () => {
  await fake.close();
});

function settings(patch: Partial<StoreSettings> = {}): StoreSettings {
  return {
    ...defaultSettings(),
    store_name: 'Loja Teste',
    contact_email: 'contato@loja.test',
    contact_phone: '(11) 4000-1234',
    legal_name: 'Loja Teste Comércio Ltda.',
    cnpj: '11.222.333/0001-81',
    shipping_origin_cep: '01310100',
    shipping_origin_street: 'Rua Augusta',
    shipping_origin_number: '500',
    shipping_origin_complement: 'Loja 2',
    shipping_origin_district: 'Consolação',
    shipping_origin_city: 'São Paulo',
    shipping_origin_state: 'SP',
    ...patch,
  };
}

function labels(timeoutMs?: number) {
  return createMelhorEnvioLabels({
    apiUrl: fake.url,
    token: TOKEN,
    userAgent: async () => 'Loja Teste (contato@loja.test)',
    timeoutMs,
  });
}

async function seed(db: Db): Promise<StaffMember> {
  await db
    .insert(products)
    .values({ id: LAMP, name: 'Luminária de mesa', priceCents: 15990, stockQuantity: 50 });
  const created = await createAdmin(db, ADMIN);
  if (!created.ok) throw new Error(created.error);
  return { id: created.id, email: ADMIN.email, fullName: ADMIN.fullName };
}

/** A paid order (Confirmado) that ships by Melhor Envio's SEDEX, its outbox emptied. */
async function paidOrder(db: Db, admin: StaffMember): Promise<string> {
  const placed = await placeOrder(
    db,
    {
      form: shopperCheckout(),
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
  // As checkout records the shopper's choice of a carrier's service.
  await db
    .update(orders)
    .set({ shippingMethod: SEDEX_SHIPPING })
    .where(eq(orders.id, placed.orderId));
  const paid = await changeOrderStatus(
    db,
    { orderId: placed.orderId, to: 'confirmed', trackingCode: null, admin },
    { tracking: false },
  );
  if (!paid.ok) throw new Error(paid.error);
  await db.delete(outbox);
  return placed.orderId;
}

async function orderRow(db: Db, orderId: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row!;
}

const notesOf = async (db: Db, orderId: string) =>
  (
    await db
      .select({ kind: orderEvents.kind, note: orderEvents.note, actor: orderEvents.actor })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, orderId))
      .orderBy(asc(orderEvents.id))
  ).map((event) => event.note);

const topics = async (db: Db) =>
  (await db.select({ topic: outbox.topic }).from(outbox).orderBy(asc(outbox.id))).map(
    (row) => row.topic,
  );

describeDb('shipping labels through Melhor Envio', ({ db }) => {
  let admin: StaffMember;
  const by = () => admin;
  const scope = (patch: Partial<LabelScope> = {}): LabelScope => ({
    db: db(),
    labels: labels(),
    settings: settings(),
    events: { tracking: false },
    ...patch,
  });

  beforeEach(async () => {
    admin = await seed(db());
    fake.setBalance(1000);
    fake.setDelay(0, '/me/shipment/checkout');
    fake.setFailure(null, '/me/shipment/checkout');
  });

  it('buys the label: cart, payment, generation, print, tracking code, Enviado and one e-mail', async () => {
    const orderId = await paidOrder(db(), admin);
    const purchases = fake.purchaseCalls();
    const result = await buyShippingLabel(scope(), orderId, by());

    const row = await orderRow(db(), orderId);
    expect(row.status).toBe('shipped');
    expect(row.trackingCode).toMatch(/^AA\d{9}BR$/);
    expect(result).toEqual({ ok: true, message: LABEL_MESSAGES.done(row.trackingCode!) });
    expect(fake.purchaseCalls()).toBe(purchases + 1);
    const label = row.shippingLabel!;
    expect(label).toMatchObject({
      provider: 'melhorenvio',
      step: 'tracked',
      trackingCode: row.trackingCode,
      carrierStatus: 'generated',
    });
    expect(label.labelUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/imprimir\/[0-9a-f]{32}$/);
    const shipment = fake.orders.get(label.shipmentId)!;
    expect(label.protocol).toBe(shipment.protocol);
    expect(label.priceCents).toBe(Math.round(shipment.price * 100));
    // The shipment as the cart took it: from the store's address to the shopper's, insured for
    // the goods, as a content declaration, in kilograms.
    expect(shipment.from).toMatchObject({
      name: 'Loja Teste Comércio Ltda.',
      company_document: '11222333000181',
      address: 'Rua Augusta',
      state_abbr: 'SP',
      postal_code: '01310100',
    });
    expect(shipment.to).toMatchObject({ address: 'Avenida Paulista', postal_code: '01310100' });
    expect(shipment.insurance_value).toBe(319.8);
    expect(shipment.non_commercial).toBe(true);
    expect(shipment.invoice_key).toBeNull();
    expect(shipment.volumes).toEqual([{ height: 20, width: 15, length: 20, weight: 0.6 }]);

    expect(await topics(db())).toEqual([ORDER_TOPICS.orderShipped]);
    const notes = await notesOf(db(), orderId);
    expect(notes.slice(-5)).toEqual([
      `Envio criado no Melhor Envio (${shipment.protocol}), frete de R$ ${shipment.price.toFixed(2).replace('.', ',')}.`,
      'Etiqueta paga com o saldo do Melhor Envio.',
      'Etiqueta gerada no Melhor Envio.',
      'Etiqueta pronta para imprimir.',
      `Etiqueta do Melhor Envio (${shipment.protocol}). Código de rastreio: ${row.trackingCode}`,
    ]);

    // Asked again, nothing is bought.
    expect(await buyShippingLabel(scope(), orderId, by())).toEqual({
      ok: true,
      message: LABEL_MESSAGES.already,
    });
    expect(fake.purchaseCalls()).toBe(purchases + 1);
  });

  it("sends the authorized NF-e's key instead of a content declaration", async () => {
    const orderId = await paidOrder(db(), admin);
    const key = '35261211222333000181550010000000071000000078';
    await db().insert(erpOrders).values({
      orderId,
      provider: 'bling',
      sendState: 'sent',
      erpOrderId: '9000001',
      invoiceRequested: true,
      invoiceId: '9000002',
      invoiceState: 'authorized',
      invoiceNumber: '000007',
      invoiceKey: key,
    });
    const result = await buyShippingLabel(scope(), orderId, by());
    expect(result.ok).toBe(true);
    const shipment = fake.orders.get((await orderRow(db(), orderId)).shippingLabel!.shipmentId)!;
    expect(shipment).toMatchObject({ non_commercial: false, invoice_key: key });
  });

  it('says why in pt-BR when the balance is short, buys nothing and leaves the order as it was', async () => {
    const orderId = await paidOrder(db(), admin);
    fake.setBalance(1);
    const purchases = fake.purchaseCalls();
    const result = await buyShippingLabel(scope(), orderId, by());

    expect(result.ok).toBe(false);
    const error = (result as { error: string }).error;
    expect(error).toMatch(/^Saldo insuficiente na carteira do Melhor Envio/);
    expect(error).toContain('Seu saldo de R$ 1.00 é insuficiente');
    expect(fake.purchaseCalls()).toBe(purchases);
    const row = await orderRow(db(), orderId);
    expect(row).toMatchObject({ status: 'confirmed', trackingCode: null, labelLeaseUntil: null });
    expect(row.shippingLabel).toMatchObject({ step: 'cart' });
    expect(await topics(db())).toEqual([]);
    expect((await notesOf(db(), orderId)).at(-1)).toBe(`Etiqueta não gerada: ${error}`);

    // With money in the wallet, the same shipment is paid: no second one in the cart.
    fake.setBalance(1000);
    const cartCalls = () => fake.requests.filter((request) => request.path.endsWith('/me/cart'));
    const before = cartCalls().length;
    expect((await buyShippingLabel(scope(), orderId, by())).ok).toBe(true);
    expect(cartCalls().length).toBe(before);
    expect(fake.purchaseCalls()).toBe(purchases + 1);
  });

  it('refuses in pt-BR without the origin address or a carrier service, calling nobody', async () => {
    const orderId = await paidOrder(db(), admin);
    const calls = fake.requests.length;
    const noOrigin = await buyShippingLabel(
      scope({ settings: settings({ shipping_origin_street: '' }) }),
      orderId,
      by(),
    );
    expect(noOrigin).toEqual({ ok: false, status: 409, error: LABEL_MESSAGES.noOrigin });
    expect(fake.requests.length).toBe(calls);
    expect((await notesOf(db(), orderId)).at(-1)).toBe(
      `Etiqueta não gerada: ${LABEL_MESSAGES.noOrigin}`,
    );
    await db()
      .update(orders)
      .set({ shippingMethod: { ...SEDEX_SHIPPING, provider: null, serviceId: null } })
      .where(eq(orders.id, orderId));
    expect(await buyShippingLabel(scope(), orderId, by())).toEqual({
      ok: false,
      status: 409,
      error: LABEL_MESSAGES.noService,
    });
    expect((await orderRow(db(), orderId)).status).toBe('confirmed');
  });

  it('buys once when the checkout answer times out and staff try again', async () => {
    const orderId = await paidOrder(db(), admin);
    const purchases = fake.purchaseCalls();
    fake.setDelay(600, '/me/shipment/checkout');
    const first = await buyShippingLabel(scope({ labels: labels(200) }), orderId, by());
    expect(first).toEqual({ ok: false, status: 409, error: LABEL_REFUSALS.slow });
    expect((await orderRow(db(), orderId)).status).toBe('confirmed');
    // Melhor Envio went on and took the money after our call gave up.
    await expect.poll(() => fake.purchaseCalls(), { timeout: 5000 }).toBe(purchases + 1);
    fake.setDelay(0, '/me/shipment/checkout');

    const second = await buyShippingLabel(scope(), orderId, by());
    expect(second.ok).toBe(true);
    expect(fake.purchaseCalls()).toBe(purchases + 1);
    expect((await orderRow(db(), orderId)).status).toBe('shipped');
    expect(await topics(db())).toEqual([ORDER_TOPICS.orderShipped]);
  });

  it('buys once when two requests ask for the same label at once', async () => {
    const orderId = await paidOrder(db(), admin);
    const purchases = fake.purchaseCalls();
    const results = await Promise.all([
      buyShippingLabel(scope(), orderId, by()),
      buyShippingLabel(scope(), orderId, by()),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results).toContainEqual({ ok: false, status: 409, error: LABEL_MESSAGES.busy });
    expect(fake.purchaseCalls()).toBe(purchases + 1);
    expect(await topics(db())).toEqual([ORDER_TOPICS.orderShipped]);
  });

  it("leaves another request's lease alone when a request that outlived its own lets go", async () => {
    const orderId = await paidOrder(db(), admin);
    const later = (ms: number) => new Date(Date.now() + ms);
    // A request whose carrier took longer than its lease: over already, so another one took it.
    const outlived = await claimLabelLease(db(), orderId, later(-1_000));
    const current = await claimLabelLease(db(), orderId, later(60_000));
    expect(outlived).not.toBeNull();
    expect(current).not.toBeNull();
    await releaseLabelLease(db(), outlived!);
    expect(await claimLabelLease(db(), orderId, later(60_000))).toBeNull();
    await releaseLabelLease(db(), current!);
    expect(await claimLabelLease(db(), orderId, later(60_000))).not.toBeNull();
  });

  it('buys several orders on their own: one refused does not stop the others', async () => {
    const first = await paidOrder(db(), admin);
    const second = await paidOrder(db(), admin);
    await db()
      .update(orders)
      .set({ shippingMethod: { ...SEDEX_SHIPPING, provider: null, serviceId: null } })
      .where(eq(orders.id, second));
    const results = await buyShippingLabels(scope(), [first, second], by());
    expect(results.map((result) => [result.orderId, result.ok])).toEqual([
      [first, true],
      [second, false],
    ]);
    expect(results[1]!.message).toBe(LABEL_MESSAGES.noService);
    expect(results[0]!.number).toMatch(/^#\d+$/);
    expect(labelsSummary(results)).toBe(
      `1 etiqueta gerada, 1 pedido sem etiqueta. ${results[0]!.number}: ${results[0]!.message} ` +
        `${results[1]!.number}: ${LABEL_MESSAGES.noService}`,
    );
  });

  it('moves a shipped order to delivered on a notification and on the periodic check, from what Melhor Envio says', async () => {
    const byHook = await paidOrder(db(), admin);
    const byCheck = await paidOrder(db(), admin);
    for (const orderId of [byHook, byCheck]) {
      expect((await buyShippingLabel(scope(), orderId, by())).ok).toBe(true);
    }
    await db().delete(outbox);
    const shipmentOf = async (orderId: string) =>
      (await orderRow(db(), orderId)).shippingLabel!.shipmentId;

    // A signed notification is only a hint: while Melhor Envio says posted, nothing changes.
    fake.markPosted(await shipmentOf(byHook));
    const posted = fake.webhook('http://loja.test', 'order.delivered', await shipmentOf(byHook));
    const reading = readMelhorEnvioWebhook(posted.body, posted.headers['x-me-signature']!, SECRET);
    expect(reading).toEqual({
      ok: true,
      shipmentId: await shipmentOf(byHook),
      event: 'order.delivered',
    });
    expect(await followNotifiedShipment(scope(), await shipmentOf(byHook))).toBe('unchanged');
    expect((await orderRow(db(), byHook)).status).toBe('shipped');

    fake.markDelivered(await shipmentOf(byHook));
    expect(await followNotifiedShipment(scope(), await shipmentOf(byHook))).toBe('delivered');
    expect((await orderRow(db(), byHook)).status).toBe('delivered');
    expect((await notesOf(db(), byHook)).at(-1)).toBe('Entrega confirmada pelo Melhor Envio.');
    expect(await topics(db())).toEqual([ORDER_TOPICS.orderDelivered]);
    // Told again, nothing more happens.
    expect(await followNotifiedShipment(scope(), await shipmentOf(byHook))).toBe('unchanged');
    expect(await followNotifiedShipment(scope(), randomUUID())).toBe('unknown');

    // The periodic check reads the other order once it is due, and only then; the carrier's
    // code given later replaces the one shipped with, and the shopper is told.
    const carrierCode = 'QB123456789BR';
    fake.orders.get(await shipmentOf(byCheck))!.tracking = carrierCode;
    fake.markDelivered(await shipmentOf(byCheck));
    expect(await followShippedLabels(scope())).toBe(0);
    expect((await orderRow(db(), byCheck)).status).toBe('shipped');
    const later = new Date(Date.now() + 31 * 60_000);
    expect(await followShippedLabels(scope(), undefined, later)).toBe(1);
    expect(await orderRow(db(), byCheck)).toMatchObject({
      status: 'delivered',
      trackingCode: carrierCode,
    });
    expect(await topics(db())).toEqual([
      ORDER_TOPICS.orderDelivered,
      ORDER_TOPICS.trackingCodeChanged,
      ORDER_TOPICS.orderDelivered,
    ]);
  });

  it('refuses forged and junk notifications before reading them', () => {
    const body = JSON.stringify({ event: 'order.delivered', data: { id: randomUUID() } });
    const refused = { ok: false, status: 401, error: 'Assinatura inválida.' };
    expect(readMelhorEnvioWebhook(body, null, SECRET)).toEqual(refused);
    expect(readMelhorEnvioWebhook(body, 'AAAA', SECRET)).toEqual(refused);
    expect(readMelhorEnvioWebhook(body, signMelhorEnvioWebhook(body, 'other'), SECRET)).toEqual(
      refused,
    );
    for (const junk of ['not json', '[]', '{"event":"order.posted","data":{"id":"<x>"}}']) {
      expect(
        readMelhorEnvioWebhook(junk, signMelhorEnvioWebhook(junk, SECRET), SECRET),
      ).toMatchObject({ ok: false, status: 400 });
    }
  });
});
