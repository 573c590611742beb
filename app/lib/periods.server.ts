import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

import { addDays, type DayRange } from './periods';

/**
 * The first instant of a calendar day of `timeZone`, worked out by the database (its zone rules
 * know every daylight-saving change, past and future).
 */
function dayStart(day: string, timeZone: string): SQL {
  return sql`(${day}::date::timestamp at time zone ${timeZone})`;
}

/**
 * `column` falls within the days of `range` on the store's calendar (the last day included to
 * its final instant). A range on the bare column, so an index on it serves the condition.
 */
export function withinDays(column: AnyColumn, range: DayRange, timeZone: string): SQL {
  return sql`(${column} >= ${dayStart(range.from, timeZone)} and ${column} < ${dayStart(addDays(range.to, 1), timeZone)})`;
}
