import { and, eq, gte, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { preparedPer } from '~/db/prepared-statements.server';
import { effectivePriceSql } from '~/modules/pricing/index.server';

import { products, productVariants } from './schema';

export interface StockClaim {
  productId: string;
  variantId: string;
  quantity: number;
  /** The price the order is charged; the claim fails if the variant's price changed since. */
  priceCents: number;
}

function byProductThenVariant(
  a: { productId: string; variantId: string },
  b: { productId: string; variantId: string },
): number {
  return a.productId.localeCompare(b.productId) || a.variantId.localeCompare(b.variantId);
}

/**
 * Takes units out of stock for an order, or none at all: one conditional update per variant, so
 * concurrent checkouts can never take more than there is. Run it in the order's transaction and
 * roll back when it answers false. A variant's update also updates its product's row (the
 * stock-sum trigger, ADR 029), so claims are applied in product, then variant order: two
 * transactions never lock the same rows in opposite orders (a deadlock on PostgreSQL).
 */
export async function reserveStock(db: Db, claims: readonly StockClaim[]): Promise<boolean> {
  const sorted = [...claims].sort(byProductThenVariant);
  for (const claim of sorted) {
    const taken = await stockClaim(db).execute({
      variantId: claim.variantId,
      productId: claim.productId,
      quantity: claim.quantity,
      priceCents: claim.priceCents,
    });
    if (taken.length === 0) return false;
  }
  return true;
}

/** reserveStock's update, built once: every order sends it for each of its lines. */
const stockClaim = preparedPer((db: Db) => {
  const quantity = sql.placeholder('quantity');
  return db
    .update(productVariants)
    .set({
      stockQuantity: sql`${productVariants.stockQuantity} - ${quantity}::int`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(productVariants.id, sql.placeholder('variantId')),
        eq(productVariants.productId, sql.placeholder('productId')),
        gte(productVariants.stockQuantity, quantity),
        // Either the variant's price or its product's changing fails the claim.
        eq(
          effectivePriceSql(
            productVariants.priceCents,
            sql`(select ${products.priceCents} from ${products} where ${products.id} = ${productVariants.productId})`,
          ),
          sql.placeholder('priceCents'),
        ),
      ),
    )
    .returning({ id: productVariants.id })
    .prepare('vitrine_stock_claim');
});

/** Puts units back in stock (a cancelled order); lines of variants deleted since are skipped. */
export async function releaseStock(
  db: Db,
  lines: readonly { productId: string | null; variantId: string | null; quantity: number }[],
): Promise<void> {
  const sorted = lines
    .filter(
      (line): line is { productId: string; variantId: string; quantity: number } =>
        line.productId !== null && line.variantId !== null,
    )
    .sort(byProductThenVariant);
  for (const line of sorted) {
    await db
      .update(productVariants)
      .set({
        stockQuantity: sql`${productVariants.stockQuantity} + ${line.quantity}`,
        updatedAt: sql`now()`,
      })
      .where(eq(productVariants.id, line.variantId));
  }
}
