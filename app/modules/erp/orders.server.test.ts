import { describe, expect, it } from 'vitest';

import { nextInvoiceRead } from './orders.server';

describe('nextInvoiceRead', () => {
  const now = new Date('2026-12-07T12:00:00Z');
  const after = (reads: number) => {
    const next = nextInvoiceRead(reads, now);
    return next === null ? null : next.getTime() - now.getTime();
  };

  it('reads a note at SEFAZ again after 30 s, twice as long each time, at most hourly', () => {
    expect(after(0)).toBe(30_000);
    expect(after(1)).toBe(60_000);
    // 30 s × 2⁷ is 64 minutes: capped at the hour.
    expect(after(7)).toBe(3_600_000);
    expect(after(6)).toBe(1_920_000);
    expect(after(29)).toBe(3_600_000);
  });

  it('stops after 30 reads', () => {
    expect(after(30)).toBeNull();
  });
});
