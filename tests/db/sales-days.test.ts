import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { coupons, orders } from '~/db/schema';
import {
  changeOrderStatus,
  deleteOrderByStaff,
  markPaidByStaff,
} from '~/flows/admin-order-status.server';
import type { StaffMember } from '~/flows/order-changes.server';
import { calendarDayIn, monthToDate, resolvePeriod, type DayRange } from '~/lib/periods';
import { createAdmin } from '~/modules/auth/index.server';
import type { OrderAdjustment, OrderStatus } from '~/modules/orders';
import { deleteAllOrders, salesByDay, salesMetrics } from '~/modules/orders/index.admin.server';

import { ADMIN } from '../support/admin';
import { describeDb, queryRows } from '../support/db';
import { acrossMigration } from '../support/migrations';
import { insertOrderRow, newOrder, writtenOrder } from '../support/orders';
import { until } from '../support/until';

const SAO_PAULO = 'America/Sao_Paulo';
const MANAUS = 'America/Manaus';
const noTracking = { tracking: false };

interface DayRow {
  timeZone: string;
  day: string;
  status: OrderStatus;
  orders: number;
  totalCents: string;
  discountCents: string;
}

/** The days kept, leaving out rows whose orders all moved away (all zeros). */
function keptDays(db: Db): Promise<DayRow[]> {
  return queryRows<DayRow>(
    db,
    sql`select time_zone as "timeZone", day::text as day, status, orders,
          total_cents::text as "totalCents", discount_cents::text as "discountCents"
        from order_sales_days
        where orders <> 0 or total_cents <> 0 or discount_cents <> 0
        order by 1, 2, 3`,
  );
}

/**
 * The same figures worked out from the orders and their adjustments as they are now, for every
 * zone the days are kept in: what the dashboard read before it had the days.
 */
function daysFromOrders(db: Db): Promise<DayRow[]> {
  return queryRows<DayRow>(
    db,
    sql`select z.time_zone as "timeZone", (o.created_at at time zone z.time_zone)::date::text as day,
          o.status, count(*)::int as orders, sum(o.total_amount_cents)::bigint::text as "totalCents",
          coalesce(sum(a.cents), 0)::bigint::text as "discountCents"
        from order_sales_zones z
        cross join orders o
        left join lateral (
          select -sum(amount_cents) as cents from order_adjustments
          where order_id = o.id and amount_cents < 0
        ) a on true
        group by 1, 2, 3
        order by 1, 2, 3`,
  );
}

async function expectDaysMatchOrders(db: Db, zones: string[] = [SAO_PAULO]): Promise<void> {
  const listed = await queryRows<{ timeZone: string }>(
    db,
    sql`select time_zone as "timeZone" from order_sales_zones order by 1`,
  );
  expect(listed.map((row) => row.timeZone)).toEqual([...zones].sort());
  expect(await keptDays(db)).toEqual(await daysFromOrders(db));
}

/** Reading a day's sales lists the zone: from then on its days are kept. */
async function readIn(
  db: Db,
  timeZone: string,
  range: DayRange = { from: '2025-03-10', to: '2025-03-10' },
) {
  return salesByDay(db, range, timeZone);
}

/** An order as checkout writes it (insertOrder, one statement), with these adjustments. */
async function placeWith(
  db: Db,
  totalCents: number,
  adjustments: OrderAdjustment[] = [],
): Promise<string> {
  const order = await writtenOrder(db, newOrder({ adjustments, totalCents }), { tracking: false });
  return order.id;
}

const pix = (cents: number): OrderAdjustment => ({
  kind: 'pix',
  label: 'Desconto PIX (10%)',
  cents,
  couponId: null,
  couponCode: null,
});

async function staff(db: Db): Promise<StaffMember> {
  const created = await createAdmin(db, ADMIN);
  if (!created.ok) throw new Error(created.error);
  return { id: created.id, email: ADMIN.email, fullName: ADMIN.fullName };
}

describeDb('sales days', ({ db, backend }) => {
  it('follow a checkout order through payment, shipping, cancellation and deletion', async () => {
    const admin = await staff(db());
    await readIn(db(), SAO_PAULO);
    const [coupon] = await db()
      .insert(coupons)
      .values({ code: 'BEMVINDO10', kind: 'percent', value: 10 })
      .returning();
    const paid = await placeWith(db(), 9_000, [pix(-1_000)]);
    const withCoupon = await placeWith(db(), 8_100, [
      {
        kind: 'coupon',
        label: 'Cupom BEMVINDO10',
        cents: -1_000,
        couponId: coupon!.id,
        couponCode: 'BEMVINDO10',
      },
      pix(-900),
    ]);
    const plain = await placeWith(db(), 10_000);
    await expectDaysMatchOrders(db());
    expect(
      (await keptDays(db())).map((row) => [row.status, row.orders, row.discountCents]),
    ).toEqual([['pending', 3, '2900']]);

    expect((await markPaidByStaff(db(), paid, admin, noTracking)).ok).toBe(true);
    await expectDaysMatchOrders(db());
    for (const to of ['shipped', 'delivered'] as const) {
      const trackingCode = to === 'shipped' ? 'AA123456789BR' : null;
      const changed = await changeOrderStatus(
        db(),
        { orderId: paid, to, trackingCode, admin },
        noTracking,
      );
      expect(changed.ok).toBe(true);
      await expectDaysMatchOrders(db());
    }
    expect(
      (
        await changeOrderStatus(
          db(),
          { orderId: withCoupon, to: 'cancelled', trackingCode: null, admin },
          noTracking,
        )
      ).ok,
    ).toBe(true);
    await expectDaysMatchOrders(db());
    expect((await deleteOrderByStaff(db(), plain, admin)).ok).toBe(true);
    await expectDaysMatchOrders(db());

    // The dashboard's figures for the day the orders were placed, from the days.
    const [row] = await db()
      .select({ createdAt: orders.createdAt })
      .from(orders)
      .where(eq(orders.id, paid));
    const day = calendarDayIn(row!.createdAt, SAO_PAULO);
    const period = resolvePeriod(
      new URLSearchParams({ period: 'personalizado', from: day, to: day }),
      day,
    );
    const metrics = await salesMetrics(db(), {
      period,
      month: monthToDate(day),
      timeZone: SAO_PAULO,
    });
    expect(metrics.byStatus).toEqual({
      pending: 0,
      confirmed: 0,
      shipped: 0,
      delivered: 1,
      cancelled: 1,
    });
    expect(metrics.periodSales.current).toBe(9_000);
    // The cancelled order's discounts are not the period's: only paid orders' are.
    expect(metrics.periodDiscounts.current).toBe(1_000);

    // Going live deletes every order in one statement.
    await deleteAllOrders(db());
    await expectDaysMatchOrders(db());
    expect(await keptDays(db())).toEqual([]);
  });

  it("put an order on its day in the store's zone, up to midnight and across daylight saving", async () => {
    await readIn(db(), SAO_PAULO);
    await readIn(db(), MANAUS);
    const at = (iso: string, status: OrderStatus = 'confirmed', cents = 1_000) =>
      insertOrderRow(db(), { createdAt: new Date(iso), status, cents });
    await at('2025-03-10T02:59:59Z'); // São Paulo 09/03 23:59:59, Manaus 09/03 22:59:59
    await at('2025-03-10T03:00:00Z'); // São Paulo 10/03 00:00, Manaus 09/03 23:00
    const late = await at('2025-03-10T03:59:59Z'); // Manaus 09/03 23:59:59
    await at('2025-03-10T04:00:00Z'); // Manaus 10/03 00:00
    const range = { from: '2025-03-09', to: '2025-03-10' };
    expect(await salesByDay(db(), range, SAO_PAULO)).toEqual([
      { day: '2025-03-09', cents: 1_000, orders: 1 },
      { day: '2025-03-10', cents: 3_000, orders: 3 },
    ]);
    expect(await salesByDay(db(), range, MANAUS)).toEqual([
      { day: '2025-03-09', cents: 3_000, orders: 3 },
      { day: '2025-03-10', cents: 1_000, orders: 1 },
    ]);
    await expectDaysMatchOrders(db(), [SAO_PAULO, MANAUS]);

    // An order moved across midnight by plain SQL moves to its new day.
    await db()
      .update(orders)
      .set({ createdAt: new Date('2025-03-10T04:00:00Z') })
      .where(eq(orders.id, late.id));
    expect(await salesByDay(db(), range, MANAUS)).toEqual([
      { day: '2025-03-09', cents: 2_000, orders: 2 },
      { day: '2025-03-10', cents: 2_000, orders: 2 },
    ]);
    await expectDaysMatchOrders(db(), [SAO_PAULO, MANAUS]);

    // São Paulo's summer time: 04/11/2018 began at 01:00 (UTC−2), 16/02/2019 lasted 25 hours.
    await at('2018-11-04T02:59:59Z'); // 03/11 23:59:59 (UTC−3)
    await at('2018-11-04T03:00:00Z'); // 04/11 01:00 (UTC−2)
    await at('2019-02-17T01:30:00Z'); // 16/02 23:30 (UTC−2)
    await at('2019-02-17T02:30:00Z'); // 16/02 23:30 again (UTC−3)
    await at('2019-02-17T03:00:00Z'); // 17/02 00:00
    expect(await salesByDay(db(), { from: '2018-11-03', to: '2018-11-04' }, SAO_PAULO)).toEqual([
      { day: '2018-11-03', cents: 1_000, orders: 1 },
      { day: '2018-11-04', cents: 1_000, orders: 1 },
    ]);
    expect(await salesByDay(db(), { from: '2019-02-16', to: '2019-02-17' }, SAO_PAULO)).toEqual([
      { day: '2019-02-16', cents: 2_000, orders: 2 },
      { day: '2019-02-17', cents: 1_000, orders: 1 },
    ]);
    await expectDaysMatchOrders(db(), [SAO_PAULO, MANAUS]);
  });

  it('count the orders already placed when a zone is first read, and keep every zone read', async () => {
    const [first] = await Promise.all([
      insertOrderRow(db(), {
        createdAt: new Date('2025-03-10T15:00:00Z'),
        status: 'confirmed',
        cents: 2_000,
      }),
      insertOrderRow(db(), { createdAt: new Date('2025-03-10T16:00:00Z'), cents: 500 }),
    ]);
    const discounted = await placeWith(db(), 9_000, [pix(-1_000)]);
    // No zone read yet: nothing kept, and nothing to keep.
    expect(await keptDays(db())).toEqual([]);

    expect(await readIn(db(), SAO_PAULO)).toEqual([{ day: '2025-03-10', cents: 2_000, orders: 1 }]);
    await expectDaysMatchOrders(db());
    await db().update(orders).set({ status: 'cancelled' }).where(eq(orders.id, first!.id));
    await expectDaysMatchOrders(db());

    await readIn(db(), MANAUS);
    await db().update(orders).set({ status: 'confirmed' }).where(eq(orders.id, discounted));
    await db().delete(orders).where(eq(orders.id, first!.id));
    await expectDaysMatchOrders(db(), [SAO_PAULO, MANAUS]);
  });

  it('add up every change a transaction made, and nothing of one rolled back', async () => {
    await readIn(db(), SAO_PAULO);
    const kept = await insertOrderRow(db(), {
      createdAt: new Date('2025-03-10T15:00:00Z'),
      cents: 3_000,
    });
    await db().transaction(async (tx) => {
      const order = await insertOrderRow(tx, {
        createdAt: new Date('2025-03-10T16:00:00Z'),
        cents: 1_000,
      });
      await tx.update(orders).set({ status: 'confirmed' }).where(eq(orders.id, order.id));
      await tx.update(orders).set({ totalAmountCents: 900 }).where(eq(orders.id, order.id));
      await tx.update(orders).set({ status: 'shipped' }).where(eq(orders.id, order.id));
      await tx.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, kept.id));
    });
    await expectDaysMatchOrders(db());
    await db().transaction(async (tx) => {
      const order = await insertOrderRow(tx, {
        createdAt: new Date('2025-03-10T17:00:00Z'),
        cents: 5_000,
      });
      await tx.delete(orders).where(eq(orders.id, order.id));
    });
    await expectDaysMatchOrders(db());
    await expect(
      db().transaction(async (tx) => {
        await insertOrderRow(tx, { createdAt: new Date('2025-03-10T18:00:00Z'), cents: 7_000 });
        await tx.update(orders).set({ status: 'pending' }).where(eq(orders.id, kept.id));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expectDaysMatchOrders(db());
    expect((await keptDays(db())).map((row) => [row.status, row.orders, row.totalCents])).toEqual([
      ['cancelled', 1, '3000'],
      ['shipped', 1, '900'],
    ]);
  });

  it('follow discounts written, changed and deleted by plain SQL', async () => {
    await readIn(db(), SAO_PAULO);
    const order = await placeWith(db(), 9_000, [pix(-1_000)]);
    const adjust = (statement: ReturnType<typeof sql>) => db().execute(statement);
    await adjust(sql`insert into order_adjustments (order_id, position, kind, label, amount_cents)
      values (${order}, 2, 'pix', 'Desconto extra', -500), (${order}, 3, 'pix', 'Taxa', 200)`);
    await expectDaysMatchOrders(db());
    await adjust(sql`update order_adjustments set amount_cents = -700 where position = 2`);
    await expectDaysMatchOrders(db());
    await adjust(sql`delete from order_adjustments where position = 1`);
    await expectDaysMatchOrders(db());
    expect((await keptDays(db())).map((row) => row.discountCents)).toEqual(['700']);
  });

  it('go with the orders when the table is emptied', async () => {
    await readIn(db(), SAO_PAULO);
    await placeWith(db(), 9_000, [pix(-1_000)]);
    await db().execute(sql`truncate orders cascade`);
    expect(await keptDays(db())).toEqual([]);
    await expectDaysMatchOrders(db());
  });

  it.runIf(backend === 'postgres')(
    'count every order of parallel checkouts, and one written while a zone is first read',
    async () => {
      await readIn(db(), SAO_PAULO);
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => placeWith(db(), 1_000 + i, [pix(-10)])),
      );
      await expectDaysMatchOrders(db());

      // A checkout's transaction is open when Manaus is read for the first time: the read waits
      // for it, and its order is counted in Manaus once.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const inserted = new Promise<void>((resolve) => (written = resolve));
      const checkout = db().transaction(async (tx) => {
        await insertOrderRow(tx, { createdAt: new Date('2025-03-10T15:00:00Z'), cents: 4_000 });
        written();
        await held;
      });
      await inserted;
      const reading = readIn(db(), MANAUS);
      await until(async () => {
        const [waiting] = await queryRows<{ n: number }>(
          db(),
          sql`select count(*)::int as n from pg_locks
              where not granted and relation = 'orders'::regclass`,
        );
        return waiting!.n > 0 ? true : undefined;
      }, 'the first read of Manaus to wait for the open checkout');
      release();
      await checkout;
      expect(await reading).toEqual([{ day: '2025-03-10', cents: 0, orders: 0 }]);
      await expectDaysMatchOrders(db(), [SAO_PAULO, MANAUS]);
    },
  );
});

describe('sales days migration', () => {
  it("writes each order's discounts on its row, from the adjustments it already had", async () => {
    await acrossMigration(
      '_sales_days',
      async (client) => {
        for (const [number, total] of [
          [1, 8_200],
          [2, 10_000],
        ]) {
          await client.query(
            `insert into orders (id, customer_name, customer_email, customer_phone, customer_cpf,
              shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
              shipping_state, subtotal_cents, total_amount_cents, order_token)
             values ($1, 'Ana', 'ana@example.com', '11987654321', '52998224725', '01310100', 'Rua',
              '1', 'Centro', 'São Paulo', 'SP', 10000, $2, 'token')`,
            [`5a3b1e00-0000-4000-8000-00000000e00${number}`, total],
          );
        }
        await client.query(
          `insert into order_adjustments (order_id, position, kind, label, amount_cents)
           values ($1, 1, 'pix', 'Desconto PIX (10%)', -1000), ($1, 2, 'pix', 'Desconto PIX', -800)`,
          ['5a3b1e00-0000-4000-8000-00000000e001'],
        );
      },
      async (client) => {
        const { rows } = await client.query<{ total: number; discount: number }>(
          'select total_amount_cents as total, discount_cents as discount from orders order by id',
        );
        expect(rows).toEqual([
          { total: 8_200, discount: 1_800 },
          { total: 10_000, discount: 0 },
        ]);
      },
    );
  });
});
