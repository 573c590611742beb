import { describe, expect, it } from 'vitest';

import { isGtin, normalizeGtin, parseCondition } from './product-identifiers';

describe('isGtin', () => {
  it.each([
    ['96385074', 'EAN-8'],
    ['036000291452', 'UPC-A'],
    ['4006381333931', 'EAN-13'],
    ['7891000315507', 'EAN-13 from Brazil'],
    ['00012345600012', 'GTIN-14'],
  ])('takes %s (%s)', (gtin) => {
    expect(isGtin(gtin)).toBe(true);
  });

  it.each([
    ['4006381333932', 'a wrong check digit'],
    ['036000291453', 'a wrong check digit on a UPC-A'],
    ['1234567', 'seven digits'],
    ['12345678901', 'eleven digits'],
    ['123456789012345', 'fifteen digits'],
    ['40063813339a1', 'a letter'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (gtin) => {
    expect(isGtin(gtin)).toBe(false);
  });
});

describe('normalizeGtin', () => {
  it('drops the spaces and dashes of a printed barcode', () => {
    expect(normalizeGtin(' 789-1000 315507 ')).toBe('7891000315507');
  });
});

describe('parseCondition', () => {
  it('reads English and Portuguese, with or without accents and capitals', () => {
    expect(parseCondition('Usado')).toBe('used');
    expect(parseCondition('refurbished')).toBe('refurbished');
    expect(parseCondition(' RECONDICIONADO ')).toBe('refurbished');
    expect(parseCondition('')).toBe('new');
    expect(parseCondition('seminovo')).toBeUndefined();
  });
});
