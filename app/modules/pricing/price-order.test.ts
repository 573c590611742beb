import { describe, expect, it } from 'vitest';

import { defaultSettings } from '~/modules/settings';

import {
  missingForMinimumCents,
  priceOrder,
  type CouponTerms,
  type PricingLine,
  type PricingRules,
} from './price-order';

const base: PricingRules = {
  ...defaultSettings(),
  shipping_mode: 'flat_rate',
  default_shipping_cost_cents: 1500,
  free_shipping_threshold_cents: 0,
  pix_discount_percent: 10,
  coupon_stacks_with_pix: false,
};

const FONE = 'fone';
const CABO = 'cabo';
const lines: PricingLine[] = [
  { productId: FONE, categoryId: 'audio', unitPriceCents: 29990, quantity: 1 },
  { productId: CABO, categoryId: 'cabos', unitPriceCents: 3990, quantity: 2 },
];
// Subtotal R$ 379,70.
const SUBTOTAL = 29990 + 2 * 3990;

function coupon(patch: Partial<CouponTerms>): CouponTerms {
  return {
    id: 'c1',
    code: 'BEMVINDO10',
    kind: 'percent',
    value: 10,
    minSubtotalCents: 0,
    productIds: [],
    categoryIds: [],
    ...patch,
  };
}

describe('priceOrder', () => {
  it('adds subtotal and shipping, with nothing chosen', () => {
    expect(priceOrder(lines, base, { paymentMethod: null, coupon: null })).toEqual({
      subtotalCents: SUBTOTAL,
      shippingCents: 1500,
      shippingOptionId: null,
      adjustments: [],
      totalCents: SUBTOTAL + 1500,
      couponMiss: null,
    });
  });

  it('takes the PIX discount off the products, rounded down, never off shipping', () => {
    const priced = priceOrder(lines, base, { paymentMethod: 'pix', coupon: null });
    expect(priced.adjustments).toEqual([
      { kind: 'pix', label: 'Desconto PIX (10%)', cents: -3797, couponId: null, couponCode: null },
    ]);
    expect(priced.totalCents).toBe(SUBTOTAL + 1500 - 3797);
  });

  it('applies each kind of coupon: percent of the products, fixed, free shipping', () => {
    const choices = { paymentMethod: null } as const;
    const percent = priceOrder(lines, base, { ...choices, coupon: coupon({ value: 15 }) });
    expect(percent.adjustments).toEqual([
      {
        kind: 'coupon',
        label: 'Cupom BEMVINDO10',
        cents: -5695,
        couponId: 'c1',
        couponCode: 'BEMVINDO10',
      },
    ]);
    const fixed = priceOrder(lines, base, {
      ...choices,
      coupon: coupon({ code: 'DEZREAIS', kind: 'fixed', value: 1000 }),
    });
    expect(fixed.totalCents).toBe(SUBTOTAL + 1500 - 1000);
    const shipping = priceOrder(lines, base, {
      ...choices,
      coupon: coupon({ code: 'FRETEGRATIS', kind: 'free_shipping', value: 0 }),
    });
    expect(shipping.adjustments[0]).toMatchObject({
      label: 'Cupom FRETEGRATIS (frete grátis)',
      cents: -1500,
    });
    expect(shipping.totalCents).toBe(SUBTOTAL);
  });

  it('never takes more than the products a fixed coupon covers', () => {
    const priced = priceOrder(lines, base, {
      paymentMethod: null,
      coupon: coupon({ kind: 'fixed', value: 100_000, productIds: [CABO] }),
    });
    expect(priced.adjustments[0]!.cents).toBe(-7980);
  });

  it('covers only the products and categories a coupon names', () => {
    const byProduct = priceOrder(lines, base, {
      paymentMethod: null,
      coupon: coupon({ value: 50, productIds: [CABO] }),
    });
    expect(byProduct.adjustments[0]!.cents).toBe(-3990);
    const byCategory = priceOrder(lines, base, {
      paymentMethod: null,
      coupon: coupon({ value: 50, categoryIds: ['audio'] }),
    });
    expect(byCategory.adjustments[0]!.cents).toBe(-14995);
    const none = priceOrder(lines, base, {
      paymentMethod: null,
      coupon: coupon({ productIds: ['outro'], categoryIds: ['outra'] }),
    });
    expect(none).toMatchObject({ adjustments: [], couponMiss: { reason: 'products' } });
  });

  it('says how much is missing for a coupon with a minimum', () => {
    const priced = priceOrder(lines, base, {
      paymentMethod: null,
      coupon: coupon({ minSubtotalCents: 40000 }),
    });
    expect(priced.adjustments).toEqual([]);
    expect(priced.couponMiss).toEqual({
      reason: 'minimum',
      minimumCents: 40000,
      missingCents: 40000 - SUBTOTAL,
    });
    expect(
      priceOrder(lines, base, {
        paymentMethod: null,
        coupon: coupon({ minSubtotalCents: SUBTOTAL }),
      }).adjustments,
    ).toHaveLength(1);
  });

  it('does not count a free-shipping coupon where shipping is already free', () => {
    const priced = priceOrder(
      lines,
      { ...base, shipping_mode: 'free' },
      {
        paymentMethod: null,
        coupon: coupon({ kind: 'free_shipping', value: 0 }),
      },
    );
    expect(priced).toMatchObject({ adjustments: [], couponMiss: { reason: 'shipping_free' } });
  });

  it('applies the better of coupon and PIX when they do not stack (the coupon on a tie)', () => {
    const pixWins = priceOrder(lines, base, { paymentMethod: 'pix', coupon: coupon({ value: 5 }) });
    expect(pixWins.adjustments.map((adjustment) => adjustment.kind)).toEqual(['pix']);
    expect(pixWins.adjustments[0]!.cents).toBe(-3797);
    expect(pixWins.couponMiss).toEqual({ reason: 'pix_better' });

    const couponWins = priceOrder(lines, base, {
      paymentMethod: 'pix',
      coupon: coupon({ value: 20 }),
    });
    expect(couponWins.adjustments.map((adjustment) => adjustment.kind)).toEqual(['coupon']);
    expect(couponWins.couponMiss).toBeNull();

    const tie = priceOrder(lines, base, { paymentMethod: 'pix', coupon: coupon({ value: 10 }) });
    expect(tie.adjustments.map((adjustment) => adjustment.kind)).toEqual(['coupon']);
  });

  it('stacks when the store says so: the coupon first, then PIX on what is left', () => {
    const priced = priceOrder(
      lines,
      { ...base, coupon_stacks_with_pix: true },
      {
        paymentMethod: 'pix',
        coupon: coupon({ value: 10 }),
      },
    );
    // 10% of R$ 379,70 is R$ 37,97; 10% of the R$ 341,73 left is R$ 34,17.
    expect(priced.adjustments.map(({ kind, cents }) => [kind, cents])).toEqual([
      ['coupon', -3797],
      ['pix', -3417],
    ]);
    expect(priced.totalCents).toBe(SUBTOTAL - 3797 - 3417 + 1500);
  });

  it('prices an empty cart at nothing, shipping included', () => {
    expect(priceOrder([], base, { paymentMethod: 'pix', coupon: coupon({}) })).toMatchObject({
      subtotalCents: 0,
      shippingCents: 0,
      totalCents: 0,
      adjustments: [],
    });
  });

  describe('with carriers', () => {
    const offers = [
      { id: '1', priceCents: 2490 },
      { id: '2', priceCents: 4590 },
    ];

    it('charges the chosen option, and the cheapest while none is', () => {
      const chosen = priceOrder(lines, base, {
        paymentMethod: null,
        coupon: null,
        shipping: { offers, chosenId: '2' },
      });
      expect(chosen).toMatchObject({ shippingCents: 4590, shippingOptionId: '2' });
      expect(chosen.totalCents).toBe(SUBTOTAL + 4590);
      const cheapest = priceOrder(lines, base, {
        paymentMethod: null,
        coupon: null,
        shipping: { offers, chosenId: null },
      });
      expect(cheapest).toMatchObject({ shippingCents: 2490, shippingOptionId: '1' });
    });

    it('makes only the cheapest option free from the threshold', () => {
      const rules = { ...base, free_shipping_threshold_cents: SUBTOTAL };
      const choose = (chosenId: string) =>
        priceOrder(lines, rules, {
          paymentMethod: null,
          coupon: null,
          shipping: { offers, chosenId },
        }).shippingCents;
      expect(choose('1')).toBe(0);
      expect(choose('2')).toBe(4590);
      const below = { ...base, free_shipping_threshold_cents: SUBTOTAL + 1 };
      expect(
        priceOrder(lines, below, {
          paymentMethod: null,
          coupon: null,
          shipping: { offers, chosenId: '1' },
        }).shippingCents,
      ).toBe(2490);
    });

    it("takes a free-shipping coupon off the chosen option's price", () => {
      const priced = priceOrder(lines, base, {
        paymentMethod: null,
        coupon: coupon({ kind: 'free_shipping', value: 0 }),
        shipping: { offers, chosenId: '2' },
      });
      expect(priced.adjustments.map(({ cents }) => cents)).toEqual([-4590]);
      expect(priced.totalCents).toBe(SUBTOTAL);
    });

    it('falls back to the store rule without options', () => {
      expect(
        priceOrder(lines, base, {
          paymentMethod: null,
          coupon: null,
          shipping: { offers: [], chosenId: null },
        }),
      ).toMatchObject({ shippingCents: 1500, shippingOptionId: null });
    });
  });
});

describe('missingForMinimumCents', () => {
  it("is what the products lack of the store's minimum order, nothing once they reach it", () => {
    const settings = { min_order_value_cents: 5_000 };
    expect(missingForMinimumCents(3_990, settings)).toBe(1_010);
    expect(missingForMinimumCents(5_000, settings)).toBe(0);
    expect(missingForMinimumCents(7_980, settings)).toBe(0);
  });
});
