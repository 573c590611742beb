import type { Db } from '~/db/database.server';
import { deleteCatalogRows, imageUrlsInUse } from '~/modules/catalog/index.admin.server';
import { deleteCouponRows, forgetCouponTargets } from '~/modules/coupons/index.admin.server';
import { dropOrderJobs } from '~/modules/jobs/index.server';
import { parseMediaPath } from '~/modules/media';
import { deleteMedia } from '~/modules/media/index.server';
import { deleteAllOrders } from '~/modules/orders/index.admin.server';
import { deleteSandboxPayments } from '~/modules/payments/index.server';
import { deleteAllAbandonedCheckouts } from '~/modules/recovery/index.admin.server';
import { clearSettingsStill, makeStoreLive, readSettings } from '~/modules/settings/index.server';

import {
  SAMPLE_CATEGORIES,
  SAMPLE_COUPONS,
  SAMPLE_CATALOGUE,
  SAMPLE_SETTINGS,
} from './sample-store';

export type GoLiveResult =
  | { ok: true; deleted: { orders: number; products: number; images: number } }
  | { ok: false; reason: 'already-live' };

/**
 * 'Começar loja real': a demo store becomes live, for good, in one transaction (ADR 018). Gone
 * are the sample catalogue (its products with their reviews and restock requests, its
 * categories, but for those holding a product of the store's own), the sample coupons, every order (a demo's orders are all test orders) with the outbox rows about
 * them, so no e-mail or sales report goes out for one, every abandoned checkout (a recovery
 * e-mail still queued then finds none and sends nothing), the sandbox's payments, the uploads only
 * the deleted products showed, and the sample identity, contacts and slogan where the store
 * has not written its own. Admins, the store's own products and its other settings stay. Every instance
 * hears the change of mode through the settings' notification and stops the sandbox.
 */
export async function goLive(db: Db): Promise<GoLiveResult> {
  return db.transaction(async (tx) => {
    // Locks the settings record first: of two admins confirming at once, one does the work.
    if (!(await makeStoreLive(tx))) return { ok: false, reason: 'already-live' } as const;
    const orderIds = await deleteAllOrders(tx);
    await dropOrderJobs(tx, orderIds);
    await deleteAllAbandonedCheckouts(tx);
    await deleteSandboxPayments(tx);
    // The orders that used them went first: the sample coupons go whatever their uses.
    await deleteCouponRows(
      tx,
      SAMPLE_COUPONS.map((coupon) => coupon.id),
    );
    const sample = {
      productIds: SAMPLE_CATALOGUE.map((product) => product.id),
      categoryIds: SAMPLE_CATEGORIES.map((category) => category.id),
    };
    const catalog = await deleteCatalogRows(tx, sample);
    // The store's own coupons may name a sample product or category too; a sample category
    // kept for the store's own products keeps its coupons.
    await forgetCouponTargets(tx, {
      productIds: sample.productIds,
      categoryIds: catalog.categoryIds,
    });
    await clearSettingsStill(tx, SAMPLE_SETTINGS);
    const unused = await unusedUploads(tx, catalog.imageUrls);
    await deleteMedia(tx, unused);
    return {
      ok: true,
      deleted: { orders: orderIds.length, products: catalog.products, images: unused.length },
    } as const;
  });
}

/** The uploads among these image URLs that no product and no setting shows any more. */
async function unusedUploads(tx: Db, urls: readonly string[]): Promise<string[]> {
  const uploads = urls.filter((url) => parseMediaPath(url) !== null);
  const products = await imageUrlsInUse(tx, uploads);
  const settings = await readSettings(tx);
  const shown = new Set(
    [...products, ...Object.values(settings)]
      .map((value) => (typeof value === 'string' ? parseMediaPath(value)?.id : undefined))
      .filter((id) => id !== undefined),
  );
  const ids = uploads.map((url) => parseMediaPath(url)!.id);
  return [...new Set(ids)].filter((id) => !shown.has(id));
}
