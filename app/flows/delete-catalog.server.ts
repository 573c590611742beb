import type { Db } from '~/db/database.server';
import { deleteCategory, deleteProduct } from '~/modules/catalog/index.admin.server';
import { forgetCouponTargets } from '~/modules/coupons/index.admin.server';

/** Deletes a product and, in the same transaction, takes it out of the coupons that name it. */
export async function deleteProductEverywhere(db: Db, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await deleteProduct(tx, id);
    if (deleted) await forgetCouponTargets(tx, { productIds: [id.toLowerCase()], categoryIds: [] });
    return deleted;
  });
}

/** Deletes a category (see deleteCategory) and takes it out of the coupons that name it. */
export async function deleteCategoryEverywhere(
  db: Db,
  input: Parameters<typeof deleteCategory>[1],
): ReturnType<typeof deleteCategory> {
  return db.transaction(async (tx) => {
    const result = await deleteCategory(tx, input);
    if (result.ok) await forgetCouponTargets(tx, { productIds: [], categoryIds: [result.id] });
    return result;
  });
}
