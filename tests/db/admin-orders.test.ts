import { randomUUID } from 'node:crypto';

import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

import type { Db } from '~/db/database.server';
import { orderEvents, orders, outbox, products } from '~/db/schema';
import {
  addOrderNote,
  changeOrderStatus,
  changeTrackingCode,
  deleteOrderByStaff,
  markPaidByStaff,
} from '~/flows/admin-order-status.server';
import { ADMIN_TRACKING_STATUS } from '~/flows/background-jobs.server';
import { applyPaymentStatus, type StaffMember } from '~/flows/order-changes.server';
import { expireOrders, payOrder } from '~/flows/order-payment.server';
import { placeOrder } from '~/flows/place-order.server';
import { logger } from '~/lib/logger.server';
import { createAdmin } from '~/modules/auth/index.server';
import { checkoutFormSchema } from '~/modules/checkout';
import { ORDER_STATUSES, ORDER_TRANSITIONS, type OrderStatus } from '~/modules/orders';
import {
  ADMIN_ORDER_MESSAGES,
  MAX_COUNTED_ORDERS,
  parseOrderFilters,
} from '~/modules/orders/index.admin';
import {
  adminOrderBatches,
  getAdminOrder,
  listAdminOrders,
  ordersCsvStream,
} from '~/modules/orders/index.admin.server';
import { createSandboxProvider } from '~/modules/payments/index.server';
import { defaultSettings } from '~/modules/settings';

import { ADMIN } from '../support/admin';
import { describeDb, queryRows } from '../support/db';
import { shopperAddress, shopperCpf } from '../support/shoppers';
import { VALID_CHECKOUT } from '../support/visitor';

const FONE = '5a3b1e00-0000-4000-8000-00000000d001';
const CABO = '5a3b1e00-0000-4000-8000-00000000d002';
const STOCK = { [FONE]: 20, [CABO]: 50 } as const;
const TZ = 'America/Sao_Paulo';

const noTracking = { tracking: false };
const withTracking = { tracking: true };

async function seed(db: Db): Promise<StaffMember> {
  await db.insert(products).values([
    { id: FONE, name: 'Fone Bluetooth', priceCents: 29990, stockQuantity: STOCK[FONE] },
    { id: CABO, name: 'Cabo USB-C', priceCents: 3990, stockQuantity: STOCK[CABO] },
  ]);
  const created = await createAdmin(db, ADMIN);
  if (!created.ok) throw new Error(created.error);
  return { id: created.id, email: ADMIN.email, fullName: ADMIN.fullName };
}

interface Shopper {
  name?: string;
  email?: string;
  cpf?: string;
}

/** A shopper's order placed through checkout's own flow: stock reserved, outbox written. */
async function place(
  db: Db,
  cart: { productId: string; quantity: number }[] = [{ productId: FONE, quantity: 2 }],
  shopper: Shopper = {},
): Promise<string> {
  const prices: Record<string, [number, string]> = {
    [FONE]: [29990, 'Fone Bluetooth'],
    [CABO]: [3990, 'Cabo USB-C'],
  };
  const result = await placeOrder(
    db,
    {
      form: checkoutFormSchema.parse({
        ...VALID_CHECKOUT,
        customerName: shopper.name ?? VALID_CHECKOUT.customerName,
        customerEmail: shopper.email ?? VALID_CHECKOUT.customerEmail,
        customerCpf: shopper.cpf ?? shopperCpf(),
        idempotencyKey: randomUUID(),
      }),
      cart: cart.map(({ productId, quantity }) => ({
        productId,
        variantId: null,
        quantity,
        seenPriceCents: prices[productId]![0],
        seenName: prices[productId]![1],
      })),
      orderToken: randomUUID(),
      clientAddress: shopperAddress(),
      trackingParameters: { utm_source: 'instagram' },
      settings: defaultSettings(),
    },
    noTracking,
  );
  if (!result.ok) throw new Error(`Order refused: ${JSON.stringify(result)}`);
  return result.orderId;
}

async function stockOf(db: Db, productId: string): Promise<number> {
  const [row] = await db
    .select({ stock: products.stockQuantity })
    .from(products)
    .where(eq(products.id, productId));
  return row!.stock;
}

async function orderRow(db: Db, orderId: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row ?? null;
}

const eventsOf = (db: Db, orderId: string) =>
  db
    .select({
      kind: orderEvents.kind,
      fromStatus: orderEvents.fromStatus,
      toStatus: orderEvents.toStatus,
      adminUserId: orderEvents.adminUserId,
      actor: orderEvents.actor,
      note: orderEvents.note,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.id));

const outboxRows = (db: Db) =>
  db.select({ topic: outbox.topic, payload: outbox.payload }).from(outbox).orderBy(asc(outbox.id));

/** Puts an order straight into a status, as if it had got there (paid ones with paid_at). */
async function forceStatus(db: Db, orderId: string, status: OrderStatus): Promise<void> {
  const paid = status === 'confirmed' || status === 'shipped' || status === 'delivered';
  await db
    .update(orders)
    .set({
      status,
      paidAt: paid ? new Date() : null,
      paymentStatus: paid ? 'approved' : null,
      trackingCode: status === 'shipped' || status === 'delivered' ? 'AA123456789BR' : null,
    })
    .where(eq(orders.id, orderId));
}

describeDb('moving an order through its lifecycle (admin)', ({ db }) => {
  let admin: StaffMember;

  beforeEach(async () => {
    admin = await seed(db());
  });

  const change = (orderId: string, to: OrderStatus, trackingCode: string | null = null) =>
    changeOrderStatus(db(), { orderId, to, trackingCode, admin }, withTracking);

  it('allows exactly the lifecycle’s moves, and refuses every other with a pt-BR 409', async () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        if (from === to) continue;
        const orderId = await place(db(), [{ productId: CABO, quantity: 1 }]);
        await forceStatus(db(), orderId, from);
        const result = await change(orderId, to, 'AA123456789BR');
        const allowed = ORDER_TRANSITIONS[from].includes(to);
        if (allowed) {
          expect(result, `${from} → ${to}`).toMatchObject({ ok: true });
          expect((await orderRow(db(), orderId))!.status).toBe(to);
        } else {
          expect(result, `${from} → ${to}`).toMatchObject({ ok: false, status: 409 });
          expect((await orderRow(db(), orderId))!.status).toBe(from);
        }
      }
    }
    const delivered = await place(db(), [{ productId: CABO, quantity: 1 }]);
    await forceStatus(db(), delivered, 'delivered');
    expect(await change(delivered, 'pending')).toEqual({
      ok: false,
      status: 409,
      error: 'Não é possível mudar de entregue para pendente.',
    });
  });

  it('walks an order from pending to delivered, with a timeline line, e-mail and report each', async () => {
    const orderId = await place(db());
    await db().delete(outbox);

    expect(await change(orderId, 'confirmed')).toEqual({
      ok: true,
      message: 'Status atualizado para confirmado.',
    });
    const confirmed = (await orderRow(db(), orderId))!;
    expect(confirmed).toMatchObject({ status: 'confirmed', paymentStatus: 'approved' });
    expect(confirmed.paidAt).toBeInstanceOf(Date);

    expect(await change(orderId, 'shipped', 'AA123456789BR')).toEqual({
      ok: true,
      message: 'Status atualizado para enviado.',
    });
    expect((await orderRow(db(), orderId))!.trackingCode).toBe('AA123456789BR');
    expect(await change(orderId, 'delivered')).toMatchObject({ ok: true });

    const byAdmin = { adminUserId: admin.id, actor: ADMIN.fullName, kind: 'status' };
    expect(await eventsOf(db(), orderId)).toEqual([
      {
        kind: 'status',
        fromStatus: null,
        toStatus: 'pending',
        adminUserId: null,
        actor: 'Cliente',
        note: 'Pedido realizado na loja.',
      },
      { ...byAdmin, fromStatus: 'pending', toStatus: 'confirmed', note: 'Pagamento aprovado.' },
      {
        ...byAdmin,
        fromStatus: 'confirmed',
        toStatus: 'shipped',
        note: 'Código de rastreio: AA123456789BR',
      },
      {
        ...byAdmin,
        fromStatus: 'shipped',
        toStatus: 'delivered',
        note: 'Entrega registrada pela equipe.',
      },
    ]);
    expect(await outboxRows(db())).toEqual([
      { topic: 'email.payment_confirmed', payload: { orderId } },
      { topic: 'tracking.order', payload: { orderId, paymentStatus: 'approved' } },
      { topic: 'email.order_shipped', payload: { orderId } },
      { topic: 'tracking.order_status', payload: { orderId, status: 'shipped' } },
      { topic: 'email.order_delivered', payload: { orderId } },
      { topic: 'tracking.order_status', payload: { orderId, status: 'delivered' } },
    ]);
  });

  it('queues no sales report when tracking is off, but still the e-mails', async () => {
    const orderId = await place(db());
    await forceStatus(db(), orderId, 'confirmed');
    await db().delete(outbox);
    await changeOrderStatus(
      db(),
      { orderId, to: 'shipped', trackingCode: 'AB-1234', admin },
      noTracking,
    );
    expect((await outboxRows(db())).map((row) => row.topic)).toEqual(['email.order_shipped']);
  });

  it('maps statuses for sales tracking as the admin reports them', () => {
    expect(ADMIN_TRACKING_STATUS).toEqual({
      pending: 'waiting_payment',
      confirmed: 'paid',
      shipped: 'paid',
      delivered: 'paid',
      cancelled: 'refused',
    });
  });

  it('refuses to ship without a tracking code', async () => {
    const orderId = await place(db());
    await forceStatus(db(), orderId, 'confirmed');
    expect(await change(orderId, 'shipped', null)).toEqual({
      ok: false,
      status: 400,
      error: ADMIN_ORDER_MESSAGES.trackingRequired,
    });
    expect((await orderRow(db(), orderId))!.status).toBe('confirmed');
  });

  it('does the same change twice only once (a double click), and says so', async () => {
    const orderId = await place(db());
    await forceStatus(db(), orderId, 'confirmed');
    await db().delete(outbox);
    await change(orderId, 'shipped', 'AA123456789BR');
    expect(await change(orderId, 'shipped', 'ZZ999999999BR')).toEqual({
      ok: true,
      message: 'O pedido já está enviado.',
    });
    expect((await orderRow(db(), orderId))!.trackingCode).toBe('AA123456789BR');
    expect(
      (await eventsOf(db(), orderId)).filter((event) => event.toStatus === 'shipped'),
    ).toHaveLength(1);
    expect(
      (await outboxRows(db())).filter((row) => row.topic === 'email.order_shipped'),
    ).toHaveLength(1);
  });

  it('corrects a shipped order’s tracking code: timeline, e-mail, no sales report', async () => {
    const orderId = await place(db());
    await forceStatus(db(), orderId, 'confirmed');
    await change(orderId, 'shipped', 'AA123456789BR');
    await db().delete(outbox);
    const correct = (trackingCode: string) =>
      changeTrackingCode(db(), { orderId, trackingCode, admin });

    expect(await correct('AB987654321BR')).toEqual({
      ok: true,
      message: ADMIN_ORDER_MESSAGES.trackingChanged,
    });
    const row = (await orderRow(db(), orderId))!;
    expect(row.trackingCode).toBe('AB987654321BR');
    expect(row.status).toBe('shipped');
    const tracking = (await eventsOf(db(), orderId)).filter((event) => event.kind === 'tracking');
    expect(tracking).toEqual([
      expect.objectContaining({
        note: 'Código de rastreio corrigido de AA123456789BR para AB987654321BR.',
        actor: admin.fullName,
      }),
    ]);
    expect(await outboxRows(db())).toEqual([
      { topic: 'email.tracking_code_changed', payload: { orderId } },
    ]);

    // The same code again (a double click) writes and sends nothing.
    expect(await correct('AB987654321BR')).toEqual({
      ok: true,
      message: ADMIN_ORDER_MESSAGES.trackingSame,
    });
    expect(await outboxRows(db())).toHaveLength(1);
    expect(
      (await eventsOf(db(), orderId)).filter((event) => event.kind === 'tracking'),
    ).toHaveLength(1);
  });

  it('corrects tracking codes only while the order is shipped', async () => {
    const orderId = await place(db());
    for (const status of ['pending', 'confirmed', 'delivered', 'cancelled'] as const) {
      await forceStatus(db(), orderId, status);
      expect(
        await changeTrackingCode(db(), { orderId, trackingCode: 'AB987654321BR', admin }),
      ).toEqual({
        ok: false,
        status: 409,
        error: ADMIN_ORDER_MESSAGES.trackingNotShipped,
      });
    }
    expect(
      await changeTrackingCode(db(), {
        orderId: randomUUID(),
        trackingCode: 'AB987654321BR',
        admin,
      }),
    ).toMatchObject({ ok: false, status: 404 });
  });

  it('lets only one of two admins changing an order at once apply', async () => {
    for (let round = 0; round < 3; round += 1) {
      const orderId = await place(db(), [{ productId: FONE, quantity: 3 }]);
      await forceStatus(db(), orderId, 'confirmed');
      const stockBefore = await stockOf(db(), FONE);
      const results = await Promise.all([
        change(orderId, 'shipped', 'AA123456789BR'),
        change(orderId, 'cancelled'),
      ]);
      const applied = results.filter((result) => result.ok);
      expect(applied).toHaveLength(1);
      const refused = results.find((result) => !result.ok);
      expect(refused).toMatchObject({ ok: false, status: 409 });
      const final = (await orderRow(db(), orderId))!;
      const staffEvents = (await eventsOf(db(), orderId)).filter((event) => event.adminUserId);
      expect(staffEvents).toHaveLength(1);
      expect(staffEvents[0]!.toStatus).toBe(final.status);
      // The stock came back only if the cancellation was the one that applied.
      expect(await stockOf(db(), FONE)).toBe(
        final.status === 'cancelled' ? stockBefore + 3 : stockBefore,
      );
    }
  });

  it('puts the stock back when staff cancel, pending or paid, and e-mails the shopper', async () => {
    const pending = await place(db(), [
      { productId: FONE, quantity: 2 },
      { productId: CABO, quantity: 5 },
    ]);
    const paid = await place(db(), [{ productId: FONE, quantity: 1 }]);
    await forceStatus(db(), paid, 'confirmed');
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 3);
    expect(await stockOf(db(), CABO)).toBe(STOCK[CABO] - 5);
    await db().delete(outbox);

    expect(await change(pending, 'cancelled')).toEqual({
      ok: true,
      message: 'Status atualizado para cancelado.',
    });
    expect(await change(paid, 'cancelled')).toMatchObject({ ok: true });

    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
    expect(await stockOf(db(), CABO)).toBe(STOCK[CABO]);
    const row = (await orderRow(db(), pending))!;
    expect(row).toMatchObject({ status: 'cancelled', cancelReason: 'staff' });
    expect(row.cancelledAt).toBeInstanceOf(Date);
    expect((await eventsOf(db(), paid)).at(-1)).toMatchObject({
      toStatus: 'cancelled',
      note: 'Pedido pago cancelado pela equipe; estoque devolvido. Reembolse o cliente.',
    });
    expect(await outboxRows(db())).toEqual([
      { topic: 'email.order_cancelled', payload: { orderId: pending } },
      { topic: 'tracking.order_status', payload: { orderId: pending, status: 'cancelled' } },
      { topic: 'email.order_cancelled', payload: { orderId: paid } },
      { topic: 'tracking.order_status', payload: { orderId: paid, status: 'cancelled' } },
    ]);
    // Cancelled is final: the stock is never given back twice.
    expect(await change(pending, 'cancelled')).toMatchObject({ ok: true });
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
  });

  it('answers 404 for an unknown or malformed order', async () => {
    expect(await change(randomUUID(), 'confirmed')).toMatchObject({ ok: false, status: 404 });
    expect(await change('not-an-id', 'confirmed')).toMatchObject({ ok: false, status: 404 });
    expect(await markPaidByStaff(db(), 'x', admin, noTracking)).toMatchObject({ status: 404 });
    expect(await addOrderNote(db(), { orderId: randomUUID(), note: 'oi', admin })).toMatchObject({
      status: 404,
    });
  });
});

describeDb("an order's timeline", ({ db }) => {
  let admin: StaffMember;

  beforeEach(async () => {
    admin = await seed(db());
    // A payment approved after cancellation is logged as an error for staff.
    vi.spyOn(logger, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('records payments seen by the provider, the expiry and staff notes, never shown elsewhere', async () => {
    const sandbox = createSandboxProvider({ db: db(), settings: async () => defaultSettings() });
    const approved = await place(db());
    const payment = await payOrder(db(), sandbox, approved);
    if (!payment.ok) throw new Error(payment.error);
    await applyPaymentStatus(
      db(),
      { orderId: approved, paymentId: payment.paymentId, status: 'approved' },
      noTracking,
    );
    const expired = await place(db(), [{ productId: CABO, quantity: 1 }]);
    const later = new Date(Date.now() + 3 * 60 * 60_000);
    await expireOrders(db(), null, noTracking, { now: later });

    expect(
      await addOrderNote(db(), { orderId: approved, note: 'Cliente pediu presente.', admin }),
    ).toEqual({
      ok: true,
      message: 'Observação adicionada.',
    });

    expect((await eventsOf(db(), approved)).slice(1)).toEqual([
      {
        kind: 'status',
        fromStatus: 'pending',
        toStatus: 'confirmed',
        adminUserId: null,
        actor: 'Pagamento',
        note: 'Pagamento aprovado.',
      },
      {
        kind: 'note',
        fromStatus: null,
        toStatus: null,
        adminUserId: admin.id,
        actor: ADMIN.fullName,
        note: 'Cliente pediu presente.',
      },
    ]);
    expect((await eventsOf(db(), expired)).slice(1)).toEqual([
      {
        kind: 'status',
        fromStatus: 'pending',
        toStatus: 'cancelled',
        adminUserId: null,
        actor: 'Sistema',
        note: 'Prazo de pagamento esgotado: pedido cancelado e estoque devolvido.',
      },
    ]);
    const detail = await getAdminOrder(db(), approved);
    // Newest first, as the timeline shows them.
    expect(detail?.events.map((event) => event.kind)).toEqual(['note', 'status', 'status']);
  });

  it("marks a PIX paid by hand with the admin's name, and keeps a late payment with a warning", async () => {
    const orderId = await place(db());
    expect(await markPaidByStaff(db(), orderId, admin, noTracking)).toEqual({
      ok: true,
      message: ADMIN_ORDER_MESSAGES.markedPaid,
    });
    expect((await eventsOf(db(), orderId)).at(-1)).toMatchObject({
      toStatus: 'confirmed',
      adminUserId: admin.id,
      actor: ADMIN.fullName,
    });
    expect(await markPaidByStaff(db(), orderId, admin, noTracking)).toEqual({
      ok: false,
      status: 409,
      error: ADMIN_ORDER_MESSAGES.notPending,
    });

    const cancelled = await place(db());
    await changeOrderStatus(
      db(),
      { orderId: cancelled, to: 'cancelled', trackingCode: null, admin },
      noTracking,
    );
    expect(await markPaidByStaff(db(), cancelled, admin, noTracking)).toEqual({
      ok: true,
      message: ADMIN_ORDER_MESSAGES.latePayment,
      warning: true,
    });
    const late = (await getAdminOrder(db(), cancelled))!;
    expect(late.status).toBe('cancelled');
    expect(late.payment.latePaymentAt).toBeInstanceOf(Date);
    expect(late.events[0]).toMatchObject({ kind: 'payment', actor: ADMIN.fullName });
  });

  it('leaves a shipped order whose payment was refunded alone when marked paid (a stale tab)', async () => {
    const orderId = await place(db());
    await forceStatus(db(), orderId, 'shipped');
    await db().update(orders).set({ paymentStatus: 'refunded' }).where(eq(orders.id, orderId));
    const before = await orderRow(db(), orderId);
    const timeline = await eventsOf(db(), orderId);
    await db().delete(outbox);

    expect(await markPaidByStaff(db(), orderId, admin, withTracking)).toEqual({
      ok: false,
      status: 409,
      error: ADMIN_ORDER_MESSAGES.notPending,
    });
    expect(await orderRow(db(), orderId)).toEqual(before);
    expect(await eventsOf(db(), orderId)).toEqual(timeline);
    expect(await outboxRows(db())).toEqual([]);
  });
});

describeDb('deleting an order (admin)', ({ db }) => {
  let admin: StaffMember;

  beforeEach(async () => {
    admin = await seed(db());
    vi.spyOn(logger, 'info').mockImplementation(() => {});
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('deletes a pending order after putting its stock back, with its lines and timeline', async () => {
    const orderId = await place(db(), [{ productId: FONE, quantity: 4 }]);
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE] - 4);
    expect(await deleteOrderByStaff(db(), orderId, admin)).toEqual({
      ok: true,
      message: 'Pedido excluído com sucesso!',
    });
    expect(await orderRow(db(), orderId)).toBeNull();
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
    const [left] = await queryRows<{ items: number; events: number }>(
      db(),
      sql`select (select count(*)::int from order_items) as items, (select count(*)::int from order_events) as events`,
    );
    expect(left).toEqual({ items: 0, events: 0 });
    expect(await deleteOrderByStaff(db(), orderId, admin)).toMatchObject({ status: 404 });
  });

  it('deletes a cancelled order without giving its stock back twice', async () => {
    const orderId = await place(db(), [{ productId: FONE, quantity: 4 }]);
    await changeOrderStatus(
      db(),
      { orderId, to: 'cancelled', trackingCode: null, admin },
      noTracking,
    );
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
    expect(await deleteOrderByStaff(db(), orderId, admin)).toMatchObject({ ok: true });
    expect(await stockOf(db(), FONE)).toBe(STOCK[FONE]);
  });

  it('refuses orders that were paid: confirmed, shipped, delivered, or paid then cancelled', async () => {
    const refused = {
      ok: false,
      status: 409,
      error: 'Pedidos pagos não podem ser excluídos. Cancele o pedido.',
    };
    for (const status of ['confirmed', 'shipped', 'delivered'] as const) {
      const orderId = await place(db());
      await forceStatus(db(), orderId, status);
      expect(await deleteOrderByStaff(db(), orderId, admin), status).toEqual(refused);
      expect(await orderRow(db(), orderId)).not.toBeNull();
    }
    const paidThenCancelled = await place(db());
    await forceStatus(db(), paidThenCancelled, 'confirmed');
    await changeOrderStatus(
      db(),
      { orderId: paidThenCancelled, to: 'cancelled', trackingCode: null, admin },
      noTracking,
    );
    expect(await deleteOrderByStaff(db(), paidThenCancelled, admin)).toEqual(refused);

    const latePaid = await place(db());
    await db()
      .update(orders)
      .set({ status: 'cancelled', latePaymentAt: new Date() })
      .where(eq(orders.id, latePaid));
    expect(await deleteOrderByStaff(db(), latePaid, admin)).toEqual(refused);
    expect(await deleteOrderByStaff(db(), 'nope', admin)).toMatchObject({ status: 404 });
  });

  it("offers 'Excluir' in the list exactly where the server deletes, and 'Cancelar' where it cancels", async () => {
    const placed: Record<string, string> = {};
    for (const status of ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const) {
      placed[status] = await place(db());
      if (status !== 'pending') await forceStatus(db(), placed[status], status);
    }
    const paidThenCancelled = await place(db());
    await forceStatus(db(), paidThenCancelled, 'confirmed');
    await changeOrderStatus(
      db(),
      { orderId: paidThenCancelled, to: 'cancelled', trackingCode: null, admin },
      noTracking,
    );
    placed.paidThenCancelled = paidThenCancelled;
    const rows = (
      await listAdminOrders(db(), parseOrderFilters(new URLSearchParams()), { timeZone: TZ })
    ).orders;
    const row = (id: string) => rows.find((order) => order.id === id)!;
    expect(
      Object.fromEntries(
        Object.entries(placed).map(([name, id]) => [name, [row(id).canDelete, row(id).canCancel]]),
      ),
    ).toEqual({
      pending: [true, true],
      confirmed: [false, true],
      shipped: [false, false],
      delivered: [false, false],
      cancelled: [true, false],
      paidThenCancelled: [false, false],
    });
    // What the list offered is what the server does.
    for (const [name, id] of Object.entries(placed)) {
      const offered = row(id).canDelete;
      const result = await deleteOrderByStaff(db(), id, admin);
      expect(result.ok, name).toBe(offered);
      if (!result.ok) expect(result.status, name).toBe(409);
    }
  });
});

describeDb('finding orders (admin list)', ({ db }) => {
  beforeEach(async () => {
    await seed(db());
  });

  const list = (query: string) =>
    listAdminOrders(db(), parseOrderFilters(new URLSearchParams(query)), { timeZone: TZ });
  const ids = async (query: string) => (await list(query)).orders.map((order) => order.id);

  async function createdAt(orderId: string, instant: string): Promise<void> {
    await db()
      .update(orders)
      .set({ createdAt: new Date(instant) })
      .where(eq(orders.id, orderId));
  }

  it('searches by number (with or without #), name (accents aside), e-mail or CPF', async () => {
    const joao = await place(db(), undefined, {
      name: 'João Gonçalves',
      email: 'joao.goncalves@example.com',
      cpf: '111.444.777-35',
    });
    const ana = await place(db(), undefined, {
      name: 'Ana Paula',
      email: 'ana@loja.test',
      cpf: '123.456.789-09',
    });
    // The first order of the store: #1001.
    expect(await ids(`q=${encodeURIComponent('#1001')}`)).toEqual([joao]);
    expect(await ids('q=1001')).toEqual([joao]);
    expect(await ids(`q=${encodeURIComponent('#1002')}`)).toEqual([ana]);
    // The id, as links carry it, still finds its order.
    expect(await ids(`q=${joao.toUpperCase()}`)).toEqual([joao]);
    expect(await ids('q=joao')).toEqual([joao]);
    expect(await ids('q=GONÇALVES')).toEqual([joao]);
    expect(await ids('q=ana%40loja.test')).toEqual([ana]);
    expect(await ids('q=123.456.789-09')).toEqual([ana]);
    expect(await ids('q=12345678909')).toEqual([ana]);
    expect(await ids('q=ana+paula')).toEqual([ana]);
    expect(await ids('q=100%25')).toEqual([]);
    expect(await ids('q=')).toHaveLength(2);
  });

  it("filters by days on the store's calendar: 23:30 in São Paulo is still that day", async () => {
    const lateEvening = await place(db());
    const nextMorning = await place(db());
    const dayBefore = await place(db());
    // 2025-03-10 23:30 in São Paulo (UTC-3) is already the 11th in UTC.
    await createdAt(lateEvening, '2025-03-11T02:30:00Z');
    await createdAt(nextMorning, '2025-03-11T03:10:00Z');
    await createdAt(dayBefore, '2025-03-10T02:59:00Z');

    expect(await ids('from=2025-03-10&to=2025-03-10')).toEqual([lateEvening]);
    expect(await ids('from=2025-03-11&to=2025-03-11')).toEqual([nextMorning]);
    expect(await ids('from=2025-03-11')).toEqual([nextMorning]);
    expect(await ids('to=2025-03-09')).toEqual([dayBefore]);
    // Backwards means the same days; nonsense is ignored.
    expect(await ids('from=2025-03-11&to=2025-03-10')).toEqual([nextMorning, lateEvening]);
    expect(await ids('from=2025-02-30&to=amanhã')).toHaveLength(3);
  });

  it('filters by status, newest first, and ignores an unknown status', async () => {
    const first = await place(db());
    const second = await place(db());
    await forceStatus(db(), first, 'shipped');
    await createdAt(first, '2025-01-01T12:00:00Z');
    await createdAt(second, '2025-01-02T12:00:00Z');

    expect(await ids('status=shipped')).toEqual([first]);
    expect(await ids('status=pending')).toEqual([second]);
    expect(await ids('status=lost')).toEqual([second, first]);
  });

  it('pages 20 at a time, and a page past the end shows the last one', async () => {
    await db().execute(sql`
      insert into orders (customer_name, customer_email, customer_phone, customer_cpf,
        shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
        shipping_state, subtotal_cents, total_amount_cents, order_token, created_at)
      select 'Cliente ' || n, 'c' || n || '@example.com', '11987654321', '52998224725',
        '01310100', 'Rua', '1', 'Centro', 'São Paulo', 'SP', 1000, 1000, 'token',
        timestamptz '2025-01-01 12:00:00Z' + n * interval '1 minute'
      from generate_series(1, 45) as n`);

    const first = await list('');
    expect(first).toMatchObject({ total: 45, totalIsLowerBound: false, page: 1, pageCount: 3 });
    expect(first.orders).toHaveLength(20);
    expect(first.orders[0]!.customerName).toBe('Cliente 45');
    const last = await list('pagina=3');
    expect(last.orders.map((order) => order.customerName)).toEqual(
      ['5', '4', '3', '2', '1'].map((n) => `Cliente ${n}`),
    );
    expect(await list('pagina=99')).toMatchObject({ page: 3 });
    expect(await list('pagina=-2')).toMatchObject({ page: 1 });
    expect(await list('pagina=abc')).toMatchObject({ page: 1 });
  });

  it('counts the orders of a status and days, and of a search, past the first page', async () => {
    // 30 orders on 1 January and 15 on 2 January (São Paulo), every third one shipped.
    await db().execute(sql`
      insert into orders (customer_name, customer_email, customer_phone, customer_cpf,
        shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
        shipping_state, subtotal_cents, total_amount_cents, order_token, status, created_at)
      select 'Cliente ' || n, 'c' || n || '@example.com', '11987654321', '52998224725',
        '01310100', 'Rua', '1', 'Centro', 'São Paulo', 'SP', 1000, 1000, 'token',
        case when n % 3 = 0 then 'shipped' else 'pending' end,
        timestamptz '2025-01-01 12:00:00Z' + (n / 31) * interval '1 day' + n * interval '1 minute'
      from generate_series(1, 45) as n`);
    expect(await list('from=2025-01-01&to=2025-01-01')).toMatchObject({ total: 30, pageCount: 2 });
    expect(await list('status=pending&to=2025-01-01')).toMatchObject({ total: 20, pageCount: 1 });
    expect(await list('status=pending&pagina=2')).toMatchObject({ total: 30, page: 2 });
    expect(await list('status=shipped&from=2025-01-02')).toMatchObject({ total: 5 });
    expect(await list('q=cliente&status=pending')).toMatchObject({ total: 30, pageCount: 2 });
    const few = await list('q=4@example');
    // c4@, c14@, c24@, c34@ and c44@: one page, counted from the page itself.
    expect(few).toMatchObject({ total: 5, pageCount: 1 });
    expect(few.orders).toHaveLength(5);
  });

  // Its budget is that of writing 10,005 orders (a CPU-bound insert on PGlite), not of one page.
  it(
    `counts at most ${MAX_COUNTED_ORDERS} orders, so deep pages stay cheap`,
    { timeout: 120_000 },
    async () => {
      await db().execute(sql`
      insert into orders (customer_name, customer_email, customer_phone, customer_cpf,
        shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
        shipping_state, subtotal_cents, total_amount_cents, order_token, created_at)
      select 'Cliente ' || n, 'c' || n || '@example.com', '11987654321', '52998224725',
        '01310100', 'Rua', '1', 'Centro', 'São Paulo', 'SP', 1000, 1000, 'token',
        timestamptz '2025-01-01 12:00:00Z' + n * interval '1 second'
      from generate_series(1, ${MAX_COUNTED_ORDERS + 5}) as n`);

      const deep = await list('pagina=100000');
      expect(deep).toMatchObject({
        total: MAX_COUNTED_ORDERS,
        totalIsLowerBound: true,
        page: MAX_COUNTED_ORDERS / 20,
        pageCount: MAX_COUNTED_ORDERS / 20,
      });
      expect(deep.orders.at(-1)!.customerName).toBe('Cliente 6');
    },
  );
});

describeDb('exporting orders (CSV)', ({ db }) => {
  beforeEach(async () => {
    await seed(db());
  });

  it('reads every matching order once, in batches, even when they share a creation time', async () => {
    const placed = [];
    for (let index = 0; index < 5; index += 1) placed.push(await place(db()));
    // The same instant for all: only the id tells them apart.
    await db()
      .update(orders)
      .set({ createdAt: sql`timestamptz '2025-05-05 10:00:00.123456Z'` });
    const seen: string[] = [];
    for await (const batch of adminOrderBatches(db(), parseOrderFilters(new URLSearchParams()), {
      timeZone: TZ,
      batchSize: 2,
    })) {
      expect(batch.length).toBeLessThanOrEqual(2);
      seen.push(...batch.map((order) => order.id));
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(placed));
    expect(seen).toEqual([...placed].sort().reverse());
  });

  it("writes a spreadsheet Excel opens in Brazil: BOM, ';', amounts as 1234,56", async () => {
    const orderId = await place(db(), [{ productId: FONE, quantity: 5 }], {
      name: '=HYPERLINK("x") Maria',
      cpf: '529.982.247-25',
    });
    await db()
      .update(orders)
      .set({ createdAt: new Date('2025-03-11T02:30:00Z') })
      .where(eq(orders.id, orderId));
    const bytes = new Uint8Array(
      await new Response(
        ordersCsvStream(db(), parseOrderFilters(new URLSearchParams('status=pending')), {
          timeZone: TZ,
        }),
      ).arrayBuffer(),
    );
    // The UTF-8 byte order mark first: Excel then reads the accents right.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder().decode(bytes);
    expect(csv.startsWith('Pedido;ID;Data;Status;Cliente;E-mail;Telefone;CPF;')).toBe(true);
    const [, line] = csv.split('\r\n');
    const fields = line!.split(';');
    expect(fields.slice(0, 4)).toEqual(['#1001', orderId, '10/03/2025 23:30', 'Pendente']);
    // A name that would run as a formula is escaped.
    expect(fields[4]).toMatch(/^"?'=HYPERLINK/);
    expect(line).toContain(';1499,50;0,00;0,00;;0,00;1499,50;PIX;');
    expect(line).toContain(';529.982.247-25;');
    // The lines as bought, last: quantity, name and SKU.
    expect(csv.split('\r\n')[0]!.endsWith(';Código de rastreio;Itens')).toBe(true);
    expect(fields.at(-1)).toMatch(/^5 × .+ \(SKU [A-Z0-9-]+\)$/);
  });
});
