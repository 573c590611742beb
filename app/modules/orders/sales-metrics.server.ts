import { and, inArray, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';

import type { Db } from '~/db/database.server';
import { addDays, dayCount, type DayRange } from '~/lib/periods';

import { ensureSalesDays, salesDaysWithin } from './sales-days.server';
import { ORDER_STATUSES, orderSalesDays, type OrderStatus } from './schema';

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

type StatusTotals = Record<OrderStatus, { orders: number; cents: number; discountCents: number }>;

function emptyTotals(): StatusTotals {
  return Object.fromEntries(
    ORDER_STATUSES.map((status) => [status, { orders: 0, cents: 0, discountCents: 0 }]),
  ) as StatusTotals;
}

function ordersOf(totals: StatusTotals, statuses: readonly OrderStatus[]): number {
  return statuses.reduce((sum, status) => sum + totals[status].orders, 0);
}

function centsOf(totals: StatusTotals, statuses: readonly OrderStatus[]): number {
  return statuses.reduce((sum, status) => sum + totals[status].cents, 0);
}

function discountsOf(totals: StatusTotals, statuses: readonly OrderStatus[]): number {
  return statuses.reduce((sum, status) => sum + totals[status].discountCents, 0);
}

/**
 * Every figure of the dashboard's cards and status panel, in one query of the sales days: for
 * each distinct window (the period, the one before, this month, the same days of last month) the
 * orders, their totals and their discounts by status. A window of a year is a few hundred rows,
 * whatever the number of orders.
 */
export async function salesMetrics(db: Db, input: MetricsPeriods): Promise<SalesMetrics> {
  await ensureSalesDays(db, input.timeZone);
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
        status: orderSalesDays.status,
        orders: sql<number>`coalesce(sum(${orderSalesDays.orders}), 0)::int`.mapWith(Number),
        // Sums are bigint (a big store passes 2^31 cents in a year); drivers answer them as text.
        cents: sql<number>`coalesce(sum(${orderSalesDays.totalCents}), 0)::bigint`.mapWith(Number),
        discountCents:
          sql<number>`coalesce(sum(${orderSalesDays.discountCents}), 0)::bigint`.mapWith(Number),
      })
      .from(orderSalesDays)
      .where(salesDaysWithin(ranges.get(key)!, input.timeZone))
      .groupBy(orderSalesDays.status),
  );
  const rows = await unionAll(first!, second!, ...rest);

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
    periodDiscounts: {
      current: discountsOf(period, REVENUE_STATUSES),
      previous: discountsOf(before, REVENUE_STATUSES),
    },
    monthSales: {
      current: centsOf(of(windows.month), REVENUE_STATUSES),
      previous: centsOf(of(windows.monthBefore), REVENUE_STATUSES),
    },
    byStatus: Object.fromEntries(
      ORDER_STATUSES.map((status) => [status, period[status].orders]),
    ) as Record<OrderStatus, number>,
  };
}

/** One day of the sales chart. */
export interface DailySales {
  /** YYYY-MM-DD on the store's calendar. */
  day: string;
  cents: number;
  orders: number;
}

/**
 * Revenue (paid orders) per store calendar day of `range`, days without sales included as 0: the
 * sales days of the range, each day as long as the zone's calendar makes it (23 or 25 hours on a
 * daylight-saving change).
 */
export async function salesByDay(db: Db, range: DayRange, timeZone: string): Promise<DailySales[]> {
  await ensureSalesDays(db, timeZone);
  const rows = await db
    .select({
      day: orderSalesDays.day,
      cents: sql<number>`sum(${orderSalesDays.totalCents})::bigint`.mapWith(Number),
      orders: sql<number>`sum(${orderSalesDays.orders})::int`.mapWith(Number),
    })
    .from(orderSalesDays)
    .where(and(salesDaysWithin(range, timeZone), inArray(orderSalesDays.status, REVENUE_STATUSES)))
    .groupBy(orderSalesDays.day);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return Array.from({ length: dayCount(range) }, (_, index) => {
    const day = addDays(range.from, index);
    const sales = byDay.get(day);
    return { day, cents: sales?.cents ?? 0, orders: sales?.orders ?? 0 };
  });
}
