import { and, count, desc, eq, like, lt, or, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { foldedContains } from '~/db/search';
import { withinDays } from '~/lib/periods.server';

import {
  MAX_COUNTED_ORDERS,
  ORDERS_PER_PAGE,
  orderSearchWords,
  type OrderFilters,
  type OrderSearchTerm,
} from './admin-filters';
import type { AdminOrderDetail, AdminOrderExportRow, AdminOrderPage } from './admin-types';
import { addressLine, orderNumber } from './display';
import { listOrderEvents } from './order-events.server';
import { getOrder } from './orders.server';
import { ensureSalesDays, salesDaysWithin } from './sales-days.server';
import { orderAdjustments, orders, orderSalesDays } from './schema';
import { canCancelOrder, canDeleteOrder, wasPaid } from './transitions';

// orders.search_text (name and e-mail folded, CPF, id) comes from migration 0007.
const searchText = sql`${orders}.search_text`;

// A period open at one end runs to the calendar's own bound (the filters take years 2000–2100).
const FIRST_DAY = '2000-01-01';
const LAST_DAY = '2100-12-31';

function termWhere(term: OrderSearchTerm): SQL {
  if ('text' in term) return foldedContains(searchText, term.text);
  const byNumber = eq(orders.number, term.number);
  return term.cpf ? or(byNumber, like(orders.customerCpf, `%${term.cpf}%`))! : byNumber;
}

function filtersWhere(filters: OrderFilters, timeZone: string): SQL | undefined {
  const conditions: SQL[] = orderSearchWords(filters.q).map(termWhere);
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.coupon) {
    conditions.push(
      // The order's own copy of the code: no look into the coupons' table.
      sql`exists (select 1 from ${orderAdjustments} where ${orderAdjustments.orderId} = ${orders.id} and ${orderAdjustments.couponCode} = ${filters.coupon})`,
    );
  }
  if (filters.from || filters.to) {
    const range = { from: filters.from ?? FIRST_DAY, to: filters.to ?? LAST_DAY };
    conditions.push(withinDays(orders.createdAt, range, timeZone));
  }
  return and(...conditions);
}

const NEWEST_FIRST = [desc(orders.createdAt), desc(orders.id)];

/**
 * How many orders match, counting at most MAX_COUNTED_ORDERS + 1 of them. Filtered by status and
 * days alone, the sales days know at once, exactly; a search or a coupon counts the orders.
 */
async function countOrders(db: Db, filters: OrderFilters, timeZone: string): Promise<number> {
  if (!filters.q && !filters.coupon) {
    await ensureSalesDays(db, timeZone);
    const range = { from: filters.from ?? FIRST_DAY, to: filters.to ?? LAST_DAY };
    const [row] = await db
      .select({
        counted: sql<number>`coalesce(sum(${orderSalesDays.orders}), 0)::int`.mapWith(Number),
      })
      .from(orderSalesDays)
      .where(
        and(
          salesDaysWithin(range, timeZone),
          filters.status ? eq(orderSalesDays.status, filters.status) : undefined,
        ),
      );
    return row?.counted ?? 0;
  }
  const matching = db
    .select({ one: sql`1`.as('one') })
    .from(orders)
    .where(filtersWhere(filters, timeZone))
    .limit(MAX_COUNTED_ORDERS + 1)
    .as('matching');
  const [{ counted } = { counted: 0 }] = await db.select({ counted: count() }).from(matching);
  return counted;
}

function pageRows(db: Db, where: SQL | undefined, page: number) {
  return db
    .select({
      id: orders.id,
      number: orders.number,
      customerName: orders.customerName,
      customerEmail: orders.customerEmail,
      createdAt: orders.createdAt,
      status: orders.status,
      totalCents: orders.totalAmountCents,
      paidAt: orders.paidAt,
      latePaymentAt: orders.latePaymentAt,
      paymentReview: orders.paymentReview,
    })
    .from(orders)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(ORDERS_PER_PAGE)
    .offset((page - 1) * ORDERS_PER_PAGE);
}

/**
 * One page of the admin's order list, newest first. Counting stops at MAX_COUNTED_ORDERS, so the
 * deepest page reachable skips at most that many rows, whatever the store's size. The first page
 * is read first: one that is not full is every match (a search by e-mail, CPF or number), and
 * nothing is counted.
 */
export async function listAdminOrders(
  db: Db,
  filters: OrderFilters,
  options: { timeZone: string },
): Promise<AdminOrderPage> {
  const where = filtersWhere(filters, options.timeZone);
  const firstPage = filters.page <= 1 ? await pageRows(db, where, 1) : null;
  const counted =
    firstPage && firstPage.length < ORDERS_PER_PAGE
      ? firstPage.length
      : await countOrders(db, filters, options.timeZone);
  const total = Math.min(counted, MAX_COUNTED_ORDERS);
  const pageCount = Math.max(1, Math.ceil(total / ORDERS_PER_PAGE));
  const page = Math.min(Math.max(1, filters.page), pageCount);
  const rows =
    total === 0 ? [] : page === 1 && firstPage ? firstPage : await pageRows(db, where, page);
  return {
    orders: rows.map(({ paidAt, latePaymentAt, paymentReview, ...row }) => {
      const money = { status: row.status, paidAt, latePaymentAt, paymentReview };
      return {
        ...row,
        number: orderNumber(row.number),
        paid: wasPaid(money),
        canDelete: canDeleteOrder(money),
        canCancel: canCancelOrder(row),
      };
    }),
    total,
    totalIsLowerBound: counted > MAX_COUNTED_ORDERS,
    page,
    pageCount,
  };
}

/** The discounts of one kind an order got, as a positive amount. */
function adjustmentsSum(kind: 'coupon' | 'pix'): string {
  return `coalesce((select -sum(a.amount_cents) from order_adjustments a where a.order_id = orders.id and a.kind = '${kind}'), 0)::int`;
}

const exportColumns = {
  id: orders.id,
  orderNumber: orders.number,
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
  // Written out whole: in a one-table select Drizzle leaves column names unqualified, and
  // "id" inside these subqueries would be the adjustment's own.
  pixDiscountCents: sql<number>`${sql.raw(adjustmentsSum('pix'))}`,
  couponDiscountCents: sql<number>`${sql.raw(adjustmentsSum('coupon'))}`,
  couponCode: sql<string | null>`${sql.raw(
    `(select a.coupon_code from order_adjustments a where a.order_id = orders.id and a.kind = 'coupon' order by a.position limit 1)`,
  )}`,
  totalCents: orders.totalAmountCents,
  paymentMethod: orders.paymentMethod,
  paymentStatus: orders.paymentStatus,
  paidAt: orders.paidAt,
  trackingCode: orders.trackingCode,
  // '2 × Camiseta Básica — G / Azul (SKU CAMISETA-BASICA-G-AZUL); 1 × …': the lines as bought,
  // in one cell, so the sheet keeps one row per order.
  items: sql<string | null>`${sql.raw(
    `(select string_agg(i.quantity || ' × ' || i.product_name` +
      ` || coalesce(' — ' || (select string_agg(v.option ->> 'value', ' / ' order by v.n)` +
      ` from jsonb_array_elements(i.variant_options) with ordinality as v(option, n)), '')` +
      ` || coalesce(' (SKU ' || nullif(i.sku, '') || ')', ''), '; ' order by i.product_name, i.sku)` +
      ` from order_items i where i.order_id = orders.id)`,
  )}`,
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
      number: orderNumber(row.orderNumber),
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
      pixDiscountCents: row.pixDiscountCents,
      couponCode: row.couponCode,
      couponDiscountCents: row.couponDiscountCents,
      totalCents: row.totalCents,
      paymentMethod: row.paymentMethod,
      paymentStatus: row.paymentStatus,
      paidAt: row.paidAt,
      trackingCode: row.trackingCode,
      items: row.items ?? '',
    }));
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAtText, id: last.id };
  }
}

/** The order with its timeline, for the admin; null for an unknown or malformed id. */
export async function getAdminOrder(db: Db, orderId: string): Promise<AdminOrderDetail | null> {
  const order = await getOrder(db, orderId);
  if (!order) return null;
  const [labelled] = await db
    .select({ label: orders.shippingLabel })
    .from(orders)
    .where(eq(orders.id, orderId));
  return {
    id: order.id,
    number: order.number,
    status: order.status,
    customer: order.customer,
    address: addressLine(order.address),
    createdAt: order.createdAt,
    lines: order.lines,
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    shipping: order.shipping,
    adjustments: order.adjustments,
    totalCents: order.totalCents,
    paymentMethod: order.paymentMethod,
    payment: {
      provider: order.payment.provider,
      id: order.payment.id,
      status: order.payment.status,
      paidAt: order.paidAt,
      expiresAt: order.payment.expiresAt,
      latePaymentAt: order.latePaymentAt,
      details: order.payment.details,
      review: order.payment.review,
    },
    trackingCode: order.trackingCode,
    cancelReason: order.cancelReason,
    cancelledAt: order.cancelledAt,
    label: labelled?.label ?? null,
    events: await listOrderEvents(db, orderId),
  };
}

/** Deletes the order with its lines and timeline; the caller decided it may go. */
export async function deleteOrderRow(db: Db, orderId: string): Promise<void> {
  await db.delete(orders).where(eq(orders.id, orderId));
}

/** Deletes every order with its lines and timeline (a demo's test orders); answers their ids. */
export async function deleteAllOrders(db: Db): Promise<string[]> {
  const deleted = await db.delete(orders).returning({ id: orders.id });
  return deleted.map((row) => row.id);
}
