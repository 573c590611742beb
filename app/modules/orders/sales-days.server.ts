import { and, between, eq, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import type { DayRange } from '~/lib/periods';

import { orders, orderSalesDays, orderSalesZones } from './schema';

/**
 * Makes sure orderSalesDays keeps `timeZone`'s days (the store's zone, read for the first time, or
 * changed): lists the zone and counts every order into its days, once, whichever instance asks
 * first. Orders may not be written meanwhile: the lock waits for the transactions writing orders
 * to commit (their trigger counts them in the zones it finds listed) and holds new ones until the
 * zone is listed with its days (their trigger then finds it). The lock conflicts with itself, so
 * a second instance asking at the same time waits and then finds the zone listed.
 */
export async function ensureSalesDays(db: Db, timeZone: string): Promise<void> {
  const [listed] = await db
    .select({ timeZone: orderSalesZones.timeZone })
    .from(orderSalesZones)
    .where(eq(orderSalesZones.timeZone, timeZone));
  if (listed) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`lock table ${orders} in share row exclusive mode`);
    const added = await tx
      .insert(orderSalesZones)
      .values({ timeZone })
      .onConflictDoNothing()
      .returning();
    if (added.length === 0) return;
    await tx.execute(sql`
      insert into ${orderSalesDays}
        (time_zone, day, status, orders, total_cents, discount_cents)
      select ${timeZone}::text, (${orders.createdAt} at time zone ${timeZone})::date,
             ${orders.status}, count(*), sum(${orders.totalAmountCents}), sum(${orders.discountCents})
      from ${orders}
      group by 2, 3`);
  });
}

/** The sales days of `range` (both ends included) in `timeZone`'s calendar. */
export function salesDaysWithin(range: DayRange, timeZone: string): SQL {
  return and(
    eq(orderSalesDays.timeZone, timeZone),
    between(orderSalesDays.day, range.from, range.to),
  )!;
}
