import type { ProductOption } from './schema';
import type { Product } from './types';

/** The product page's query parameter naming the chosen variant by its SKU. */
export const VARIANT_PARAM = 'variante';

/** A variant as the product page shows it, its price already resolved from the product's. */
export interface PageVariant {
  id: string;
  sku: string;
  /** One value per option of the product, in the options' order. */
  values: string[];
  priceCents: number;
  /** The 'de' price; null, or not above the price, when there is none to show. */
  compareAtPriceCents: number | null;
  stockQuantity: number;
  /** The variant's own pictures; empty: the product's. */
  imageUrls: string[];
  /** Its barcode and maker's part number ('' : none), for the page's JSON-LD. */
  gtin: string;
  mpn: string;
}

/** A product with its variants, in their order (never none: the database keeps one). */
export type ProductWithVariants = Product & { variants: PageVariant[] };

/**
 * The variant a product page shows for `?variante=`: the one with that SKU (in any case), else
 * the first in stock, else the first. A link to a SKU that is gone still opens the product.
 */
export function chooseVariant(variants: PageVariant[], sku: string | null): PageVariant {
  const asked = sku?.trim().toUpperCase();
  const named = asked ? variants.find((variant) => variant.sku.toUpperCase() === asked) : undefined;
  return named ?? variants.find((variant) => variant.stockQuantity > 0) ?? variants[0]!;
}

/** The 'de' price to strike through, when the variant has one above its price. */
export function compareAtPrice(variant: PageVariant): number | null {
  const cents = variant.compareAtPriceCents;
  return cents !== null && cents > variant.priceCents ? cents : null;
}

/** The pictures the page shows for the variant: its own, else the product's. */
export function variantImages(product: Pick<Product, 'imageUrls'>, variant: PageVariant): string[] {
  return variant.imageUrls.length > 0 ? variant.imageUrls : product.imageUrls;
}

/** What choosing one value leads to, given the values of the variant shown. */
export type ValueChoice =
  | { state: 'chosen' | 'available'; variant: PageVariant }
  | { state: 'sold-out'; variant: PageVariant }
  | { state: 'unavailable' };

export interface OptionPicker {
  option: ProductOption;
  values: { name: string; color?: string; choice: ValueChoice }[];
}

/**
 * One picker per option: each value leads to the variant that keeps the other values of the one
 * shown. A combination the product does not offer, or that is sold out, cannot be chosen.
 * None for a product sold as one variant.
 */
export function optionPickers(
  options: ProductOption[],
  variants: PageVariant[],
  shown: PageVariant,
): OptionPicker[] {
  if (variants.length < 2) return [];
  return options.map((option, index) => ({
    option,
    values: option.values.map((value) => {
      const wanted = shown.values.map((current, i) => (i === index ? value.name : current));
      const variant = variants.find((candidate) =>
        wanted.every((name, i) => candidate.values[i] === name),
      );
      const choice: ValueChoice = !variant
        ? { state: 'unavailable' }
        : variant.id === shown.id
          ? { state: 'chosen', variant }
          : variant.stockQuantity > 0
            ? { state: 'available', variant }
            : { state: 'sold-out', variant };
      return { ...value, choice };
    }),
  }));
}
