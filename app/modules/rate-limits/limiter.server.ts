import { isIPv6 } from 'node:net';

import { eq, lt, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import type { RateLimitPolicy } from './policies';
import { rateLimits } from './schema';

export type RateLimitVerdict =
  { allowed: true; hits: number } | { allowed: false; hits: number; retryAfterSeconds: number };

/** Who an attempt counts against: always a client address, sometimes also an account. */
export interface RateLimitSubject {
  address: string;
  /** An e-mail, lower case. */
  account?: string;
}

/**
 * The part of a client address that one client holds: the address itself for IPv4, its /64 for
 * IPv6 (a single home or server gets a whole /64 and could walk it to reset its count).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  const plain = address.split('%')[0]!;
  if (!isIPv6(plain) || plain.includes('.')) return address;
  const [head = '', tail] = plain.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  const groups = [...left, ...zeros, ...right].map((group) => group.replace(/^0+(?=.)/, ''));
  return `${groups.slice(0, 4).join(':')}::/64`;
}

function keyOf(policy: RateLimitPolicy, subject: RateLimitSubject): string {
  const address = addressKey(subject.address);
  return `${policy.name}:${subject.account === undefined ? address : `${subject.account}|${address}`}`;
}

/**
 * Counts one attempt and says whether it may go on, before the work it guards: one upsert, so
 * attempts sent at once from any number of instances are counted one after the other by the
 * row's lock, and each sees the count its own attempt made.
 */
export async function hitRateLimit(
  db: Db,
  policy: RateLimitPolicy,
  subject: RateLimitSubject,
): Promise<RateLimitVerdict> {
  const windowSeconds = policy.windowMs / 1000;
  const window = sql`make_interval(secs => ${windowSeconds}::float8)`;
  const limit = sql`${policy.limit}::int`;
  const growing = policy.maxLockMs !== undefined;
  // The n-th lock (1 for the first): plain limits lock until their window ends; guesses lock for
  // a window, doubled at each further lock, capped.
  const lock = (n: SQL, windowEnd: SQL) =>
    growing
      ? sql`now() + make_interval(secs => least(${policy.maxLockMs! / 1000}::float8,
          ${windowSeconds}::float8 * power(2, least(${n} - 1, 30))))`
      : windowEnd;
  const forgetAfter = (lockEnd: SQL, windowEnd: SQL) =>
    growing ? sql`${lockEnd} + ${window}` : windowEnd;
  const freshEnd = sql`now() + ${window}`;
  const firstLock = lock(sql`1`, freshEnd);
  const nextLock = lock(sql`r.hits + 2 - ${limit}`, sql`r.forget_at`);
  const result = await db.execute(sql`
    insert into ${rateLimits} as r (key, hits, blocked_until, forget_at, allowed)
    values (
      ${keyOf(policy, subject)}, 1,
      case when 1 >= ${limit} then ${firstLock} end,
      case when 1 >= ${limit} then ${forgetAfter(firstLock, freshEnd)} else ${freshEnd} end,
      true
    )
    on conflict (key) do update set
      hits = case
        when r.forget_at <= now() then 1
        when r.blocked_until > now() then r.hits
        else r.hits + 1 end,
      allowed = r.forget_at <= now() or r.blocked_until is null or r.blocked_until <= now(),
      blocked_until = case
        when r.forget_at <= now() then excluded.blocked_until
        when r.blocked_until > now() then r.blocked_until
        when r.hits + 1 >= ${limit} then ${nextLock}
        end,
      forget_at = case
        when r.forget_at <= now() then excluded.forget_at
        when r.blocked_until > now() then r.forget_at
        when r.hits + 1 >= ${limit} then ${forgetAfter(nextLock, sql`r.forget_at`)}
        else r.forget_at end
    returning hits, allowed,
      -- now() is when the statement began, maybe before it waited for the row: the clock's time
      -- after the update says truthfully how long is left.
      ceil(extract(epoch from blocked_until - clock_timestamp()))::int as retry_after_seconds`);
  const [row] = (
    result as unknown as {
      rows: { hits: number; allowed: boolean; retry_after_seconds: number | null }[];
    }
  ).rows;
  if (!row) throw new Error('The rate limit upsert returned no row');
  return row.allowed
    ? { allowed: true, hits: row.hits }
    : { allowed: false, hits: row.hits, retryAfterSeconds: Math.max(1, row.retry_after_seconds!) };
}

/** Forgets an attempt counted by hitRateLimit: it turned out not to be a failure. */
export async function refundRateLimit(
  db: Db,
  policy: RateLimitPolicy,
  subject: RateLimitSubject,
): Promise<void> {
  await db
    .update(rateLimits)
    .set({
      hits: sql`greatest(${rateLimits.hits} - 1, 0)`,
      // Below the limit again, the lock this very attempt set goes too.
      blockedUntil: sql`case when ${rateLimits.hits} - 1 < ${policy.limit}::int then null
        else ${rateLimits.blockedUntil} end`,
    })
    .where(eq(rateLimits.key, keyOf(policy, subject)));
}

/** Forgets a key's whole count (a success after failures). */
export async function clearRateLimit(
  db: Db,
  policy: RateLimitPolicy,
  subject: RateLimitSubject,
): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(policy, subject)));
}

/** Deletes the counts that are forgotten anyway; returns how many. */
export async function sweepRateLimits(db: Db): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.forgetAt, sql`now()`))
    .returning({ key: rateLimits.key });
  return deleted.length;
}
