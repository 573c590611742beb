import { and, eq, inArray, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';

import type { Db } from '~/db/database.server';
import type { DayRange } from '~/lib/periods';
import { withinDays } from '~/lib/periods.server';

import { ORDER_STATUSES, orderAdjustments, orders, type OrderStatus } from './schema';

/** The statuses whose money the store has (SPEC §4): paid, then shipped and delivered. */
const REVENUE_STATUSES = [
  'confirmed',
  'shipped',
  'delivered',
] as const satisfies readonly OrderStatus[];

/** A figure for a period and for the period it is compared with. */
export interface Compared {
  current: number;
  previous: number;
}

export interface SalesMetrics {
  /** Orders placed in the period, any status. */
  totalOrders: Compared;
  /** Orders placed in the period that are paid (confirmed, shipped or delivered). */
  paidOrders: Compared;
  /** Orders placed in the period still waiting for payment. */
  pendingOrders: Compared;
  /** Cents of the paid orders placed in the period. */
  periodSales: Compared;
  /** Cents taken off the paid orders placed in the period (PIX discounts and coupons). */
  periodDiscounts: Compared;
  /** Cents of the paid orders placed this month so far, against the same days of last month. */
  monthSales: Compared;
  /** Orders placed in the period, by their status now. */
  byStatus: Record<OrderStatus, number>;
}

export interface MetricsPeriods {
  period: { range: DayRange; previous: DayRange };
  month: { range: DayRange; previous: DayRange };
  timeZone: string;
}

type StatusTotals = Record<OrderStatus, { orders: number; cents: number }>;

function emptyTotals(): StatusTotals {
  return Object.fromEntries(
    ORDER_STATUSES.map((status) => [status, { orders: 0, cents: 0 }]),
  ) as StatusTotals;
}

function ordersOf(totals: StatusTotals, statuses: readonly OrderStatus[]): number {
  return statuses.reduce((sum, status) => sum + totals[status].orders, 0);
}

function centsOf(totals: StatusTotals, statuses: readonly OrderStatus[]): number {
  return statuses.reduce((sum, status) => sum + totals[status].cents, 0);
}

/**
 * Every figure of the dashboard's cards and status panel. The orders' come in one query: for
 * each distinct window (the period, the one before, this month, the same days of last month) the
 * orders and their cents by status, each window read as a range of the created_at index.
 * Grouping by status and adding up here costs a third of one pass with a FILTER per figure,
 * where PGlite spends its time evaluating expressions row by row. The discounts, read from the
 * orders' adjustments, are two more queries beside it.
 */
export async function salesMetrics(db: Db, input: MetricsPeriods): Promise<SalesMetrics> {
  const windows = {
    period: input.period.range,
    before: input.period.previous,
    month: input.month.range,
    monthBefore: input.month.previous,
  };
  // 'Este mês' is its own month: the same days are read once.
  const ranges = new Map<string, DayRange>();
  for (const range of Object.values(windows)) ranges.set(`${range.from}/${range.to}`, range);
  const keys = [...ranges.keys()];
  const [first, second, ...rest] = keys.map((key, index) =>
    db
      .select({
        window: sql<number>`${index}::int`.mapWith(Number),
        status: orders.status,
        orders: sql<number>`count(*)::int`.mapWith(Number),
        // Sums are bigint (a big store passes 2^31 cents in a year); drivers answer them as text.
        cents: sql<number>`coalesce(sum(${orders.totalAmountCents}), 0)::bigint`.mapWith(Number),
      })
      .from(orders)
      .where(withinDays(orders.createdAt, ranges.get(key)!, input.timeZone))
      .groupBy(orders.status),
  );
  const [rows, currentDiscounts, previousDiscounts] = await Promise.all([
    unionAll(first!, second!, ...rest),
    discountsOf(db, windows.period, input.timeZone),
    discountsOf(db, windows.before, input.timeZone),
  ]);

  const totals = keys.map(emptyTotals);
  for (const row of rows) totals[row.window]![row.status] = row;
  const of = (range: DayRange) => totals[keys.indexOf(`${range.from}/${range.to}`)]!;
  const period = of(windows.period);
  const before = of(windows.before);
  return {
    totalOrders: {
      current: ordersOf(period, ORDER_STATUSES),
      previous: ordersOf(before, ORDER_STATUSES),
    },
    paidOrders: {
      current: ordersOf(period, REVENUE_STATUSES),
      previous: ordersOf(before, REVENUE_STATUSES),
    },
    pendingOrders: { current: period.pending.orders, previous: before.pending.orders },
    periodSales: {
      current: centsOf(period, REVENUE_STATUSES),
      previous: centsOf(before, REVENUE_STATUSES),
    },
    periodDiscounts: { current: currentDiscounts, previous: previousDiscounts },
    monthSales: {
      current: centsOf(of(windows.month), REVENUE_STATUSES),
      previous: centsOf(of(windows.monthBefore), REVENUE_STATUSES),
    },
    byStatus: Object.fromEntries(
      ORDER_STATUSES.map((status) => [status, period[status].orders]),
    ) as Record<OrderStatus, number>,
  };
}

/**
 * The cents taken off the orders the period's revenue counts (paid, placed within `range`): the
 * sum of their discount adjustments, as a positive figure.
 */
async function discountsOf(db: Db, range: DayRange, timeZone: string): Promise<number> {
  const [row] = await db
    .select({
      cents: sql<number>`coalesce(-sum(${orderAdjustments.amountCents}), 0)::bigint`.mapWith(
        Number,
      ),
    })
    .from(orderAdjustments)
    .innerJoin(orders, eq(orders.id, orderAdjustments.orderId))
    .where(
      and(
        withinDays(orders.createdAt, range, timeZone),
        inArray(orders.status, REVENUE_STATUSES),
        sql`${orderAdjustments.amountCents} < 0`,
      ),
    );
  return row?.cents ?? 0;
}

/** One day of the sales chart. */
export interface DailySales {
  /** YYYY-MM-DD on the store's calendar. */
  day: string;
  cents: number;
  orders: number;
}

const revenueStatuses = sql.join(
  REVENUE_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);

/**
 * Revenue (paid orders) per store calendar day of `range`, days without sales included as 0.
 * Each day is its own range of the created_at index, from its local midnight to the next
 * (23 or 25 hours on a daylight-saving change): no time-zone conversion of every order.
 */
export async function salesByDay(db: Db, range: DayRange, timeZone: string): Promise<DailySales[]> {
  const result = await db.execute(sql`
    select to_char(day, 'YYYY-MM-DD') as day, sales.cents, sales.orders
    from generate_series(${range.from}::timestamp, ${range.to}::timestamp, interval '1 day') as day
    cross join lateral (
      select coalesce(sum(${orders.totalAmountCents}), 0)::bigint as cents, count(*)::int as orders
      from ${orders}
      where ${orders.status} in (${revenueStatuses})
        and ${orders.createdAt} >= (day at time zone ${timeZone})
        and ${orders.createdAt} < ((day + interval '1 day') at time zone ${timeZone})
    ) as sales
    order by day`);
  const rows = (result as unknown as { rows: { day: string; cents: unknown; orders: unknown }[] })
    .rows;
  return rows.map((row) => ({
    day: row.day,
    cents: Number(row.cents),
    orders: Number(row.orders),
  }));
}
