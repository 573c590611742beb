import { and, eq, gte, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import type { ClaimPart } from '~/db/prepared-statements.server';
import { effectivePriceSql } from '~/modules/pricing/index.server';

import { productVariants } from './schema';

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
 * Takes units out of stock for an order, or none at all: one conditional update per variant, a
 * part of the order's statement (ADR 056) that returns a row when it took its units, so
 * concurrent checkouts can never take more than there is; the statement refuses the order when a
 * part took nothing. A variant's update also updates its product's row (the stock-sum trigger,
 * ADR 029), so the parts come in product, then variant order, and the statement takes them in
 * turn: two orders never lock the same rows in opposite orders (a deadlock on PostgreSQL).
 */
export function stockClaimParts(claims: readonly StockClaim[]): ClaimPart<Db>[] {
  // One statement cannot update a row twice: the second claim would silently take nothing. The
  // pricing gives each variant one line, so two claims of one variant are a bug, said loudly.
  if (new Set(claims.map((claim) => claim.variantId)).size !== claims.length) {
    throw new Error('Two stock claims name the same variant');
  }
  return [...claims].sort(byProductThenVariant).map((claim, at) => {
    const prefix = `stock${at}`;
    return {
      key: prefix,
      build: (db, after) => stockClaim(db, prefix, after),
      values: {
        [`${prefix}variantId`]: claim.variantId,
        [`${prefix}productId`]: claim.productId,
        [`${prefix}quantity`]: claim.quantity,
        [`${prefix}priceCents`]: claim.priceCents,
      },
    };
  });
}

function stockClaim(db: Db, prefix: string, after: SQL) {
  const value = (name: string) => sql.placeholder(`${prefix}${name}`);
  const quantity = sql`${value('quantity')}::int`;
  return db
    .update(productVariants)
    .set({
      stockQuantity: sql`${productVariants.stockQuantity} - ${quantity}`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(productVariants.id, value('variantId')),
        eq(productVariants.productId, value('productId')),
        gte(productVariants.stockQuantity, quantity),
        // Either the variant's price or its product's changing fails the claim; the product's
        // as committed now (migration 0040), since the claim may have waited for locks.
        eq(
          effectivePriceSql(
            productVariants.priceCents,
            sql`vitrine_product_price(${productVariants.productId})`,
          ),
          value('priceCents'),
        ),
        after,
      ),
    )
    .returning({ id: productVariants.id });
}

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
