/**
 * A variant's unit price: its own when it has one, else its product's. Every price a shopper is
 * shown or charged for a variant is this one (the SQL side is effectivePriceSql, and migration
 * 0023's trigger keeps products.from_price_cents by the same rule).
 */
export function effectivePriceCents(
  variantPriceCents: number | null,
  productPriceCents: number,
): number {
  return variantPriceCents ?? productPriceCents;
}

/** What a line of this many units at this unit price costs. */
export function lineTotalCents(unitPriceCents: number, quantity: number): number {
  return unitPriceCents * quantity;
}
