import { and, asc, count, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';

import { isUuid } from '~/db/columns';
import type { Db } from '~/db/database.server';

import {
  MAX_COUNTED_ORDERS,
  ORDERS_PER_PAGE,
  orderSearchWords,
  type OrderFilters,
} from './admin-filters';
import type { AdminOrderDetail, AdminOrderExportRow, AdminOrderPage } from './admin-types';
import { orderNumber } from './display';
import { listOrderEvents } from './order-events.server';
import { orderItems, orders } from './schema';

// vitrine_fold() comes from migration 0002, orders.search_text (name, e-mail, CPF, id) from 0007.
const searchText = sql`${orders}.search_text`;

/** `%`, `_` and `\` typed by staff are searched for literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The day's first instant on the store's calendar, computed by the database (DST-proof). */
const startOfDay = (day: string, timeZone: string) =>
  sql`(${day}::date)::timestamp at time zone ${timeZone}`;

function filtersWhere(filters: OrderFilters, timeZone: string): SQL | undefined {
  const conditions: SQL[] = orderSearchWords(filters.q).map(
    (word) => sql`${searchText} like '%' || vitrine_fold(${escapeLike(word)}) || '%' escape '\\'`,
  );
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.from) conditions.push(gte(orders.createdAt, startOfDay(filters.from, timeZone)));
  if (filters.to) {
    conditions.push(
      lt(orders.createdAt, sql`((${filters.to}::date) + 1)::timestamp at time zone ${timeZone}`),
    );
  }
  return and(...conditions);
}

const NEWEST_FIRST = [desc(orders.createdAt), desc(orders.id)];

/**
 * One page of the admin's order list, newest first. Counting stops at MAX_COUNTED_ORDERS, so the
 * deepest page reachable skips at most that many rows, whatever the store's size.
 */
export async function listAdminOrders(
  db: Db,
  filters: OrderFilters,
  options: { timeZone: string },
): Promise<AdminOrderPage> {
  const where = filtersWhere(filters, options.timeZone);
  const matching = db
    .select({ one: sql`1`.as('one') })
    .from(orders)
    .where(where)
    .limit(MAX_COUNTED_ORDERS + 1)
    .as('matching');
  const [{ counted } = { counted: 0 }] = await db.select({ counted: count() }).from(matching);
  const total = Math.min(counted, MAX_COUNTED_ORDERS);
  const pageCount = Math.max(1, Math.ceil(total / ORDERS_PER_PAGE));
  const page = Math.min(Math.max(1, filters.page), pageCount);
  const rows =
    total === 0
      ? []
      : await db
          .select({
            id: orders.id,
            customerName: orders.customerName,
            customerEmail: orders.customerEmail,
            createdAt: orders.createdAt,
            status: orders.status,
            totalCents: orders.totalAmountCents,
          })
          .from(orders)
          .where(where)
          .orderBy(...NEWEST_FIRST)
          .limit(ORDERS_PER_PAGE)
          .offset((page - 1) * ORDERS_PER_PAGE);
  return {
    orders: rows.map((row) => ({ ...row, number: orderNumber(row.id) })),
    total,
    totalIsLowerBound: counted > MAX_COUNTED_ORDERS,
    page,
    pageCount,
  };
}

const exportColumns = {
  id: orders.id,
  createdAt: orders.createdAt,
  // PostgreSQL's text keeps the microseconds a JavaScript Date drops: the next batch starts
  // exactly after this row, even among rows created within the same millisecond.
  createdAtText: sql<string>`${orders.createdAt}::text`,
  status: orders.status,
  customerName: orders.customerName,
  customerEmail: orders.customerEmail,
  customerPhone: orders.customerPhone,
  customerCpf: orders.customerCpf,
  street: orders.shippingStreet,
  number: orders.shippingNumber,
  complement: orders.shippingComplement,
  neighborhood: orders.shippingNeighborhood,
  city: orders.shippingCity,
  state: orders.shippingState,
  zipCode: orders.shippingZip,
  subtotalCents: orders.subtotalCents,
  shippingCents: orders.shippingCostCents,
  totalCents: orders.totalAmountCents,
  paymentMethod: orders.paymentMethod,
  paymentStatus: orders.paymentStatus,
  paidAt: orders.paidAt,
  trackingCode: orders.trackingCode,
};

interface ExportCursor {
  createdAt: string;
  id: string;
}

function exportBatch(db: Db, where: SQL | undefined, after: ExportCursor | null, limit: number) {
  const cursor = after
    ? or(
        sql`${orders.createdAt} < ${after.createdAt}::timestamptz`,
        and(sql`${orders.createdAt} = ${after.createdAt}::timestamptz`, lt(orders.id, after.id)),
      )
    : undefined;
  return db
    .select(exportColumns)
    .from(orders)
    .where(and(where, cursor))
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
}

/**
 * Every order matching the filters, newest first, a batch at a time: the export streams a store
 * of any size without holding it in memory, and each batch is one indexed read.
 */
export async function* adminOrderBatches(
  db: Db,
  filters: OrderFilters,
  options: { timeZone: string; batchSize?: number },
): AsyncGenerator<AdminOrderExportRow[]> {
  const where = filtersWhere(filters, options.timeZone);
  const batchSize = options.batchSize ?? 500;
  let after: ExportCursor | null = null;
  for (;;) {
    const rows = await exportBatch(db, where, after, batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt,
      status: row.status,
      customerName: row.customerName,
      customerEmail: row.customerEmail,
      customerPhone: row.customerPhone,
      customerCpf: row.customerCpf,
      address: {
        street: row.street,
        number: row.number,
        complement: row.complement,
        neighborhood: row.neighborhood,
        city: row.city,
        state: row.state,
        zipCode: row.zipCode,
      },
      subtotalCents: row.subtotalCents,
      shippingCents: row.shippingCents,
      totalCents: row.totalCents,
      paymentMethod: row.paymentMethod,
      paymentStatus: row.paymentStatus,
      paidAt: row.paidAt,
      trackingCode: row.trackingCode,
    }));
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAtText, id: last.id };
  }
}

type OrderRow = typeof orders.$inferSelect;

async function readOrder(
  db: Db,
  orderId: string,
  lock: boolean,
): Promise<Omit<AdminOrderDetail, 'events'> | null> {
  if (!isUuid(orderId)) return null;
  const query = db.select().from(orders).where(eq(orders.id, orderId));
  const [row]: OrderRow[] = lock ? await query.for('update') : await query;
  if (!row) return null;
  const items = await db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.id));
  return {
    id: row.id,
    number: orderNumber(row.id),
    status: row.status,
    customer: {
      name: row.customerName,
      email: row.customerEmail,
      phone: row.customerPhone,
      cpf: row.customerCpf,
    },
    address: {
      street: row.shippingStreet,
      number: row.shippingNumber,
      complement: row.shippingComplement,
      neighborhood: row.shippingNeighborhood,
      city: row.shippingCity,
      state: row.shippingState,
      zipCode: row.shippingZip,
    },
    createdAt: row.createdAt,
    lines: items.map((item) => ({
      productId: item.productId,
      name: item.productName,
      unitPriceCents: item.productPriceCents,
      quantity: item.quantity,
      totalCents: item.totalPriceCents,
      imageUrl: item.imageUrl,
    })),
    subtotalCents: row.subtotalCents,
    shippingCents: row.shippingCostCents,
    totalCents: row.totalAmountCents,
    paymentMethod: row.paymentMethod,
    payment: {
      provider: row.paymentProvider,
      id: row.paymentId,
      status: row.paymentStatus,
      paidAt: row.paidAt,
      expiresAt: row.expiresAt,
      latePaymentAt: row.latePaymentAt,
    },
    trackingCode: row.trackingCode,
    cancelReason: row.cancelReason,
    cancelledAt: row.cancelledAt,
  };
}

/** The order with its timeline, for the admin; null for an unknown or malformed id. */
export async function getAdminOrder(db: Db, orderId: string): Promise<AdminOrderDetail | null> {
  const order = await readOrder(db, orderId, false);
  if (!order) return null;
  return { ...order, events: await listOrderEvents(db, orderId) };
}

/** The order's row locked for a staff change in the caller's transaction (without its timeline). */
export function lockAdminOrder(
  db: Db,
  orderId: string,
): Promise<Omit<AdminOrderDetail, 'events'> | null> {
  return readOrder(db, orderId, true);
}

/** A staff status change; the caller holds the row's lock and checked the move is allowed. */
export async function setStaffStatus(
  db: Db,
  orderId: string,
  change: Partial<Pick<OrderRow, 'status' | 'trackingCode' | 'cancelReason' | 'cancelledAt'>>,
): Promise<void> {
  await db
    .update(orders)
    .set({ ...change, updatedAt: sql`now()` })
    .where(eq(orders.id, orderId));
}

/** Deletes the order with its lines and timeline; the caller decided it may go. */
export async function deleteOrderRow(db: Db, orderId: string): Promise<void> {
  await db.delete(orders).where(eq(orders.id, orderId));
}
