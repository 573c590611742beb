import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * effectivePriceCents as a query computes it: the variant's price column, else the product's
 * (a column, or a subquery reading it).
 */
export function effectivePriceSql(variantPrice: SQLWrapper, productPrice: SQLWrapper): SQL<number> {
  return sql<number>`coalesce(${variantPrice}, ${productPrice})`;
}
