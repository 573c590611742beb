import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { formatReaisInput } from '~/lib/reais';

import { LOW_STOCK_MAX } from './admin-product-list';
import { combinationKey, type VariantDraft, type VariantValues } from './admin-variants';
import { productVariants } from './schema';

const optionColumns = (values: readonly string[]) => ({
  option1: values[0] ?? null,
  option2: values[1] ?? null,
  option3: values[2] ?? null,
});

/**
 * The rows whose SKU another product's variant has (check before writing anything: the
 * unique index would end the transaction instead).
 */
export async function rowsWithTakenSku(
  db: Db,
  productId: string,
  variants: readonly VariantValues[],
): Promise<number[]> {
  const skus = variants.flatMap((variant) => (variant.sku ? [variant.sku] : []));
  if (skus.length === 0) return [];
  const taken = await db
    .select({ sku: productVariants.sku })
    .from(productVariants)
    .where(and(inArray(productVariants.sku, skus), ne(productVariants.productId, productId)));
  const takenSkus = new Set(taken.map((row) => row.sku));
  return variants.flatMap((variant, row) =>
    variant.sku && takenSkus.has(variant.sku) ? [row] : [],
  );
}

/**
 * Makes the product's variants these, in this order (pass a transaction): each is matched to an
 * existing variant by its id, else by its values, and updated (keeping its id, so orders and
 * restock requests still name it); the others are inserted, and the existing ones not matched
 * deleted (orders keep their copies). An empty SKU on a new variant is made by the database;
 * a SKU of another product's is not checked here (rowsWithTakenSku). The product's stock becomes
 * their sum by the database's trigger.
 */
export async function writeVariants(
  db: Db,
  productId: string,
  variants: readonly VariantValues[],
): Promise<void> {
  const existing = await db
    .select({
      id: productVariants.id,
      sku: productVariants.sku,
      option1: productVariants.option1,
      option2: productVariants.option2,
      option3: productVariants.option3,
    })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position))
    .for('update');
  const byId = new Map(existing.map((variant) => [variant.id, variant]));
  const byValues = new Map(
    existing.map((variant) => [
      combinationKey([variant.option1, variant.option2, variant.option3]),
      variant,
    ]),
  );
  const claimed = new Set<string>();
  const matches = variants.map((variant) => {
    const found =
      (variant.id !== undefined ? byId.get(variant.id) : undefined) ??
      byValues.get(combinationKey([0, 1, 2].map((index) => variant.values[index])));
    if (!found || claimed.has(found.id)) return undefined;
    claimed.add(found.id);
    return found;
  });

  const gone = existing.filter((variant) => !claimed.has(variant.id)).map((v) => v.id);
  if (gone.length > 0) await db.delete(productVariants).where(inArray(productVariants.id, gone));

  // SKUs moving between this product's variants would collide on the way: those changing step
  // aside first (to their own id, unique) and take their new SKU below.
  const moving = matches.flatMap((match, row) => {
    const sku = variants[row]!.sku;
    return match && sku && sku !== match.sku ? [match.id] : [];
  });
  if (moving.length > 0) {
    await db
      .update(productVariants)
      .set({ sku: sql`${productVariants.id}::text` })
      .where(inArray(productVariants.id, moving));
  }

  const inserts: (typeof productVariants.$inferInsert)[] = [];
  for (const [row, variant] of variants.entries()) {
    const match = matches[row];
    const measures = variant.onlyStockAndPrice
      ? {}
      : {
          ...optionColumns(variant.values),
          priceCents: variant.priceCents,
          weightGrams: variant.weightGrams,
          lengthMm: variant.lengthMm,
          widthMm: variant.widthMm,
          heightMm: variant.heightMm,
          imageUrls: variant.imageUrls,
        };
    const values = {
      ...measures,
      position: row + 1,
      compareAtPriceCents: variant.compareAtPriceCents,
      stockQuantity: variant.stockQuantity,
      ...(variant.gtin === undefined ? {} : { gtin: variant.gtin }),
      ...(variant.mpn === undefined ? {} : { mpn: variant.mpn }),
    };
    if (match) {
      await db
        .update(productVariants)
        .set({
          ...values,
          ...(variant.sku ? { sku: variant.sku } : {}),
          ...optionColumns(variant.values),
          updatedAt: new Date(),
        })
        .where(eq(productVariants.id, match.id));
    } else {
      inserts.push({
        ...values,
        ...optionColumns(variant.values),
        productId,
        sku: variant.sku ?? '',
        priceCents: variant.onlyStockAndPrice ? null : variant.priceCents,
      });
    }
  }
  if (inserts.length > 0) await db.insert(productVariants).values(inserts);
}

/** The products' variants, each product's in their order. */
function listVariants(db: Db, productIds: readonly string[]) {
  if (productIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(productVariants)
    .where(inArray(productVariants.productId, [...productIds]))
    .orderBy(
      asc(productVariants.productId),
      asc(productVariants.position),
      asc(productVariants.id),
    );
}

/** The product's variants as the admin's grid shows them, every cell as text. */
export async function variantDrafts(db: Db, productId: string): Promise<VariantDraft[]> {
  const rows = await listVariants(db, [productId]);
  const text = (value: number | null) => (value === null ? '' : String(value));
  const reais = (cents: number | null) => (cents === null ? '' : formatReaisInput(cents));
  return rows.map((variant) => ({
    id: variant.id,
    values: [variant.option1, variant.option2, variant.option3].filter(
      (value): value is string => value !== null,
    ),
    sku: variant.sku,
    price: reais(variant.priceCents),
    compareAtPrice: reais(variant.compareAtPriceCents),
    stock: String(variant.stockQuantity),
    weight: text(variant.weightGrams),
    length: text(variant.lengthMm),
    width: text(variant.widthMm),
    height: text(variant.heightMm),
    image: variant.imageUrls[0] ?? '',
    gtin: variant.gtin,
    mpn: variant.mpn,
  }));
}

/**
 * For the admin's list: how many variants each of these products has, and how many of them are
 * at or below LOW_STOCK_MAX (a product's total can hide a size that is running out).
 */
export async function variantStock(
  db: Db,
  productIds: readonly string[],
): Promise<Map<string, { variants: number; low: number }>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({
      productId: productVariants.productId,
      variants: sql<number>`count(*)::int`,
      low: sql<number>`(count(*) filter (where ${productVariants.stockQuantity} <= ${LOW_STOCK_MAX}))::int`,
    })
    .from(productVariants)
    .where(inArray(productVariants.productId, [...productIds]))
    .groupBy(productVariants.productId);
  return new Map(rows.map((row) => [row.productId, { variants: row.variants, low: row.low }]));
}
