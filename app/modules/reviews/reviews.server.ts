import { avg, count, desc, eq, inArray, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';

import { reviews } from './schema';
import type { RatingSummary, Review } from './types';

export type ReviewRecord = Omit<typeof reviews.$inferInsert, 'id'> & { id: string };

/** Creates the review, or puts an existing one with the same id back to these values. */
export async function putReview(db: Db, review: ReviewRecord): Promise<void> {
  const { id, ...values } = review;
  await db.insert(reviews).values(review).onConflictDoUpdate({ target: reviews.id, set: values });
}

/** Average and count per product; products without reviews are left out of the map. */
export async function ratingSummaries(
  db: Db,
  productIds: readonly string[],
): Promise<Map<string, RatingSummary>> {
  const summaries = new Map<string, RatingSummary>();
  if (productIds.length === 0) return summaries;
  const rows = await db
    .select({
      productId: reviews.productId,
      average: sql<string>`round(${avg(reviews.rating)}, 1)`,
      count: count(),
    })
    .from(reviews)
    .where(inArray(reviews.productId, [...new Set(productIds)]))
    .groupBy(reviews.productId);
  for (const row of rows) {
    summaries.set(row.productId, { average: Number(row.average), count: row.count });
  }
  return summaries;
}

/** A product's reviews, newest first; an id that is not a UUID has none (instead of an SQL error). */
export async function listProductReviews(db: Db, productId: string): Promise<Review[]> {
  if (!isUuid(productId)) return [];
  return db
    .select({
      id: reviews.id,
      customerName: reviews.customerName,
      rating: reviews.rating,
      comment: reviews.comment,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(eq(reviews.productId, productId))
    .orderBy(desc(reviews.createdAt), desc(reviews.id));
}
