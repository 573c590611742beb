import type { StoreSettings } from '~/modules/settings';

import type { Parcel } from './types';

export type ParcelDefaults = Pick<
  StoreSettings,
  'default_weight_grams' | 'default_length_cm' | 'default_width_cm' | 'default_height_cm'
>;

/** A cart line as packing reads it: the variant's own measures (null: the store's default). */
export interface ParcelItem {
  quantity: number;
  weightGrams: number | null;
  lengthMm: number | null;
  widthMm: number | null;
  heightMm: number | null;
}

/**
 * The one box a cart ships in: every unit laid flat on its largest face and stacked, so the box
 * is as long and wide as the largest unit and as tall as the stack. Carriers price the larger of
 * the real and the volumetric weight, so a stack of flat things must not be guessed as a cube.
 * A measure a variant lacks is the store's default, so an item is never weightless.
 */
export function parcelFor(items: readonly ParcelItem[], defaults: ParcelDefaults): Parcel {
  let weightGrams = 0;
  let lengthCm = 0;
  let widthCm = 0;
  let heightCm = 0;
  for (const item of items) {
    if (item.quantity <= 0) continue;
    const [longest, middle, shortest] = [
      centimetres(item.lengthMm, defaults.default_length_cm),
      centimetres(item.widthMm, defaults.default_width_cm),
      centimetres(item.heightMm, defaults.default_height_cm),
    ].sort((a, b) => b - a) as [number, number, number];
    weightGrams += (item.weightGrams || defaults.default_weight_grams) * item.quantity;
    lengthCm = Math.max(lengthCm, longest);
    widthCm = Math.max(widthCm, middle);
    heightCm += shortest * item.quantity;
  }
  return { weightGrams, lengthCm, widthCm, heightCm };
}

/** Whole centimetres, rounded up: a carrier refuses a box smaller than what is inside. */
function centimetres(mm: number | null, fallbackCm: number): number {
  return mm ? Math.max(1, Math.ceil(mm / 10)) : fallbackCm;
}
