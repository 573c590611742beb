import { count, desc, eq, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { products } from '~/modules/catalog/index.server';

import { REVIEW_MESSAGES } from './review-form';
import { reviews, type ReviewSource, type ReviewStatus } from './schema';

export interface AdminReview {
  id: string;
  /** As stored; blank is shown as 'Cliente'. */
  customerName: string;
  rating: number;
  comment: string | null;
  source: ReviewSource;
  status: ReviewStatus;
  createdAt: Date;
  product: { id: string; name: string };
}

export interface AdminReviewPage {
  reviews: AdminReview[];
  total: number;
  /** Buyers' reviews waiting for staff: none of them shows in the store yet. */
  pending: number;
  /** The page returned: the last one when a later page was asked for. */
  page: number;
  pageCount: number;
}

const isPending = sql`${reviews.status} = 'pending'`;

/**
 * Every review with its product, one page at a time: those waiting for approval first, then
 * newest first.
 */
export async function listAdminReviews(
  db: Db,
  query: { page: number; perPage: number },
): Promise<AdminReviewPage> {
  const [{ total, pending } = { total: 0, pending: 0 }] = await db
    .select({ total: count(), pending: sql<number>`(count(*) filter (where ${isPending}))::int` })
    .from(reviews);
  const pageCount = Math.max(1, Math.ceil(total / query.perPage));
  const page = Math.min(Math.max(1, Math.trunc(query.page) || 1), pageCount);
  const rows =
    total === 0
      ? []
      : await db
          .select({
            id: reviews.id,
            customerName: reviews.customerName,
            rating: reviews.rating,
            comment: reviews.comment,
            source: reviews.source,
            status: reviews.status,
            createdAt: reviews.createdAt,
            product: { id: products.id, name: products.name },
          })
          .from(reviews)
          .innerJoin(products, eq(products.id, reviews.productId))
          .orderBy(desc(isPending), desc(reviews.createdAt), desc(reviews.id))
          .limit(query.perPage)
          .offset((page - 1) * query.perPage);
  return { reviews: rows, total, pending: Number(pending), page, pageCount };
}

export type ReviewChange =
  { ok: true; id: string } | { ok: false; status: 404 | 409; error: string };

/**
 * Adds a review written by staff (a customer's words sent by e-mail or WhatsApp, say). The
 * form's key is the review's id, so the same form sent twice adds one; the insert takes the
 * product from the products table, so a product deleted meanwhile is refused, not an error.
 */
export async function addReview(
  db: Db,
  input: {
    id: string;
    productId: string;
    customerName: string;
    rating: number;
    comment: string | null;
  },
): Promise<ReviewChange> {
  const inserted = await db
    .insert(reviews)
    .select(
      db
        .select({
          id: sql`${input.id}::uuid`.as('id'),
          productId: products.id,
          customerName: sql`${input.customerName}`.as('customer_name'),
          rating: sql`${input.rating}::smallint`.as('rating'),
          comment: sql`${input.comment}::text`.as('comment'),
          source: sql`'staff'`.as('source'),
          status: sql`'visible'`.as('status'),
          orderId: sql`null::uuid`.as('order_id'),
          createdAt: sql`now()`.as('created_at'),
        })
        .from(products)
        .where(eq(products.id, input.productId)),
    )
    .onConflictDoNothing({ target: reviews.id })
    .returning({ id: reviews.id });
  if (inserted.length > 0) return { ok: true, id: input.id };
  const [existing] = await db
    .select({ productId: reviews.productId })
    .from(reviews)
    .where(eq(reviews.id, input.id));
  if (existing) {
    return existing.productId === input.productId
      ? { ok: true, id: input.id }
      : { ok: false, status: 409, error: REVIEW_MESSAGES.formReused };
  }
  return { ok: false, status: 409, error: REVIEW_MESSAGES.productGone };
}

export async function deleteReview(db: Db, id: string): Promise<ReviewChange> {
  const [deleted] = await db
    .delete(reviews)
    .where(eq(reviews.id, id))
    .returning({ id: reviews.id });
  return deleted
    ? { ok: true, id: deleted.id }
    : { ok: false, status: 404, error: REVIEW_MESSAGES.notFound };
}

/**
 * 'Aprovar' or 'Ocultar': a review shows in the store (and counts in its product's rating) only
 * while visible. The reviews table's trigger tells every instance's page cache (drizzle/0009).
 */
export async function setReviewStatus(
  db: Db,
  id: string,
  status: Exclude<ReviewStatus, 'pending'>,
): Promise<ReviewChange> {
  const [updated] = await db
    .update(reviews)
    .set({ status })
    .where(eq(reviews.id, id))
    .returning({ id: reviews.id });
  return updated
    ? { ok: true, id: updated.id }
    : { ok: false, status: 404, error: REVIEW_MESSAGES.notFound };
}
