// What shopping channels (Google Merchant Center, Meta's catalogue) identify a product by, and
// the rules the product form, the spreadsheet import and the feeds share (issue 39).

export const PRODUCT_CONDITIONS = ['new', 'used', 'refurbished'] as const;
export type ProductCondition = (typeof PRODUCT_CONDITIONS)[number];

export const PRODUCT_CONDITION_LABELS: Record<ProductCondition, string> = {
  new: 'Novo',
  used: 'Usado',
  refurbished: 'Recondicionado',
};

export const IDENTIFIER_MESSAGES = {
  gtin: 'GTIN inválido: use o código de barras de 8, 12, 13 ou 14 dígitos, com o dígito verificador certo, ou deixe em branco.',
  condition: 'Condição inválida: use novo, usado ou recondicionado.',
  tooLong: (max: number) => `Use no máximo ${max} caracteres.`,
} as const;

export const IDENTIFIER_MAX_LENGTH = { brand: 70, mpn: 70, googleProductCategory: 250 } as const;

/**
 * Whether `digits` is a GTIN (EAN-8, UPC-A, EAN-13 or GTIN-14): 8, 12, 13 or 14 digits whose last
 * is the GS1 check digit (weights 3 and 1 from the right, the sum rounded up to a ten).
 */
export function isGtin(digits: string): boolean {
  if (!/^(?:\d{8}|\d{12,14})$/.test(digits)) return false;
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += Number(digits[i]) * weight;
  }
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

/** A GTIN as typed (spaces and dashes are common on labels) to its digits; '' stays ''. */
export function normalizeGtin(typed: string): string {
  return typed.replace(/[\s-]/g, '');
}

/** A condition as a spreadsheet may write it, in English or Portuguese; undefined when unknown. */
export function parseCondition(typed: string): ProductCondition | undefined {
  const folded = typed.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();
  if (folded === '') return 'new';
  const byWord: Record<string, ProductCondition> = {
    new: 'new',
    novo: 'new',
    used: 'used',
    usado: 'used',
    refurbished: 'refurbished',
    recondicionado: 'refurbished',
  };
  return byWord[folded];
}

type Parsed<T> = { value: T } | { error: string };

/** A GTIN as typed in a form or a spreadsheet cell: '' is none. */
export function parseGtin(text: string): Parsed<string> {
  const gtin = normalizeGtin(text);
  if (gtin === '') return { value: '' };
  return isGtin(gtin) ? { value: gtin } : { error: IDENTIFIER_MESSAGES.gtin };
}

/** A maker's part number, or a brand, on one line: '' is none. */
export function parseIdentifierText(text: string, max: number): Parsed<string> {
  const value = text.replace(/\s+/g, ' ').trim();
  return value.length > max ? { error: IDENTIFIER_MESSAGES.tooLong(max) } : { value };
}
