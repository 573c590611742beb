import type { Db } from '~/db/database.server';
import { putCategory, putProduct, putProductWithVariants } from '~/modules/catalog/index.server';
import { putCoupon } from '~/modules/coupons/index.admin.server';
import { putReview } from '~/modules/reviews/index.server';
import { ensureSettingsRecord, saveSettings } from '~/modules/settings/index.server';

import {
  SAMPLE_CATEGORIES,
  SAMPLE_COUPONS,
  SAMPLE_PRODUCTS,
  SAMPLE_PRODUCTS_WITH_VARIANTS,
  SAMPLE_REVIEWS,
  SAMPLE_SETTINGS,
} from './sample-store';

/**
 * Puts the sample catalogue (5 categories, 10 products, two of them with variants, 6 reviews, 2 coupons) back in place, in one
 * transaction; the store's own rows are left alone. A database seeded before its first start is
 * a demo, as the first start's sample store is; an existing store keeps its mode.
 */
export async function seedSampleStore(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await ensureSettingsRecord(tx, 'demo');
    await writeSample(tx);
  });
}

/**
 * Runs on every start. The first start of a database creates the settings record and, when
 * `seed` is on, the sample catalogue with it, as a demo store (else a live one); later starts
 * change nothing, so a store that has deleted the samples never sees them come back.
 */
export async function initializeStore(
  db: Db,
  options: { seed: boolean },
): Promise<'seeded' | 'created' | 'existing'> {
  return db.transaction(async (tx) => {
    if (!(await ensureSettingsRecord(tx, options.seed ? 'demo' : 'live'))) return 'existing';
    if (!options.seed) return 'created';
    await writeSample(tx);
    await saveSettings(tx, SAMPLE_SETTINGS);
    return 'seeded';
  });
}

async function writeSample(db: Db): Promise<void> {
  const now = Date.now();
  const at = (index: number) => new Date(now - index * 60_000);
  for (const [index, category] of SAMPLE_CATEGORIES.entries()) {
    await putCategory(db, { ...category, createdAt: at(index) });
  }
  for (const [index, product] of SAMPLE_PRODUCTS.entries()) {
    await putProduct(db, { ...product, createdAt: at(index) });
  }
  for (const [index, { product, variants }] of SAMPLE_PRODUCTS_WITH_VARIANTS.entries()) {
    const createdAt = at(SAMPLE_PRODUCTS.length + index);
    await putProductWithVariants(db, { ...product, createdAt }, variants);
  }
  for (const [index, review] of SAMPLE_REVIEWS.entries()) {
    await putReview(db, { ...review, source: 'sample', status: 'visible', createdAt: at(index) });
  }
  for (const [index, coupon] of SAMPLE_COUPONS.entries()) {
    await putCoupon(db, { ...coupon, createdAt: at(index) });
  }
}
