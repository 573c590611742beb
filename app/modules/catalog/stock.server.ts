import { and, eq, gte, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { products } from './schema';

export interface StockClaim {
  productId: string;
  quantity: number;
  /** The price the order is charged; the claim fails if the product's price changed since. */
  priceCents: number;
}

/**
 * Takes units out of stock for an order, or none at all: one conditional update per product, so
 * concurrent checkouts can never take more than there is. Run it in the order's transaction and
 * roll back when it answers false. Claims are applied in id order so two transactions never lock
 * the same rows in opposite orders (a deadlock on PostgreSQL).
 */
export async function reserveStock(db: Db, claims: readonly StockClaim[]): Promise<boolean> {
  const sorted = [...claims].sort((a, b) => a.productId.localeCompare(b.productId));
  for (const claim of sorted) {
    const taken = await db
      .update(products)
      .set({
        stockQuantity: sql`${products.stockQuantity} - ${claim.quantity}`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(products.id, claim.productId),
          gte(products.stockQuantity, claim.quantity),
          eq(products.priceCents, claim.priceCents),
        ),
      )
      .returning({ id: products.id });
    if (taken.length === 0) return false;
  }
  return true;
}

/** Puts units back in stock (a cancelled order); products deleted since are skipped. */
export async function releaseStock(
  db: Db,
  lines: readonly { productId: string | null; quantity: number }[],
): Promise<void> {
  const sorted = lines
    .filter((line): line is { productId: string; quantity: number } => line.productId !== null)
    .sort((a, b) => a.productId.localeCompare(b.productId));
  for (const line of sorted) {
    await db
      .update(products)
      .set({
        stockQuantity: sql`${products.stockQuantity} + ${line.quantity}`,
        updatedAt: sql`now()`,
      })
      .where(eq(products.id, line.productId));
  }
}
