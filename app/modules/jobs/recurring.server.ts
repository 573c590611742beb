import { sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { recurringRuns } from './schema';

/**
 * Whether this instance runs the recurring work `name` now: true for the one caller that moves
 * its next run `intervalMs` past `now`, when it was due (or never ran). Every instance may ask
 * as often as it likes; one UPDATE (or the first INSERT) decides, so the work runs once per
 * interval across the store, and an instance that stops leaves it to the others.
 */
export async function claimRecurringRun(
  db: Db,
  name: string,
  intervalMs: number,
  now: Date = new Date(),
): Promise<boolean> {
  const next = new Date(now.getTime() + intervalMs);
  const claimed = await db
    .insert(recurringRuns)
    .values({ name, nextRunAt: next })
    .onConflictDoUpdate({
      target: recurringRuns.name,
      set: { nextRunAt: next },
      setWhere: sql`${recurringRuns.nextRunAt} <= ${now.toISOString()}::timestamptz`,
    })
    .returning({ name: recurringRuns.name });
  return claimed.length > 0;
}
