import { eq, inArray, or, sql, type Placeholder } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { preparedPer } from '~/db/prepared-statements.server';
import { distinctUuids } from '~/lib/uuid';
import { effectivePriceCents } from '~/modules/pricing';

import { categories, products, productVariants, type VariantOptionValue } from './schema';
import { optionValuesOf } from './variant-label';

/** What the cart needs to know about a variant to price a line and check its stock. */
export interface VariantSummary {
  /** The variant's id. */
  id: string;
  productId: string;
  /** The product's name. */
  name: string;
  slug: string;
  sku: string;
  /** The variant's value of each of the product's options, in the product's order. */
  options: VariantOptionValue[];
  /** The variant's price, else the product's. */
  priceCents: number;
  /** The variant's own stock. */
  stockQuantity: number;
  /** The variant's first picture, else the product's, if any. */
  imageUrl: string | null;
  categoryId: string | null;
  categoryName: string | null;
  /** The variant's place among its product's: the first is what a product alone names. */
  position: number;
  /** Its package for carriers (null: not given, the store's default counts). */
  weightGrams: number | null;
  lengthMm: number | null;
  widthMm: number | null;
  heightMm: number | null;
}

/**
 * The variants with these ids and every variant of these products, in one query (each product's
 * in their order); unknown or malformed ids are simply absent.
 */
export async function lookupVariants(
  db: Db,
  wanted: { variantIds?: readonly string[]; productIds?: readonly string[] },
): Promise<VariantSummary[]> {
  const variantIds = distinctUuids(wanted.variantIds ?? []);
  const productIds = distinctUuids(wanted.productIds ?? []);
  if (variantIds.length === 0 && productIds.length === 0) return [];
  const rows = await variantsOf(db, variantIds, productIds);
  return rows.map((row) => ({
    id: row.id,
    productId: row.productId,
    name: row.name,
    slug: row.slug,
    sku: row.sku,
    options: optionValuesOf(row.productOptions, row),
    priceCents: effectivePriceCents(row.variantPriceCents, row.productPriceCents),
    stockQuantity: row.stockQuantity,
    imageUrl: row.variantImageUrls[0] ?? row.productImageUrls[0] ?? null,
    categoryId: row.categoryId,
    categoryName: row.categoryName,
    position: row.position,
    weightGrams: row.weightGrams,
    lengthMm: row.lengthMm,
    widthMm: row.widthMm,
    heightMm: row.heightMm,
  }));
}

/**
 * lookupVariants' query. Every cart, checkout and order request sends it, and building it cost
 * more of the server's CPU than sending it, so each shape (how many ids of each kind, up to
 * PREPARED_IDS) is built once. The ids stay a list of parameters: as one array parameter
 * (`= any($1)`), PostgreSQL planned the statement again on every run, at three times the CPU.
 */
function variantsOf(db: Db, variantIds: string[], productIds: string[]) {
  if (variantIds.length > PREPARED_IDS || productIds.length > PREPARED_IDS) {
    return variantQuery(db, variantIds, productIds);
  }
  const values: Record<string, string> = {};
  variantIds.forEach((id, at) => (values[`variant${at}`] = id));
  productIds.forEach((id, at) => (values[`product${at}`] = id));
  return preparedLookup(db, `${variantIds.length}_${productIds.length}`).execute(values);
}

/** Carts hold a few lines; a longer list is built each time rather than kept prepared. */
const PREPARED_IDS = 4;

/** The look-up for `shape`: how many variant ids and product ids, as "1_0". */
const preparedLookup = preparedPer((db: Db, shape: string) => {
  const [variants, products] = shape.split('_').map(Number);
  const placeholders = (kind: string, count: number) =>
    Array.from({ length: count }, (_, at) => sql.placeholder(`${kind}${at}`));
  return variantQuery(
    db,
    placeholders('variant', variants!),
    placeholders('product', products!),
  ).prepare(`vitrine_variants_${shape}`);
});

function variantQuery(
  db: Db,
  variantIds: (string | Placeholder)[],
  productIds: (string | Placeholder)[],
) {
  return db
    .select({
      id: productVariants.id,
      productId: products.id,
      name: products.name,
      slug: products.slug,
      sku: productVariants.sku,
      option1: productVariants.option1,
      option2: productVariants.option2,
      option3: productVariants.option3,
      productOptions: products.options,
      variantPriceCents: productVariants.priceCents,
      productPriceCents: products.priceCents,
      stockQuantity: productVariants.stockQuantity,
      variantImageUrls: productVariants.imageUrls,
      productImageUrls: products.imageUrls,
      categoryId: products.categoryId,
      categoryName: categories.name,
      position: productVariants.position,
      weightGrams: productVariants.weightGrams,
      lengthMm: productVariants.lengthMm,
      widthMm: productVariants.widthMm,
      heightMm: productVariants.heightMm,
    })
    .from(productVariants)
    .innerJoin(products, eq(productVariants.productId, products.id))
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .where(
      or(
        ...(variantIds.length > 0 ? [inArray(productVariants.id, variantIds)] : []),
        ...(productIds.length > 0 ? [inArray(productVariants.productId, productIds)] : []),
      ),
    )
    .orderBy(productVariants.productId, productVariants.position, productVariants.createdAt);
}

/**
 * Which of these product and category ids exist, each row locked against deletion until the
 * transaction ends, so whatever names them (a coupon) cannot be left pointing at nothing.
 */
export async function lockExistingCatalogIds(
  db: Db,
  ids: { productIds: readonly string[]; categoryIds: readonly string[] },
): Promise<{ productIds: Set<string>; categoryIds: Set<string> }> {
  const productIds = distinctUuids(ids.productIds);
  const categoryIds = distinctUuids(ids.categoryIds);
  const [foundProducts, foundCategories] = [
    productIds.length
      ? await db
          .select({ id: products.id })
          .from(products)
          .where(inArray(products.id, productIds))
          .for('share')
      : [],
    categoryIds.length
      ? await db
          .select({ id: categories.id })
          .from(categories)
          .where(inArray(categories.id, categoryIds))
          .for('share')
      : [],
  ];
  return {
    productIds: new Set(foundProducts.map((row) => row.id)),
    categoryIds: new Set(foundCategories.map((row) => row.id)),
  };
}
