import { describe, expect, it } from 'vitest';

import { estimatedDelivery, formatDeliveryDate } from './delivery';

describe('estimatedDelivery', () => {
  it('skips weekends', () => {
    // Friday 2026-11-27, 10:00 in São Paulo; 3 business days → Wednesday 2026-12-02.
    expect(estimatedDelivery(new Date('2026-11-27T13:00:00Z'), 3, 'America/Sao_Paulo')).toBe(
      '2026-12-02',
    );
  });

  it('skips national holidays', () => {
    // Thursday 2026-12-24; the 25th is Christmas, then a weekend: 1 business day → Monday the 28th.
    expect(estimatedDelivery(new Date('2026-12-24T15:00:00Z'), 1, 'America/Sao_Paulo')).toBe(
      '2026-12-28',
    );
  });

  it("counts from the store's calendar day, not UTC's", () => {
    // 23:30 on Friday in São Paulo is already Saturday in UTC.
    expect(estimatedDelivery(new Date('2026-11-28T02:30:00Z'), 1, 'America/Sao_Paulo')).toBe(
      '2026-11-30',
    );
  });

  it('writes the date as shoppers read it', () => {
    expect(formatDeliveryDate('2026-12-04')).toBe('sexta-feira, 4 de dezembro de 2026');
  });
});

describe('estimatedDelivery to a state', () => {
  it("skips the destination state's own holidays", () => {
    // Wednesday 2026-07-08; 9 July is a holiday in São Paulo only: 1 business day → Friday 10th.
    const paidAt = new Date('2026-07-08T15:00:00Z');
    expect(estimatedDelivery(paidAt, 1, 'America/Sao_Paulo', 'SP')).toBe('2026-07-10');
    expect(estimatedDelivery(paidAt, 1, 'America/Sao_Paulo', 'RJ')).toBe('2026-07-09');
    expect(estimatedDelivery(paidAt, 1, 'America/Sao_Paulo')).toBe('2026-07-09');
  });

  it('writes a near date without the year', () => {
    expect(formatDeliveryDate('2026-12-03', { year: false })).toBe('quinta-feira, 3 de dezembro');
  });
});
