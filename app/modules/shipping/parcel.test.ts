import { describe, expect, it } from 'vitest';

import { parcelFor, type ParcelDefaults } from './parcel';

const defaults: ParcelDefaults = {
  default_weight_grams: 300,
  default_length_cm: 20,
  default_width_cm: 15,
  default_height_cm: 10,
};

describe('parcelFor', () => {
  it('uses the store defaults for a variant without measures', () => {
    const item = { quantity: 1, weightGrams: null, lengthMm: null, widthMm: null, heightMm: null };
    expect(parcelFor([item], defaults)).toEqual({
      weightGrams: 300,
      lengthCm: 20,
      widthCm: 15,
      heightCm: 10,
    });
  });

  it('stacks units on their largest face and adds their weights', () => {
    const book = { quantity: 3, weightGrams: 450, lengthMm: 30, widthMm: 230, heightMm: 160 };
    const mug = { quantity: 1, weightGrams: 350, lengthMm: 120, widthMm: 95, heightMm: 95 };
    expect(parcelFor([book, mug], defaults)).toEqual({
      weightGrams: 3 * 450 + 350,
      lengthCm: 23,
      widthCm: 16,
      // 3 books 3 cm thick, then the mug on its 12 × 9.5 face: 9.5 cm rounds up to 10.
      heightCm: 3 * 3 + 10,
    });
  });

  it('rounds millimetres up to whole centimetres, never to zero', () => {
    const card = { quantity: 2, weightGrams: 5, lengthMm: 86, widthMm: 54, heightMm: 1 };
    expect(parcelFor([card], defaults)).toEqual({
      weightGrams: 10,
      lengthCm: 9,
      widthCm: 6,
      heightCm: 2,
    });
  });
});
