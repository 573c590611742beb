import type { Db } from '~/db/database.server';
import { lockExistingCatalogIds } from '~/modules/catalog/index.server';
import { COUPON_FORM_MESSAGES, type CouponForm } from '~/modules/coupons/index.admin';
import {
  createCoupon,
  updateCoupon,
  type CouponChange,
} from '~/modules/coupons/index.admin.server';

/**
 * The coupon form, saved only when every product and category it names exists (a product's id
 * offered as a category's is none), in one transaction that keeps them from being deleted
 * before the coupon is written.
 */
export async function saveCoupon(
  db: Db,
  form: CouponForm,
  options: { timeZone: string },
): Promise<CouponChange> {
  return db.transaction(async (tx): Promise<CouponChange> => {
    const found = await lockExistingCatalogIds(tx, form);
    for (const [field, ids, existing] of [
      ['productIds', form.productIds, found.productIds],
      ['categoryIds', form.categoryIds, found.categoryIds],
    ] as const) {
      if (ids.some((id) => !existing.has(id))) {
        return { ok: false, status: 409, error: COUPON_FORM_MESSAGES.choiceGone, field };
      }
    }
    return form.intent === 'create'
      ? createCoupon(tx, form, options)
      : updateCoupon(tx, form, options);
  });
}
