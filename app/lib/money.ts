/**
 * Brazilian figures are written by hand here, not with Intl.NumberFormat: building one loads the
 * locale's data, which cost ~15 ms of a cheap phone's main thread in the first script task of
 * every storefront page (ADR 023). pt-BR groups thousands with '.' and writes decimals after ','.
 */
function groupThousands(integer: number): string {
  return String(integer).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/** Integer cents as an amount without the symbol: 123456 → "1.234,56", -5 → "-0,05". */
export function formatDecimalCents(cents: number): string {
  if (!Number.isSafeInteger(cents))
    throw new TypeError(`Money must be integer cents, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${groupThousands(Math.floor(absolute / 100))},${String(absolute % 100).padStart(2, '0')}`;
}

/** Formats integer cents as Brazilians write prices: 123456 → "R$ 1.234,56", -100 → "-R$ 1,00". */
export function formatCents(cents: number): string {
  const amount = formatDecimalCents(cents);
  // A plain space after "R$" (Intl's is a no-break one): it copies and searches as people expect.
  return amount.startsWith('-') ? `-R$ ${amount.slice(1)}` : `R$ ${amount}`;
}

/** An adjustment to an order's total: -4999 → "− R$ 49,99" (a discount), 500 → "+ R$ 5,00". */
export function formatSignedCents(cents: number): string {
  return `${cents < 0 ? '−' : '+'} ${formatCents(Math.abs(cents))}`;
}

/**
 * A count as pt-BR writes it: 1204 → "1.204". Anything but a whole number goes to Intl (its first
 * use loads the locale's data, ~70 ms of a cheap phone's main thread).
 */
export function formatInteger(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('pt-BR');
  return `${value < 0 ? '-' : ''}${groupThousands(Math.abs(value))}`;
}

/** A non-negative figure with one decimal, rounded half up: 4.35 → "4,4", 1234.5 → "1.234,5". */
export function formatOneDecimal(value: number): string {
  const tenths = Math.round(value * 10);
  return `${groupThousands(Math.floor(tenths / 10))},${tenths % 10}`;
}
