// What the admin's spreadsheet exports (orders, products) share.

/** Cents as a spreadsheet in Brazil reads an amount: 123456 → "1234,56" (no R$, no dots). */
export function csvAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)},${String(absolute % 100).padStart(2, '0')}`;
}
