import type { Db } from '~/db/database.server';
import { isUniqueViolation } from '~/db/errors.server';
import {
  createProduct,
  updateProduct,
  type ProductValues,
  type SaveProductResult,
} from '~/modules/catalog/index.admin.server';
import { alertRestocked } from '~/modules/catalog/index.server';
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_UPLOAD } from '~/modules/media';
import { prepareImages, storeImages } from '~/modules/media/index.server';

/** The files the product form may send with a save: what saveProduct converts at most. */
export const PRODUCT_UPLOADS = {
  maxFileBytes: MAX_IMAGE_BYTES,
  maxFiles: MAX_IMAGES_PER_UPLOAD,
} as const;

export type SaveProductFlowResult =
  | { ok: true; created: boolean; imageUrls: string[] }
  | { ok: false; reason: 'category-gone' | 'not-found' | 'form-reused' }
  | { ok: false; reason: 'sku-taken'; rows: number[] }
  | { ok: false; reason: 'bad-image'; error: string };

/**
 * Saves a product from the admin form together with the images uploaded with it, in one
 * transaction: the uploads are converted first (no transaction held meanwhile), then the
 * product and its new images are written or, if the save is refused, neither is (nor are the
 * restock e-mails a product back in stock owes its waiting shoppers). New uploads
 * follow the image URLs already listed (so they lead when there are none).
 */
export async function saveProduct(
  db: Db,
  input: { mode: 'create' | 'update'; id: string; values: ProductValues; uploads: File[] },
): Promise<SaveProductFlowResult> {
  const prepared = await prepareImages(db, input.uploads);
  if (!prepared.ok) return { ok: false, reason: 'bad-image', error: prepared.error };
  // The same file sent twice (or a resent form) yields the same URL, kept once.
  const imageUrls = [
    ...new Set([...input.values.imageUrls, ...prepared.images.map((image) => image.url)]),
  ];
  const values = { ...input.values, imageUrls };
  try {
    return await write(db, input, values, prepared.images);
  } catch (error) {
    // Another save took one of these SKUs between the check and the write: the unique index
    // refused it, and nothing was written.
    if (isUniqueViolation(error, 'product_variants_sku_idx')) {
      return { ok: false, reason: 'sku-taken', rows: [] };
    }
    throw error;
  }
}

function write(
  db: Db,
  input: { mode: 'create' | 'update'; id: string },
  values: ProductValues,
  images: Parameters<typeof storeImages>[1],
): Promise<SaveProductFlowResult> {
  return db.transaction(async (tx): Promise<SaveProductFlowResult> => {
    const saved: SaveProductResult =
      input.mode === 'create'
        ? await createProduct(tx, input.id, values)
        : await updateProduct(tx, input.id, values);
    if (!saved.ok) return saved;
    await storeImages(tx, images);
    // Back in stock: whoever asked 'Avise-me quando chegar' hears it, if this save commits.
    if (input.mode === 'update') await alertRestocked(tx, [input.id]);
    return { ok: true, created: saved.created, imageUrls: values.imageUrls };
  });
}
