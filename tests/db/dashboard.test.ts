import { expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { products } from '~/db/schema';
import { monthToDate, resolvePeriod, type DayRange } from '~/lib/periods';
import { productCounts } from '~/modules/catalog/index.server';
import type { OrderStatus } from '~/modules/orders';
import { salesByDay, salesMetrics } from '~/modules/orders/index.admin.server';

import { describeDb } from '../support/db';
import { insertOrderRow } from '../support/orders';

const SAO_PAULO = 'America/Sao_Paulo';
// A Monday; São Paulo is at UTC−3 all year since 2019.
const TODAY = '2025-03-10';

async function placeOrder(db: Db, at: string, status: OrderStatus, cents: number): Promise<void> {
  await insertOrderRow(db, { createdAt: new Date(at), status, cents });
}

/** The orders of the scenario, at instants written in UTC with their São Paulo time beside. */
async function placeScenario(db: Db): Promise<void> {
  await placeOrder(db, '2025-03-10T03:00:00Z', 'pending', 2_000); // 10/03 00:00, today's first instant
  await placeOrder(db, '2025-03-10T15:00:00Z', 'confirmed', 10_000); // 10/03 12:00
  await placeOrder(db, '2025-03-11T02:30:00Z', 'shipped', 5_000); // 10/03 23:30 (11/03 in UTC)
  await placeOrder(db, '2025-03-11T03:00:00Z', 'confirmed', 99_999); // 11/03 00:00, tomorrow
  await placeOrder(db, '2025-03-10T02:59:59Z', 'delivered', 3_000); // 09/03 23:59:59, yesterday
  await placeOrder(db, '2025-03-09T13:00:00Z', 'cancelled', 7_000); // 09/03 10:00
  await placeOrder(db, '2025-03-03T03:00:00Z', 'confirmed', 1_000); // 03/03 00:00, 7 days before
  await placeOrder(db, '2025-03-03T02:59:00Z', 'confirmed', 500); // 02/03 23:59
  await placeOrder(db, '2025-02-05T15:00:00Z', 'confirmed', 4_000); // 05/02, last month
  await placeOrder(db, '2025-02-20T15:00:00Z', 'confirmed', 8_000); // 20/02, after the 10th
  await placeOrder(db, '2025-02-28T15:00:00Z', 'pending', 600); // 28/02
}

function metricsFor(db: Db, query: string, today = TODAY, timeZone = SAO_PAULO) {
  const period = resolvePeriod(new URLSearchParams(query), today);
  return salesMetrics(db, { period, month: monthToDate(today), timeZone });
}

describeDb('dashboard figures', ({ db }) => {
  it('counts today on the São Paulo calendar, 23:30 included and tomorrow left out', async () => {
    await placeScenario(db());
    expect(await metricsFor(db(), 'period=hoje')).toEqual({
      totalOrders: { current: 3, previous: 2 },
      paidOrders: { current: 2, previous: 1 },
      pendingOrders: { current: 1, previous: 0 },
      periodSales: { current: 15_000, previous: 3_000 },
      periodDiscounts: { current: 0, previous: 0 },
      // 1–10 March against 1–10 February: the 20 February order is not among those days.
      monthSales: { current: 19_500, previous: 4_000 },
      byStatus: { pending: 1, confirmed: 1, shipped: 1, delivered: 0, cancelled: 0 },
    });
  });

  it('ends yesterday at 23:59:59 and compares it with the day before', async () => {
    await placeScenario(db());
    const metrics = await metricsFor(db(), 'period=ontem');
    expect(metrics.totalOrders).toEqual({ current: 2, previous: 0 });
    expect(metrics.periodSales).toEqual({ current: 3_000, previous: 0 });
    expect(metrics.byStatus).toEqual({
      pending: 0,
      confirmed: 0,
      shipped: 0,
      delivered: 1,
      cancelled: 1,
    });
  });

  it('starts the last 7 days at midnight 7 days before today', async () => {
    await placeScenario(db());
    const metrics = await metricsFor(db(), 'period=7dias');
    // 3–10 March against 23 February – 2 March.
    expect(metrics.totalOrders).toEqual({ current: 6, previous: 2 });
    expect(metrics.paidOrders).toEqual({ current: 4, previous: 1 });
    expect(metrics.pendingOrders).toEqual({ current: 1, previous: 1 });
    expect(metrics.periodSales).toEqual({ current: 19_000, previous: 500 });
  });

  it('takes this month from day 1 and a custom period with its last day whole', async () => {
    await placeScenario(db());
    expect((await metricsFor(db(), 'period=mes')).periodSales).toEqual({
      current: 19_500,
      previous: 4_000,
    });
    const custom = await metricsFor(db(), 'period=personalizado&from=2025-02-20&to=2025-03-09');
    // 20/02 to 09/03 (18 days) against 02/02 to 19/02.
    expect(custom.periodSales).toEqual({ current: 8_000 + 500 + 1_000 + 3_000, previous: 4_000 });
    expect(custom.totalOrders).toEqual({ current: 6, previous: 1 });
  });

  it('has zeros and no error for a period without orders', async () => {
    expect(await metricsFor(db(), 'period=hoje')).toEqual({
      totalOrders: { current: 0, previous: 0 },
      paidOrders: { current: 0, previous: 0 },
      pendingOrders: { current: 0, previous: 0 },
      periodSales: { current: 0, previous: 0 },
      periodDiscounts: { current: 0, previous: 0 },
      monthSales: { current: 0, previous: 0 },
      byStatus: { pending: 0, confirmed: 0, shipped: 0, delivered: 0, cancelled: 0 },
    });
  });

  it('adds money past 2^31 cents', async () => {
    for (let i = 0; i < 3; i++) await placeOrder(db(), '2025-03-10T15:00:00Z', 'confirmed', 2e9);
    expect((await metricsFor(db(), 'period=hoje')).periodSales.current).toBe(6e9);
  });

  it('gives the revenue of each day, zero-filled, paid orders only', async () => {
    await placeScenario(db());
    const range: DayRange = { from: '2025-03-03', to: TODAY };
    expect(await salesByDay(db(), range, SAO_PAULO)).toEqual([
      { day: '2025-03-03', cents: 1_000, orders: 1 },
      { day: '2025-03-04', cents: 0, orders: 0 },
      { day: '2025-03-05', cents: 0, orders: 0 },
      { day: '2025-03-06', cents: 0, orders: 0 },
      { day: '2025-03-07', cents: 0, orders: 0 },
      { day: '2025-03-08', cents: 0, orders: 0 },
      { day: '2025-03-09', cents: 3_000, orders: 1 },
      { day: '2025-03-10', cents: 15_000, orders: 2 },
    ]);
  });

  it('follows daylight saving: a 23-hour and a 25-hour day', async () => {
    // São Paulo's summer time began on 4 Nov 2018 (00:00 → 01:00) and ended on 17 Feb 2019.
    await placeOrder(db(), '2018-11-05T02:30:00Z', 'confirmed', 100); // 05/11 00:30 (UTC−2)
    await placeOrder(db(), '2018-11-04T02:30:00Z', 'confirmed', 200); // 03/11 23:30 (UTC−3)
    await placeOrder(db(), '2019-02-17T02:30:00Z', 'confirmed', 400); // 16/02 23:30 (UTC−3)
    await placeOrder(db(), '2019-02-17T01:30:00Z', 'confirmed', 800); // 16/02 23:30 (UTC−2)
    expect(await salesByDay(db(), { from: '2018-11-03', to: '2018-11-05' }, SAO_PAULO)).toEqual([
      { day: '2018-11-03', cents: 200, orders: 1 },
      { day: '2018-11-04', cents: 0, orders: 0 },
      { day: '2018-11-05', cents: 100, orders: 1 },
    ]);
    const metrics = await metricsFor(db(), 'period=ontem', '2019-02-17');
    expect(metrics.periodSales.current).toBe(1_200);
  });

  it('reads days in the zone the store is set to', async () => {
    await placeOrder(db(), '2025-03-11T03:30:00Z', 'confirmed', 1_000); // 10/03 23:30 in Manaus
    expect((await metricsFor(db(), 'period=hoje', TODAY, 'America/Manaus')).totalOrders).toEqual({
      current: 1,
      previous: 0,
    });
    expect((await metricsFor(db(), 'period=hoje', TODAY, SAO_PAULO)).totalOrders).toEqual({
      current: 0,
      previous: 0,
    });
  });

  it('counts the catalogue and the products created in the period', async () => {
    await db()
      .insert(products)
      .values([
        { name: 'Antigo', priceCents: 100, createdAt: new Date('2025-01-01T12:00:00Z') },
        { name: 'De hoje', priceCents: 100, createdAt: new Date('2025-03-10T03:00:00Z') },
        { name: 'Tarde', priceCents: 100, createdAt: new Date('2025-03-11T02:59:59Z') },
        { name: 'Amanhã', priceCents: 100, createdAt: new Date('2025-03-11T03:00:00Z') },
      ]);
    expect(await productCounts(db(), { from: TODAY, to: TODAY }, SAO_PAULO)).toEqual({
      total: 4,
      createdInPeriod: 2,
    });
  });
});
