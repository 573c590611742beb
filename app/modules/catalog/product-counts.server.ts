import { count, gt, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import type { DayRange } from '~/lib/periods';
import { withinDays } from '~/lib/periods.server';

import { products } from './schema';

/** How many products the catalogue has, and how many of them were created within `range`. */
export async function productCounts(
  db: Db,
  range: DayRange,
  timeZone: string,
): Promise<{ total: number; createdInPeriod: number }> {
  const [row] = await db
    .select({
      total: count(),
      createdInPeriod:
        sql<number>`(count(*) filter (where ${withinDays(products.createdAt, range, timeZone)}))::int`.mapWith(
          Number,
        ),
    })
    .from(products);
  return row!;
}

/** Whether any product has a unit to sell: a store with none cannot make its first sale. */
export async function hasProductInStock(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(gt(products.stockQuantity, 0))
    .limit(1);
  return row !== undefined;
}
