import type { ProductOption, VariantOptionValue } from './schema';
import { productPath } from './paths';
import { VARIANT_PARAM } from './variant-choice';

/** A variant's value of each of its product's options, named: `option1..3` read with `options`. */
export function optionValuesOf(
  productOptions: readonly ProductOption[],
  row: { option1: string | null; option2: string | null; option3: string | null },
): VariantOptionValue[] {
  const values = [row.option1, row.option2, row.option3];
  return productOptions.flatMap((option, index) => {
    const value = values[index];
    return value ? [{ name: option.name, value }] : [];
  });
}

/** The variant's values as a shopper reads them after the product's name: 'G / Azul'. */
export function variantValues(options: readonly VariantOptionValue[]): string {
  return options.map((option) => option.value).join(' / ');
}

/** 'Camiseta Básica — G / Azul'; a product sold as one default variant is its name alone. */
export function variantLabel(line: {
  name: string;
  options: readonly VariantOptionValue[];
}): string {
  if (line.options.length === 0) return line.name;
  return `${line.name} — ${variantValues(line.options)}`;
}

/**
 * The page of the product showing this variant (`?variante=SKU`); a product without options has
 * only its own.
 */
export function variantPath(variant: {
  slug: string;
  sku: string | null;
  options: readonly VariantOptionValue[];
}): string {
  if (variant.options.length === 0 || !variant.sku) return productPath(variant);
  return `${productPath(variant)}?${new URLSearchParams({ [VARIANT_PARAM]: variant.sku })}`;
}

// Made on first use: building one loads the locale's data, which took 146 ms of one task of a
// storefront page's first visit at 4× CPU slowdown (bench/hydration-profile.ts) when it was made
// as this module loaded; the module reaches every page's scripts, and only the server calls it.
let listFormat: Intl.ListFormat | undefined;

/**
 * 'Escolha tamanho e cor.': what a shopper must choose before buying (or awaiting) a product of
 * several variants, named by its options (any variant's: each has a value of every option).
 */
export function chooseOptions(options: readonly { name: string }[]): string {
  const names = options.map(
    (option) => option.name.charAt(0).toLocaleLowerCase('pt-BR') + option.name.slice(1),
  );
  if (names.length === 0) return 'Escolha uma opção.';
  listFormat ??= new Intl.ListFormat('pt-BR', { type: 'conjunction' });
  return `Escolha ${listFormat.format(names)}.`;
}
