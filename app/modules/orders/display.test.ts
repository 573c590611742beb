import { describe, expect, it } from 'vitest';

import { pixDiscountCents } from '~/modules/cart';
import { defaultSettings } from '~/modules/settings';

import { orderNumber, parseOrderNumber, pixDiscountLabel } from './display';

describe('pixDiscountLabel', () => {
  it('reads the percentage back from the amounts the order keeps', () => {
    expect(pixDiscountLabel(49990, 4999)).toBe('Desconto PIX (10%)');
    expect(pixDiscountLabel(29990, 2999)).toBe('Desconto PIX (10%)');
  });

  it('gives back the setting for any subtotal the rounding-down rule produced', () => {
    for (const percent of [1, 5, 7, 10, 15, 33, 50]) {
      const settings = { ...defaultSettings(), pix_discount_percent: percent };
      for (const subtotal of [501, 999, 1234, 12345, 49990, 123456, 9_999_999]) {
        const discount = pixDiscountCents(subtotal, settings);
        expect(pixDiscountLabel(subtotal, discount)).toBe(`Desconto PIX (${percent}%)`);
      }
    }
  });

  it('names no percentage without a discount', () => {
    expect(pixDiscountLabel(0, 0)).toBe('Desconto PIX');
    expect(pixDiscountLabel(1000, 0)).toBe('Desconto PIX');
  });
});

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
