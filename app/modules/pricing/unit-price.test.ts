import { describe, expect, it } from 'vitest';

import { effectivePriceCents, lineTotalCents } from './unit-price';

describe('a unit price and a line total', () => {
  it("is the variant's price, else the product's (a variant priced at 0 keeps its own)", () => {
    expect(effectivePriceCents(4990, 3990)).toBe(4990);
    expect(effectivePriceCents(null, 3990)).toBe(3990);
    expect(effectivePriceCents(0, 3990)).toBe(0);
  });

  it('costs the unit price times the units', () => {
    expect(lineTotalCents(3990, 3)).toBe(11970);
    expect(lineTotalCents(3990, 0)).toBe(0);
  });
});
