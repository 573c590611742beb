import { describe, expect, it } from 'vitest';

import { formatReaisInput, parseReais } from './reais';

/** What a form stores for the text: cents, or null when it refuses the text. */
function amount(text: string): number | null {
  const result = parseReais(text, { exactCents: true });
  return 'cents' in result ? result.cents : null;
}

describe('parseReais in filters (rounded)', () => {
  it('reads prices the way Brazilians type them', () => {
    expect(parseReais('10')).toEqual({ cents: 1000 });
    expect(parseReais('10,50')).toEqual({ cents: 1050 });
    expect(parseReais('10,5')).toEqual({ cents: 1050 });
    expect(parseReais('1.234,56')).toEqual({ cents: 123456 });
    expect(parseReais('1234,56')).toEqual({ cents: 123456 });
    expect(parseReais('10.5')).toEqual({ cents: 1050 });
    expect(parseReais('10.50')).toEqual({ cents: 1050 });
    expect(parseReais('1.234')).toEqual({ cents: 123400 });
    expect(parseReais('1.234.567')).toEqual({ cents: 123456700 });
    expect(parseReais(' R$ 1.234,56 ')).toEqual({ cents: 123456 });
    expect(parseReais('0')).toEqual({ cents: 0 });
    expect(parseReais('10,555')).toEqual({ cents: 1056 });
  });

  it('refuses what is not a price', () => {
    for (const text of ['abc', '10a', '1,2,3', '1.23.4', ',5', '1e5', 'Infinity', '10..5', '-']) {
      expect(parseReais(text), text).toEqual({ error: 'not-a-number' });
    }
    expect(parseReais('-5')).toEqual({ error: 'negative' });
    expect(parseReais('-10,50')).toEqual({ error: 'negative' });
    expect(parseReais('99999999999')).toEqual({ error: 'too-high' });
    expect(parseReais('1'.repeat(400))).toEqual({ error: 'too-high' });
  });
});

describe('amounts typed in forms (exact cents)', () => {
  it.each([
    ['10,00', 1000],
    ['10', 1000],
    ['10,5', 1050],
    ['0,99', 99],
    ['1.234,56', 123456],
    ['1234,56', 123456],
    ['R$ 1.234,56', 123456],
    ['1.500', 150000],
    ['10.50', 1050],
    ['10.5', 1050],
    ['0', 0],
    [' 25,90 ', 2590],
  ])('reads "%s" as %i cents', (text, cents) => {
    expect(amount(text)).toBe(cents);
  });

  it.each([
    '',
    'dez',
    '10,999',
    '-5',
    '1,2,3',
    '12.34.56',
    '1.23,45',
    'R$',
    '10e3',
    '99999999999999',
  ])('refuses "%s"', (text) => {
    expect(amount(text)).toBeNull();
  });

  it('writes cents back the way it reads them', () => {
    expect(formatReaisInput(1000)).toBe('10,00');
    expect(formatReaisInput(123456)).toBe('1.234,56');
    expect(formatReaisInput(0)).toBe('0,00');
    for (const cents of [0, 1, 99, 1000, 123456, 100_000_00]) {
      expect(amount(formatReaisInput(cents))).toBe(cents);
    }
  });
});
