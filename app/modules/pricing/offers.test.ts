import { describe, expect, it } from 'vitest';

import { defaultSettings } from '~/modules/settings';

import { installmentOffer, pixDiscountCents, pixPriceCents } from './offers';

const settings = defaultSettings();

describe('pixDiscountCents', () => {
  it('takes nothing off by default', () => {
    expect(pixDiscountCents(49_990, settings)).toBe(0);
  });

  it('takes the percent off, rounded down', () => {
    const tenPercent = { ...settings, pix_discount_percent: 10 };
    expect(pixDiscountCents(49_990, tenPercent)).toBe(4999);
    expect(pixDiscountCents(999, tenPercent)).toBe(99);
    expect(pixDiscountCents(999, { ...settings, pix_discount_percent: 5 })).toBe(49);
  });
});

describe('installmentOffer', () => {
  const cards = { ...settings, max_installments: 12, min_installment_cents: 500 };

  it('offers nothing by default (one payment) or with cards off', () => {
    expect(installmentOffer(49_990, settings)).toBeNull();
    expect(installmentOffer(49_990, { ...cards, enable_credit_card: false })).toBeNull();
  });

  it('splits into the most instalments allowed, each at least the minimum', () => {
    expect(installmentOffer(49_990, cards)).toEqual({ count: 12, amountCents: 4165 });
    expect(installmentOffer(2_000, cards)).toEqual({ count: 4, amountCents: 500 });
    expect(installmentOffer(2_999, cards)).toEqual({ count: 5, amountCents: 599 });
  });

  it('offers nothing when not even two instalments reach the minimum', () => {
    expect(installmentOffer(999, cards)).toBeNull();
  });

  it('promises no instalment amount when the shopper pays the interest', () => {
    const withInterest = { ...cards, installments_interest_free: false };
    expect(installmentOffer(49_990, withInterest)).toEqual({ count: 12, amountCents: null });
    expect(installmentOffer(999, withInterest)).toBeNull();
  });
});

describe('pixPriceCents', () => {
  it("is the amount less its PIX discount, rounded in the shopper's favour", () => {
    expect(pixPriceCents(49_990, { pix_discount_percent: 10 })).toBe(44_991);
    expect(pixPriceCents(49_990, settings)).toBe(49_990);
  });
});
