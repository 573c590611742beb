import { describe, expect, it } from 'vitest';

import { orderNumber, parseOrderNumber } from './display';

describe('order numbers', () => {
  it('names an order by its number', () => {
    expect(orderNumber(1001)).toBe('#1001');
  });

  it('reads a number as people type it', () => {
    for (const typed of ['1001', '#1001', ' # 1001 ', '#01001']) {
      expect(parseOrderNumber(typed), typed).toBe(1001);
    }
    for (const typed of ['', '#', '0', '-1', '10.01', '1001a', 'B099C936', '99999999999', '##1']) {
      expect(parseOrderNumber(typed), typed).toBeNull();
    }
    expect(parseOrderNumber('2147483647')).toBe(2_147_483_647);
    expect(parseOrderNumber('2147483648')).toBeNull();
  });
});
