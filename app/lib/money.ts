const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** Formats integer cents as Brazilians write prices: 123456 → "R$ 1.234,56". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents))
    throw new TypeError(`Money must be integer cents, got ${cents}`);
  // Intl puts a no-break space after "R$"; a plain space copies and searches as people expect.
  return brl.format(cents / 100).replace(/\u00a0/g, ' ');
}
