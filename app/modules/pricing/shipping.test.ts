import { describe, expect, it } from 'vitest';

import {
  carrierPriceCents,
  freeShippingFromCents,
  shippingCents,
  type ShippingSettings,
} from './shipping';

const flatRate: ShippingSettings = {
  shipping_mode: 'flat_rate',
  default_shipping_cost_cents: 1000,
  free_shipping_threshold_cents: 10_000,
};

describe('shippingCents', () => {
  it('is always free in free-shipping mode, whatever the other settings say', () => {
    expect(shippingCents(500, { ...flatRate, shipping_mode: 'free' })).toBe(0);
  });

  it.each([
    [0, 1000],
    [9_999, 1000],
    [10_000, 0],
    [250_000, 0],
  ])('charges the flat rate below the free threshold (subtotal %i → %i)', (subtotal, expected) => {
    expect(shippingCents(subtotal, flatRate)).toBe(expected);
  });

  it('always charges the flat rate when the free threshold is 0 (turned off)', () => {
    const noThreshold = { ...flatRate, free_shipping_threshold_cents: 0 };
    expect(shippingCents(1_000_000, noThreshold)).toBe(1000);
  });
});

describe('freeShippingFromCents', () => {
  it.each([
    ['free shipping', { ...flatRate, shipping_mode: 'free' as const }, 0],
    ['a flat rate of nothing', { ...flatRate, default_shipping_cost_cents: 0 }, 0],
    ['a flat rate with a threshold', flatRate, 10_000],
    ['a flat rate without one', { ...flatRate, free_shipping_threshold_cents: 0 }, null],
  ])('is what every shipping promise reads: %s', (_name, settings, expected) => {
    expect(freeShippingFromCents(settings)).toBe(expected);
  });
});

describe('carrierPriceCents', () => {
  it("adds the store's markup to a carrier's quote, its percent rounded up", () => {
    const markup = { shipping_markup_percent: 10, shipping_markup_cents: 200 };
    expect(carrierPriceCents(2_345, markup)).toBe(2_345 + 235 + 200);
    expect(carrierPriceCents(2_345, { shipping_markup_percent: 0, shipping_markup_cents: 0 })).toBe(
      2_345,
    );
  });
});
