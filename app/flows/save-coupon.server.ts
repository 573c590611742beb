import type { Db } from '~/db/database.server';
import { listProductOptions } from '~/modules/catalog/index.admin.server';
import {
  listCategories,
  listProductsByIds,
  lockExistingCatalogIds,
} from '~/modules/catalog/index.server';
import { COUPON_FORM_MESSAGES, type CouponForm } from '~/modules/coupons/index.admin';
import {
  couponListRow,
  createCoupon,
  listAdminCoupons,
  updateCoupon,
  type CouponChange,
} from '~/modules/coupons/index.admin.server';
import { couponOrderStats } from '~/modules/orders/index.admin.server';

/**
 * A page of the coupon screen: each coupon's row with its orders' figures (the orders domain
 * counts them) and the names of the products it is limited to (the catalogue names them), and
 * what the form offers to choose from.
 */
export async function couponsScreen(
  db: Db,
  options: { page: number; perPage: number; timeZone: string; now: Date },
) {
  const [page, products, categories] = await Promise.all([
    listAdminCoupons(db, { page: options.page, perPage: options.perPage }),
    listProductOptions(db),
    listCategories(db),
  ]);
  const [stats, chosen] = await Promise.all([
    couponOrderStats(
      db,
      page.coupons.map((coupon) => coupon.id),
    ),
    listProductsByIds(
      db,
      page.coupons.flatMap((coupon) => coupon.productIds),
    ),
  ]);
  const productNames = new Map(chosen.map((product) => [product.id, product.name]));
  const { timeZone, now } = options;
  return {
    coupons: page.coupons.map((coupon) =>
      couponListRow(coupon, { stats: stats.get(coupon.id), productNames, timeZone, now }),
    ),
    total: page.total,
    page: page.page,
    pageCount: page.pageCount,
    products,
    categories: categories.map(({ id, name }) => ({ id, name })),
  };
}

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
