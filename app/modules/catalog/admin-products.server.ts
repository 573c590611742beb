import { and, eq, inArray, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';

import { ADMIN_PRODUCTS_PER_PAGE } from './admin-product-list';
import type { VariantValues } from './admin-variants';
import { rowsWithTakenSku, writeVariants } from './admin-variants.server';
import type { ProductCondition } from './product-identifiers';
import { categories, products, type ProductOption } from './schema';
import { searchProducts } from './search.server';
import type { CatalogPage } from './types';

/** A product as the admin form writes it. `imageUrls` is ordered: the first is the main image. */
export interface ProductValues {
  name: string;
  description: string;
  priceCents: number;
  /** Without `variants`: the stock of the product's one variant. */
  stockQuantity: number;
  categoryId: string;
  imageUrls: string[];
  options?: ProductOption[];
  /** For the shopping channels' feeds (issue 39); undefined: kept as they are. */
  brand?: string;
  googleProductCategory?: string;
  condition?: ProductCondition;
  /** What the product sells, in order (see writeVariants); none: one variant of `stockQuantity`. */
  variants?: VariantValues[];
}

export type SaveProductResult =
  | { ok: true; created: boolean }
  | { ok: false; reason: 'category-gone' | 'not-found' | 'form-reused' }
  | { ok: false; reason: 'sku-taken'; rows: number[] };

function variantsOf(values: ProductValues): VariantValues[] {
  return (
    values.variants ?? [
      {
        onlyStockAndPrice: true,
        values: [],
        priceCents: null,
        compareAtPriceCents: null,
        stockQuantity: values.stockQuantity,
        weightGrams: null,
        lengthMm: null,
        widthMm: null,
        heightMm: null,
        imageUrls: [],
      },
    ]
  );
}

/** The product row's columns: its stock is its variants' sum, kept by the database. */
const productRow = ({ stockQuantity: _stock, variants: _variants, ...values }: ProductValues) => ({
  ...values,
  options: values.options ?? [],
});

/** Refuses SKUs of other products before anything is written. */
async function checkSkus(db: Db, id: string, values: ProductValues) {
  const rows = await rowsWithTakenSku(db, id, variantsOf(values));
  return rows.length > 0 ? ({ ok: false, reason: 'sku-taken', rows } as const) : null;
}

/** One page of the admin list: newest first, searched by name and description like the store. */
export function listAdminProducts(
  db: Db,
  params: { q: string; page: number },
): Promise<CatalogPage> {
  return searchProducts(db, {
    q: params.q || undefined,
    page: params.page,
    perPage: ADMIN_PRODUCTS_PER_PAGE,
    sort: 'newest',
  });
}

/**
 * Whether the category exists, holding it until the transaction ends so it cannot be deleted
 * under the product being written (pass a transaction).
 */
async function lockCategory(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.id, id))
    .for('share');
  return !!row;
}

/**
 * Creates the product with the id its form was given. The same form sent again (a double click,
 * a resend) finds the product there and changes nothing: `created` is false. Sent again with
 * other values (back to a saved form, edited, sent) it is refused as 'form-reused' rather than
 * reporting a save that did not happen.
 */
export async function createProduct(
  db: Db,
  id: string,
  values: ProductValues,
): Promise<SaveProductResult> {
  if (!(await lockCategory(db, values.categoryId))) return { ok: false, reason: 'category-gone' };
  const refused = await checkSkus(db, id, values);
  if (refused) return refused;
  const inserted = await db
    .insert(products)
    .values({ id, ...productRow(values), stockQuantity: 0 })
    .onConflictDoNothing({ target: products.id })
    .returning({ id: products.id });
  if (inserted.length > 0) {
    await writeVariants(db, id, variantsOf(values));
    return { ok: true, created: true };
  }
  const [existing] = await db
    .select({
      name: products.name,
      description: products.description,
      priceCents: products.priceCents,
      stockQuantity: products.stockQuantity,
      categoryId: products.categoryId,
      imageUrls: products.imageUrls,
      options: products.options,
    })
    .from(products)
    .where(eq(products.id, id));
  // The variants' own data is not compared: the same name, prices, stock and options is the
  // same form sent twice.
  const stock = variantsOf(values).reduce((sum, variant) => sum + variant.stockQuantity, 0);
  const same =
    existing !== undefined &&
    JSON.stringify(existing.options) === JSON.stringify(values.options ?? []) &&
    existing.name === values.name &&
    existing.description === values.description &&
    existing.priceCents === values.priceCents &&
    existing.stockQuantity === stock &&
    existing.categoryId === values.categoryId &&
    existing.imageUrls.length === values.imageUrls.length &&
    existing.imageUrls.every((url, index) => url === values.imageUrls[index]);
  return same ? { ok: true, created: false } : { ok: false, reason: 'form-reused' };
}

export async function updateProduct(
  db: Db,
  id: string,
  values: ProductValues,
): Promise<SaveProductResult> {
  if (!isUuid(id)) return { ok: false, reason: 'not-found' };
  if (!(await lockCategory(db, values.categoryId))) return { ok: false, reason: 'category-gone' };
  const refused = await checkSkus(db, id, values);
  if (refused) return refused;
  const updated = await db
    .update(products)
    .set({ ...productRow(values), updatedAt: new Date() })
    .where(eq(products.id, id))
    .returning({ id: products.id });
  if (updated.length === 0) return { ok: false, reason: 'not-found' };
  await writeVariants(db, id, variantsOf(values));
  return { ok: true, created: false };
}

/**
 * Deletes the product; false when there was none. Orders keep their copies of its name, price
 * and image (order_items.product_id becomes null); carts holding it drop it when next priced.
 */
export async function deleteProduct(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const deleted = await db
    .delete(products)
    .where(eq(products.id, id))
    .returning({ id: products.id });
  return deleted.length > 0;
}

/**
 * Deletes these products and categories (ids that are gone already are skipped), with the
 * products' reviews and restock requests (cascade); answers how many products went, their image
 * URLs and the categories deleted. A category that still holds a product of the store's own
 * stays: the merchant put it there, and may rename it, rather than find it 'Sem categoria'.
 */
export async function deleteCatalogRows(
  db: Db,
  ids: { productIds: readonly string[]; categoryIds: readonly string[] },
): Promise<{ products: number; imageUrls: string[]; categoryIds: string[] }> {
  const deleted = ids.productIds.length
    ? await db
        .delete(products)
        .where(inArray(products.id, [...ids.productIds]))
        .returning({ imageUrls: products.imageUrls })
    : [];
  const emptied = ids.categoryIds.length
    ? await db
        .delete(categories)
        .where(
          and(
            inArray(categories.id, [...ids.categoryIds]),
            sql`not exists (select 1 from ${products} where ${products.categoryId} = ${categories.id})`,
          ),
        )
        .returning({ id: categories.id })
    : [];
  return {
    products: deleted.length,
    imageUrls: deleted.flatMap((row) => row.imageUrls),
    categoryIds: emptied.map((row) => row.id),
  };
}

/** Which of these image URLs some product still shows. */
export async function imageUrlsInUse(db: Db, urls: readonly string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  // One parameter for the whole list, however long.
  const result = await db.execute(sql`
    select distinct image.url
    from ${products}, unnest(${products.imageUrls}) as image(url)
    where image.url in (select jsonb_array_elements_text(${JSON.stringify(urls)}::jsonb))`);
  const rows = (result as unknown as { rows: { url: string }[] }).rows;
  return new Set(rows.map((row) => row.url));
}
