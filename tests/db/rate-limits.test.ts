import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { rateLimits } from '~/db/schema';
import {
  addressKey,
  checkoutLimit,
  hitRateLimit,
  RATE_LIMITS,
  sweepRateLimits,
  waitText,
} from '~/modules/rate-limits/index.server';

import { describeDb } from '../support/db';

it('counts an IPv6 client by its /64, and an IPv4-mapped one by its IPv4 address', () => {
  expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
  expect(addressKey('::1')).toBe('0:0:0:0::/64');
  expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
});

it('says how long to wait in pt-BR, never less than the time left', () => {
  expect(waitText(0.2)).toBe('1 segundo');
  expect(waitText(42)).toBe('42 segundos');
  expect(waitText(61)).toBe('2 minutos');
  expect(waitText(900)).toBe('15 minutos');
  expect(waitText(3600)).toBe('1 hora');
  expect(waitText(5400)).toBe('1 hora e 30 minutos');
  expect(waitText(4 * 3600)).toBe('4 horas');
});

describeDb('the rate limiter', ({ db }) => {
  const shopper = { address: '203.0.113.7' };

  it('lets exactly the limit through of attempts sent at once, and tells the others when to come back', async () => {
    const policy = checkoutLimit(20);
    const verdicts = await Promise.all(
      Array.from({ length: 60 }, () => hitRateLimit(db(), policy, shopper)),
    );
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(20);
    const refused = verdicts.filter((verdict) => !verdict.allowed);
    expect(refused).toHaveLength(40);
    for (const verdict of refused) {
      expect(verdict.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(verdict.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Another address has its own allowance.
    expect(await hitRateLimit(db(), policy, { address: '203.0.113.8' })).toMatchObject({
      allowed: true,
    });
  });

  it('starts a plain count again when its window has passed, without growing the wait', async () => {
    const policy = RATE_LIMITS.restock;
    for (let i = 0; i < 10; i++) await hitRateLimit(db(), policy, shopper);
    for (let i = 0; i < 5; i++) {
      expect(await hitRateLimit(db(), policy, shopper)).toMatchObject({ allowed: false });
    }
    const [row] = await db().select().from(rateLimits);
    expect(row!.blockedUntil).toEqual(row!.forgetAt);
    await db()
      .update(rateLimits)
      .set({ forgetAt: sql`now()`, blockedUntil: sql`now()` });
    expect(await hitRateLimit(db(), policy, shopper)).toEqual({ allowed: true, hits: 1 });
  });

  it('keeps guesses locked longer after each lock, up to the cap', async () => {
    const policy = RATE_LIMITS.setupCode;
    const locks: number[] = [];
    for (let round = 0; round < 7; round++) {
      // The first round spends the allowance; each later one gets one try after the lock.
      const tries = round === 0 ? policy.limit : 1;
      for (let i = 0; i < tries; i++) {
        expect(await hitRateLimit(db(), policy, shopper)).toMatchObject({ allowed: true });
      }
      const refused = await hitRateLimit(db(), policy, shopper);
      if (refused.allowed) throw new Error('not locked');
      locks.push(Math.round(refused.retryAfterSeconds / 60));
      await db()
        .update(rateLimits)
        .set({ blockedUntil: sql`now() - interval '1 second'` });
    }
    expect(locks).toEqual([15, 30, 60, 120, 240, 240, 240]);
  });

  it('sweeps the counts that are forgotten anyway, and only those', async () => {
    await hitRateLimit(db(), RATE_LIMITS.restock, shopper);
    await hitRateLimit(db(), RATE_LIMITS.cepLookup, shopper);
    await db()
      .update(rateLimits)
      .set({ forgetAt: sql`now() - interval '1 second'` })
      .where(sql`${rateLimits.key} like 'restock:%'`);
    expect(await sweepRateLimits(db())).toBe(1);
    expect((await db().select().from(rateLimits)).map((row) => row.key)).toEqual([
      'cep:203.0.113.7',
    ]);
  });
});
