import { describe, expect, it } from 'vitest';

import { formatCents, formatDecimalCents, formatInteger, formatOneDecimal } from './money';

// What the hand-written figures must match: Node's full ICU, as the code used before.
const intlCurrency = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const intlDecimal = new Intl.NumberFormat('pt-BR', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const intlOneDecimal = new Intl.NumberFormat('pt-BR', {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

describe('formatCents', () => {
  it.each([
    [123456, 'R$ 1.234,56'],
    [29990, 'R$ 299,90'],
    [0, 'R$ 0,00'],
    [5, 'R$ 0,05'],
    [501, 'R$ 5,01'],
    [100000000, 'R$ 1.000.000,00'],
    [-100, '-R$ 1,00'],
  ])('formats %i cents as %s', (cents, expected) => {
    expect(formatCents(cents)).toBe(expected);
  });

  it('writes every amount as Intl does in pt-BR, with a plain space after the symbol', () => {
    const amounts = [0, 1, 9, 10, 99, 100, 999, 1000, 99999, 100000, 123456789, -1, -123456];
    for (let cents = 1; cents < Number.MAX_SAFE_INTEGER / 7; cents = cents * 7 + 3) {
      amounts.push(cents);
    }
    for (const cents of amounts) {
      expect(formatCents(cents)).toBe(intlCurrency.format(cents / 100).replace(/\u00a0/g, ' '));
      expect(formatDecimalCents(cents)).toBe(intlDecimal.format(cents / 100));
    }
  });

  it('refuses anything that is not integer cents', () => {
    expect(() => formatCents(12.5)).toThrow(TypeError);
    expect(() => formatCents(Number.NaN)).toThrow(TypeError);
  });
});

describe('formatOneDecimal', () => {
  it('writes every average of up to 60 ratings as Intl does', () => {
    for (let count = 1; count <= 60; count++) {
      for (let sum = count; sum <= count * 5; sum++) {
        expect(formatOneDecimal(sum / count)).toBe(intlOneDecimal.format(sum / count));
      }
    }
    expect(formatOneDecimal(1234.5)).toBe('1.234,5');
  });
});

describe('formatInteger', () => {
  const intlInteger = new Intl.NumberFormat('pt-BR');

  it('writes every count as Intl does in pt-BR', () => {
    const counts = [0, 1, 9, 10, 999, 1000, 1204, 99999, 100000, 1234567, -1, -1000, -1234567];
    for (let count = 1; count < Number.MAX_SAFE_INTEGER / 7; count = count * 7 + 3) {
      counts.push(count, -count);
    }
    for (const count of counts) expect(formatInteger(count)).toBe(intlInteger.format(count));
  });

  it('leaves what is not a whole number to Intl', () => {
    expect(formatInteger(1234.5)).toBe('1.234,5');
  });
});
