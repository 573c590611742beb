import { describe, expect, it } from 'vitest';

import { chooseVariant, compareAtPrice, optionPickers, type PageVariant } from './variant-choice';

const variant = (
  sku: string,
  values: string[],
  stock: number,
  extra: Partial<PageVariant> = {},
) => ({
  id: sku,
  sku,
  values,
  priceCents: 1000,
  compareAtPriceCents: null,
  stockQuantity: stock,
  imageUrls: [],
  gtin: '',
  mpn: '',
  ...extra,
});

const OPTIONS = [
  { name: 'Tamanho', values: [{ name: 'P' }, { name: 'M' }, { name: 'G' }] },
  { name: 'Cor', values: [{ name: 'Azul', color: '#00f' }, { name: 'Preto' }] },
];
// G/Preto is not offered; P/Preto is sold out.
const VARIANTS: PageVariant[] = [
  variant('P-PRETO', ['P', 'Preto'], 0),
  variant('P-AZUL', ['P', 'Azul'], 2),
  variant('M-AZUL', ['M', 'Azul'], 1),
  variant('M-PRETO', ['M', 'Preto'], 3),
  variant('G-AZUL', ['G', 'Azul'], 0),
];

describe('chooseVariant', () => {
  it('takes the SKU asked for, in any case, even sold out', () => {
    expect(chooseVariant(VARIANTS, 'm-preto').sku).toBe('M-PRETO');
    expect(chooseVariant(VARIANTS, 'P-PRETO').sku).toBe('P-PRETO');
  });

  it('falls back to the first variant in stock, else the first', () => {
    expect(chooseVariant(VARIANTS, null).sku).toBe('P-AZUL');
    expect(chooseVariant(VARIANTS, 'NAO-EXISTE').sku).toBe('P-AZUL');
    const soldOut = VARIANTS.map((item) => ({ ...item, stockQuantity: 0 }));
    expect(chooseVariant(soldOut, '').sku).toBe('P-PRETO');
  });
});

describe('optionPickers', () => {
  it('leads each value to the variant keeping the other values, blocking the rest', () => {
    const pickers = optionPickers(OPTIONS, VARIANTS, chooseVariant(VARIANTS, 'M-PRETO'));
    const states = pickers.map((picker) =>
      picker.values.map(({ name, choice }) => [
        name,
        choice.state,
        choice.state === 'unavailable' ? null : choice.variant.sku,
      ]),
    );
    expect(states).toEqual([
      [
        ['P', 'sold-out', 'P-PRETO'],
        ['M', 'chosen', 'M-PRETO'],
        ['G', 'unavailable', null],
      ],
      [
        ['Azul', 'available', 'M-AZUL'],
        ['Preto', 'chosen', 'M-PRETO'],
      ],
    ]);
    expect(pickers[1]!.values[0]!.color).toBe('#00f');
  });

  it('offers no pickers for a product sold as one variant', () => {
    expect(optionPickers([], [VARIANTS[1]!], VARIANTS[1]!)).toEqual([]);
  });
});

describe('compareAtPrice', () => {
  it('shows a de price only above the price', () => {
    expect(compareAtPrice(variant('A', [], 1, { compareAtPriceCents: 1500 }))).toBe(1500);
    expect(compareAtPrice(variant('A', [], 1, { compareAtPriceCents: 1000 }))).toBeNull();
    expect(compareAtPrice(variant('A', [], 1))).toBeNull();
  });
});
