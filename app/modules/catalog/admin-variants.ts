import { z } from 'zod';

import { singleLine } from '~/lib/form';
import { parseReais } from '~/lib/reais';
import { isUuid } from '~/lib/uuid';

import { IDENTIFIER_MAX_LENGTH, parseGtin, parseIdentifierText } from './product-identifiers';
import type { ProductOption } from './schema';

/**
 * A product's options and variants as staff edit them (the form's editor and grid, the CSV), shared
 * by the browser and the server. The form sends both as JSON in two hidden fields, so the grid
 * can hold many variants without hundreds of named inputs; each cell's mistake is reported under
 * `variants.<row>.<cell>` (or `options.<n>.<part>`) so it shows beside that cell.
 */

export const VARIANT_LIMITS = {
  options: 3,
  values: 50,
  name: 40,
  variants: 250,
  sku: 64,
  stock: 1_000_000,
  // 1 t and 100 m: more is a typing mistake, not a parcel.
  grams: 1_000_000,
  mm: 100_000,
} as const;

export const VARIANT_MESSAGES = {
  invalid: 'As opções e variantes vieram incompletas. Recarregue a página e tente de novo.',
  tooManyOptions: `Use no máximo ${VARIANT_LIMITS.options} opções.`,
  optionName: 'Informe o nome da opção.',
  optionNameTooLong: `Use no máximo ${VARIANT_LIMITS.name} caracteres.`,
  optionRepeated: 'Já existe uma opção com este nome.',
  values: 'Informe pelo menos um valor.',
  tooManyValues: `Use no máximo ${VARIANT_LIMITS.values} valores por opção.`,
  valueName: 'Informe o valor.',
  valueTooLong: `Use no máximo ${VARIANT_LIMITS.name} caracteres por valor.`,
  valueRepeated: (value: string) => `O valor "${value}" aparece duas vezes.`,
  color: 'Use uma cor no formato #rrggbb.',
  noVariants: 'Clique em "Gerar variantes" para criar as combinações das opções.',
  tooManyVariants: `Use no máximo ${VARIANT_LIMITS.variants} variantes por produto.`,
  unknownValue: 'Esta variante usa um valor que não está nas opções. Gere as variantes de novo.',
  combinationRepeated: 'Esta combinação de valores aparece duas vezes.',
  sku: 'Use só letras, números, ponto, hífen e sublinhado.',
  skuTooLong: `Use no máximo ${VARIANT_LIMITS.sku} caracteres.`,
  skuRepeated: 'Este SKU já aparece em outra variante deste produto.',
  skuTaken: 'Este SKU já é usado por outro produto.',
  price: 'Preço inválido. Use o formato 1.234,56.',
  priceNegative: 'O preço não pode ser negativo.',
  priceZero: 'O preço deve ser maior que zero.',
  priceTooHigh: 'Preço alto demais.',
  priceDecimals: 'Use no máximo duas casas decimais (centavos).',
  stock: 'Informe o estoque.',
  whole: 'Use um número inteiro, como 10.',
  negative: 'Não pode ser negativo.',
  tooHigh: (max: number) => `Use no máximo ${max.toLocaleString('pt-BR')}.`,
  image: 'Escolha uma das imagens do produto.',
} as const;

/** A variant as the grid holds it: every cell as typed. */
export interface VariantDraft {
  /** The variant's id when it exists already ('' for a new combination). */
  id: string;
  /** One value per option, in the options' order. */
  values: string[];
  sku: string;
  price: string;
  compareAtPrice: string;
  stock: string;
  weight: string;
  length: string;
  width: string;
  height: string;
  /** The variant's picture (one of the product's images), '' for the product's own. */
  image: string;
  /** The barcode and the maker's part number (issue 39). */
  gtin: string;
  mpn: string;
}

/** A cell of the grid: what a variant has besides its values. */
export type VariantCell = Exclude<keyof VariantDraft, 'id' | 'values'>;

/** A variant as it is written: see writeVariants. */
export interface VariantValues {
  /** An existing variant of the product to update (else it is matched by its values). */
  id?: string;
  values: string[];
  /** Empty: the database makes one (a new variant) or keeps it (an existing one, undefined). */
  sku?: string;
  priceCents: number | null;
  /** Undefined: kept as it is (a spreadsheet without the column). */
  compareAtPriceCents?: number | null;
  stockQuantity: number;
  weightGrams: number | null;
  lengthMm: number | null;
  widthMm: number | null;
  heightMm: number | null;
  imageUrls: string[];
  /** Undefined: kept as they are (a spreadsheet without the columns). */
  gtin?: string;
  mpn?: string;
  /**
   * The product form without options shows only the stock and 'de' price: the variant's other
   * data (its weight, pictures… from a CSV) stay as they are.
   */
  onlyStockAndPrice?: boolean;
}

type Parsed<T> = { value: T } | { error: string };

/** An optional price ('' is none) in cents, with the product form's messages. */
export function parseOptionalPrice(text: string): Parsed<number | null> {
  if (!text.trim()) return { value: null };
  const result = parseReais(text, { exactCents: true });
  if ('error' in result) {
    return {
      error: {
        'not-a-number': VARIANT_MESSAGES.price,
        negative: VARIANT_MESSAGES.priceNegative,
        'too-high': VARIANT_MESSAGES.priceTooHigh,
        'too-many-decimals': VARIANT_MESSAGES.priceDecimals,
      }[result.error],
    };
  }
  if (result.cents === 0) return { error: VARIANT_MESSAGES.priceZero };
  return { value: result.cents };
}

/** A whole number from 0 to `max` ("1.000" is a thousand); '' is none unless required. */
export function parseWhole(text: string, max: number, required = false): Parsed<number | null> {
  const value = text.trim();
  if (!value) return required ? { error: VARIANT_MESSAGES.stock } : { value: null };
  if (/^-\s*\d/.test(value)) return { error: VARIANT_MESSAGES.negative };
  if (!/^\d+$|^\d{1,3}(\.\d{3})+$/.test(value)) return { error: VARIANT_MESSAGES.whole };
  const number = Number(value.replace(/\./g, ''));
  if (number > max) return { error: VARIANT_MESSAGES.tooHigh(max) };
  return { value: number };
}

/** A SKU as typed: '' asks the database for one. */
export function parseSku(text: string): Parsed<string> {
  const sku = text.trim();
  if (sku.length > VARIANT_LIMITS.sku) return { error: VARIANT_MESSAGES.skuTooLong };
  if (sku && !/^[\p{L}\p{N}._-]+$/u.test(sku)) return { error: VARIANT_MESSAGES.sku };
  return { value: sku };
}

/** Each value of the options, in order: the combinations a product may offer. */
export function combinations(options: readonly ProductOption[]): string[][] {
  return options.reduce<string[][]>(
    (combos, option) =>
      combos.flatMap((combo) => option.values.map((value) => [...combo, value.name])),
    [[]],
  );
}

export const combinationKey = (values: readonly (string | null | undefined)[]) =>
  JSON.stringify(values.map((value) => value ?? null));

function emptyDraft(values: string[]): VariantDraft {
  return {
    id: '',
    values,
    sku: '',
    price: '',
    compareAtPrice: '',
    stock: '0',
    weight: '',
    length: '',
    width: '',
    height: '',
    image: '',
    gtin: '',
    mpn: '',
  };
}

/**
 * 'Gerar variantes': every combination of the options, keeping the variants that exist (with
 * their data) and adding the missing ones; those whose value was removed are dropped. A product
 * that had no options hands its one variant (its stock, SKU, orders and restock requests) to the
 * first combination.
 */
export function generateVariants(
  options: readonly ProductOption[],
  current: readonly VariantDraft[],
): VariantDraft[] {
  const byKey = new Map(current.map((draft) => [combinationKey(draft.values), draft]));
  const single = current.length === 1 && current[0]!.values.length === 0 ? current[0] : undefined;
  return combinations(options).map((values, index) => {
    const kept = byKey.get(combinationKey(values));
    if (kept) return kept;
    if (index === 0 && single) return { ...single, values };
    return emptyDraft(values);
  });
}

const COLOR = /^#[0-9a-f]{6}$/i;

const rawOptions = z.array(
  z.object({
    name: z.string(),
    values: z.array(z.object({ name: z.string(), color: z.string().optional() })),
  }),
);

const rawVariants = z.array(
  z.object({
    id: z.string(),
    values: z.array(z.string()),
    sku: z.string(),
    price: z.string(),
    compareAtPrice: z.string(),
    stock: z.string(),
    weight: z.string(),
    length: z.string(),
    width: z.string(),
    height: z.string(),
    image: z.string(),
    // Absent in a form from before issue 39: none.
    gtin: z.string().default(''),
    mpn: z.string().default(''),
  }),
);

/** A JSON field of the form, read as its raw shape; anything else is refused as junk. */
function jsonField<T>(shape: z.ZodType<T>) {
  return z
    .string()
    .max(500_000, VARIANT_MESSAGES.tooManyVariants)
    .default('[]')
    .transform((text, context): T => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      const parsed = shape.safeParse(value);
      if (!parsed.success) {
        context.addIssue({ code: 'custom', message: VARIANT_MESSAGES.invalid });
        return z.NEVER;
      }
      return parsed.data;
    });
}

export const optionsField = jsonField(rawOptions);
export const variantsField = jsonField(rawVariants);

type Issue = { path: string; message: string };

/** The options, cleaned (names on one line, colours in lower case), and their mistakes. */
export function checkOptions(raw: z.output<typeof rawOptions>): {
  options: ProductOption[];
  issues: Issue[];
} {
  const issues: Issue[] = [];
  if (raw.length > VARIANT_LIMITS.options) {
    issues.push({ path: 'options', message: VARIANT_MESSAGES.tooManyOptions });
  }
  const names = new Set<string>();
  const options = raw.slice(0, VARIANT_LIMITS.options).map((option, index): ProductOption => {
    const name = singleLine(option.name);
    const at = `options.${index}`;
    if (!name) issues.push({ path: `${at}.name`, message: VARIANT_MESSAGES.optionName });
    else if (name.length > VARIANT_LIMITS.name) {
      issues.push({ path: `${at}.name`, message: VARIANT_MESSAGES.optionNameTooLong });
    } else if (names.has(name.toLowerCase())) {
      issues.push({ path: `${at}.name`, message: VARIANT_MESSAGES.optionRepeated });
    }
    names.add(name.toLowerCase());
    const values = option.values.map((value) => ({
      name: singleLine(value.name),
      color: value.color?.trim().toLowerCase() || undefined,
    }));
    const seen = new Set<string>();
    let valueIssue: string | undefined;
    let colorIssue = false;
    for (const value of values) {
      if (!value.name) valueIssue ??= VARIANT_MESSAGES.valueName;
      else if (value.name.length > VARIANT_LIMITS.name)
        valueIssue ??= VARIANT_MESSAGES.valueTooLong;
      else if (seen.has(value.name.toLowerCase())) {
        valueIssue ??= VARIANT_MESSAGES.valueRepeated(value.name);
      }
      seen.add(value.name.toLowerCase());
      if (value.color !== undefined && !COLOR.test(value.color)) colorIssue = true;
    }
    if (values.length === 0) valueIssue = VARIANT_MESSAGES.values;
    else if (values.length > VARIANT_LIMITS.values) valueIssue = VARIANT_MESSAGES.tooManyValues;
    if (valueIssue) issues.push({ path: `${at}.values`, message: valueIssue });
    if (colorIssue) issues.push({ path: `${at}.values`, message: VARIANT_MESSAGES.color });
    return {
      name,
      values: values.map((value) =>
        value.color ? { name: value.name, color: value.color } : { name: value.name },
      ),
    };
  });
  return { options, issues };
}

/** The grid's variants, each cell parsed, and every cell's mistake; their values must be the options'. */
export function checkVariants(
  options: readonly ProductOption[],
  drafts: readonly VariantDraft[],
): { variants: VariantValues[]; issues: Issue[] } {
  const issues: Issue[] = [];
  if (options.length > 0 && drafts.length === 0) {
    issues.push({ path: 'variants', message: VARIANT_MESSAGES.noVariants });
  }
  if (drafts.length > VARIANT_LIMITS.variants) {
    issues.push({ path: 'variants', message: VARIANT_MESSAGES.tooManyVariants });
  }
  const combos = new Set<string>();
  const skus = new Set<string>();
  const variants = drafts.slice(0, VARIANT_LIMITS.variants).map((draft, row) => {
    const at = (cell: string) => `variants.${row}.${cell}`;
    const take = <T>(cell: VariantCell, parsed: Parsed<T>, fallback: T): T => {
      if ('value' in parsed) return parsed.value;
      issues.push({ path: at(cell), message: parsed.error });
      return fallback;
    };
    const values = draft.values.map(singleLine);
    const known =
      values.length === options.length &&
      values.every((value, index) => options[index]!.values.some((v) => v.name === value));
    const key = combinationKey(values);
    if (!known) issues.push({ path: at('values'), message: VARIANT_MESSAGES.unknownValue });
    else if (combos.has(key)) {
      issues.push({ path: at('values'), message: VARIANT_MESSAGES.combinationRepeated });
    }
    combos.add(key);
    const sku = take('sku', parseSku(draft.sku), '');
    if (sku) {
      if (skus.has(sku)) issues.push({ path: at('sku'), message: VARIANT_MESSAGES.skuRepeated });
      skus.add(sku);
    }
    const image = draft.image.trim();
    return {
      ...(isUuid(draft.id) ? { id: draft.id.toLowerCase() } : {}),
      values,
      sku,
      priceCents: take('price', parseOptionalPrice(draft.price), null),
      compareAtPriceCents: take('compareAtPrice', parseOptionalPrice(draft.compareAtPrice), null),
      stockQuantity: take('stock', parseWhole(draft.stock, VARIANT_LIMITS.stock, true), 0) ?? 0,
      weightGrams: take('weight', parseWhole(draft.weight, VARIANT_LIMITS.grams), null),
      lengthMm: take('length', parseWhole(draft.length, VARIANT_LIMITS.mm), null),
      widthMm: take('width', parseWhole(draft.width, VARIANT_LIMITS.mm), null),
      heightMm: take('height', parseWhole(draft.height, VARIANT_LIMITS.mm), null),
      imageUrls: image ? [image] : [],
      gtin: take('gtin', parseGtin(draft.gtin), ''),
      mpn: take('mpn', parseIdentifierText(draft.mpn, IDENTIFIER_MAX_LENGTH.mpn), ''),
    } satisfies VariantValues;
  });
  return { variants, issues };
}
