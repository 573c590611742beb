import { describe, expect, it } from 'vitest';

import { formatCents } from './money';

describe('formatCents', () => {
  it.each([
    [123456, 'R$ 1.234,56'],
    [29990, 'R$ 299,90'],
    [0, 'R$ 0,00'],
    [5, 'R$ 0,05'],
    [501, 'R$ 5,01'],
    [100000000, 'R$ 1.000.000,00'],
  ])('formats %i cents as %s', (cents, expected) => {
    expect(formatCents(cents)).toBe(expected);
  });

  it('uses a plain space after the symbol', () => {
    expect(formatCents(100)).not.toContain('\u00a0');
  });

  it('refuses anything that is not integer cents', () => {
    expect(() => formatCents(12.5)).toThrow(TypeError);
    expect(() => formatCents(Number.NaN)).toThrow(TypeError);
  });
});
