import { and, avg, count, desc, eq, inArray, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';

import { reviews, type ReviewStatus } from './schema';
import type { RatingSummary, Review } from './types';

export type ReviewRecord = Omit<typeof reviews.$inferInsert, 'id'> & { id: string };

/** Creates the review, or puts an existing one with the same id back to these values. */
export async function putReview(db: Db, review: ReviewRecord): Promise<void> {
  const { id, ...values } = review;
  await db.insert(reviews).values(review).onConflictDoUpdate({ target: reviews.id, set: values });
}

/**
 * Average and count of the visible reviews per product; products without any are left out of
 * the map (a review waiting for approval or hidden by staff counts for nothing).
 */
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
    .where(and(inArray(reviews.productId, [...new Set(productIds)]), eq(reviews.status, 'visible')))
    .groupBy(reviews.productId);
  for (const row of rows) {
    summaries.set(row.productId, { average: Number(row.average), count: row.count });
  }
  return summaries;
}

/**
 * A product's visible reviews, newest first; an id that is not a UUID has none (instead of an
 * SQL error).
 */
export async function listProductReviews(db: Db, productId: string): Promise<Review[]> {
  if (!isUuid(productId)) return [];
  return db
    .select({
      id: reviews.id,
      customerName: reviews.customerName,
      rating: reviews.rating,
      comment: reviews.comment,
      source: reviews.source,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(and(eq(reviews.productId, productId), eq(reviews.status, 'visible')))
    .orderBy(desc(reviews.createdAt), desc(reviews.id));
}

export interface BuyerReviewInput {
  orderId: string;
  productId: string;
  /** The buyer's first name, as the review shows it. */
  customerName: string;
  rating: number;
  comment: string | null;
}

/**
 * A buyer's review of one product of their delivered order, waiting for staff's approval. The
 * order and product pair is unique, so a second one (two tabs, a double click) adds nothing:
 * false then.
 */
export async function addBuyerReview(db: Db, input: BuyerReviewInput): Promise<boolean> {
  const inserted = await db
    .insert(reviews)
    .values({ ...input, source: 'buyer', status: 'pending' })
    .onConflictDoNothing({ target: [reviews.orderId, reviews.productId] })
    .returning({ id: reviews.id });
  return inserted.length > 0;
}

/** The reviews an order's buyer already wrote, by product id. */
export async function orderReviews(
  db: Db,
  orderId: string,
): Promise<Map<string, { rating: number; comment: string | null; status: ReviewStatus }>> {
  const rows = await db
    .select({
      productId: reviews.productId,
      rating: reviews.rating,
      comment: reviews.comment,
      status: reviews.status,
    })
    .from(reviews)
    .where(eq(reviews.orderId, orderId));
  return new Map(rows.map(({ productId, ...review }) => [productId, review]));
}

/** The reviews written from these orders, for a shopper's data export. */
export async function reviewsOfOrders(db: Db, orderIds: readonly string[]) {
  if (orderIds.length === 0) return [];
  return db
    .select({
      orderId: reviews.orderId,
      productId: reviews.productId,
      name: reviews.customerName,
      rating: reviews.rating,
      comment: reviews.comment,
      status: reviews.status,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(inArray(reviews.orderId, [...orderIds]))
    .orderBy(desc(reviews.createdAt));
}

/**
 * A deleted account's reviews stay on their products, signed 'Cliente' (a blank name): the
 * rating belongs to the store's record of the product, the name to the shopper.
 */
export async function anonymizeReviewsOfOrders(db: Db, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length === 0) return;
  await db
    .update(reviews)
    .set({ customerName: '' })
    .where(inArray(reviews.orderId, [...orderIds]));
}
