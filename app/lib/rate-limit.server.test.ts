import { describe, expect, it } from 'vitest';

import { createRateLimiter } from './rate-limit.server';

describe('createRateLimiter', () => {
  it('allows the limit per key per minute, then refuses until the minute has passed', () => {
    let time = 0;
    const limiter = createRateLimiter(3, () => time);
    expect([1, 2, 3, 4].map(() => limiter.attempt('a'))).toEqual([true, true, true, false]);
    expect(limiter.attempt('b')).toBe(true);
    time = 59_999;
    expect(limiter.attempt('a')).toBe(false);
    time = 60_000;
    expect(limiter.attempt('a')).toBe(true);
  });
});
