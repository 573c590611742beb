// Amounts in reais as Brazilians type them, for every field and filter that takes one: "10",
// "10,50", "1.234,56", "R$ 1.234"; also "10.5" (a dot followed by one or two digits is a decimal
// point, by three digits a thousands separator).

import { formatDecimalCents } from './money';

/** Why an amount was refused; extra decimals only where `exactCents` asks (filters round them). */
type Refusal = 'not-a-number' | 'negative' | 'too-high';

export type ReaisResult<Reason extends string = Refusal> = { cents: number } | { error: Reason };

/** Above this no amount can be typed (prices are 32-bit cents in the database). */
const MAX_TYPED_CENTS = 1_000_000_000;

/**
 * An amount in cents. Filters round extra decimals; a form that stores the amount passes
 * `exactCents`, because "10,555" there is a typing mistake, not a price.
 */
export function parseReais(text: string): ReaisResult;
export function parseReais(
  text: string,
  options: { exactCents: true },
): ReaisResult<Refusal | 'too-many-decimals'>;
export function parseReais(
  text: string,
  options: { exactCents?: boolean } = {},
): ReaisResult<Refusal | 'too-many-decimals'> {
  const typed = text.replace(/\s+/g, '').replace(/^R\$/i, '');
  let value = typed;
  if (value.startsWith('-')) {
    return /^-\d/.test(value) ? { error: 'negative' } : { error: 'not-a-number' };
  }
  if (value.includes(',')) {
    if (!/^\d{1,3}(\.\d{3})*,\d*$|^\d+,\d*$/.test(value)) return { error: 'not-a-number' };
    value = value.replace(/\./g, '').replace(',', '.');
  } else if (/^\d{1,3}(\.\d{3})+$/.test(value)) {
    value = value.replace(/\./g, '');
  } else if (!/^\d+(\.\d*)?$/.test(value)) {
    return { error: 'not-a-number' };
  }
  const cents = Math.round(Number(value) * 100);
  if (!Number.isSafeInteger(cents) || cents > MAX_TYPED_CENTS) return { error: 'too-high' };
  if (options.exactCents && /[.,]\d{3,}$/.test(value)) return { error: 'too-many-decimals' };
  return { cents };
}

/** Cents as an amount field shows them, without "R$" (the field says it): 123456 → "1.234,56". */
export function formatReaisInput(cents: number): string {
  return formatDecimalCents(cents);
}
