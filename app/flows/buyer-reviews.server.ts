import type { Db } from '~/db/database.server';
import { findOrderFor, type OrderAccess } from '~/modules/orders/index.server';
import { hitRateLimit, RATE_LIMITS } from '~/modules/rate-limits/index.server';
import type { ReviewStatus } from '~/modules/reviews';
import { addBuyerReview, orderReviews } from '~/modules/reviews/index.server';

/** One product of a delivered order on the buyer's review page. */
export interface ReviewableProduct {
  productId: string;
  name: string;
  imageUrl: string | null;
  /** What the buyer already sent for it, if anything. */
  review: { rating: number; comment: string | null; status: ReviewStatus } | null;
}

export type OrderToReview =
  | { kind: 'missing' }
  | { kind: 'not-delivered'; number: string }
  | { kind: 'open'; orderId: string; number: string; products: ReviewableProduct[] };

/** The buyer's first name, as their review shows it. */
function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? '';
}

/**
 * The order behind a delivered e-mail's review link (its key, or this browser's order token):
 * its products still sold by the store, once each, with what the buyer already wrote. Only a
 * delivered order may be reviewed.
 */
export async function findOrderToReview(
  db: Db,
  orderId: string,
  access: OrderAccess,
): Promise<OrderToReview> {
  const order = await findOrderFor(db, orderId, access);
  if (!order) return { kind: 'missing' };
  if (order.status !== 'delivered') return { kind: 'not-delivered', number: order.number };
  const written = await orderReviews(db, order.id);
  const seen = new Set<string>();
  const products: ReviewableProduct[] = [];
  for (const line of order.lines) {
    // A product deleted since has no page to show a review on.
    if (!line.productId || seen.has(line.productId)) continue;
    seen.add(line.productId);
    products.push({
      productId: line.productId,
      name: line.name,
      imageUrl: line.imageUrl,
      review: written.get(line.productId) ?? null,
    });
  }
  return { kind: 'open', orderId: order.id, number: order.number, products };
}

/**
 * Counts a review sent from this client address (RATE_LIMITS.buyerReview), before anything else
 * is read: each review waits for staff, and a client sending dozens is filling their queue. Null
 * while allowed; past the limit, the seconds to wait.
 */
export async function countBuyerReview(db: Db, clientIp: string): Promise<number | null> {
  const verdict = await hitRateLimit(db, RATE_LIMITS.buyerReview, { address: clientIp });
  return verdict.allowed ? null : verdict.retryAfterSeconds;
}

export type BuyerReviewOutcome = 'saved' | 'already' | 'missing' | 'not-delivered' | 'not-in-order';

/**
 * Saves a buyer's review of one product of their delivered order, as 'Compra verificada' with
 * their first name, waiting for staff's approval. One per product of the order: a second one
 * answers 'already'. Delivered is an order's last state, so the order read here stays
 * reviewable while the review is written.
 */
export function reviewOrderProduct(
  db: Db,
  input: {
    orderId: string;
    access: OrderAccess;
    productId: string;
    rating: number;
    comment: string | null;
  },
): Promise<BuyerReviewOutcome> {
  return db.transaction(async (tx) => {
    const order = await findOrderFor(tx, input.orderId, input.access);
    if (!order) return 'missing';
    if (order.status !== 'delivered') return 'not-delivered';
    if (!order.lines.some((line) => line.productId === input.productId)) return 'not-in-order';
    const saved = await addBuyerReview(tx, {
      orderId: order.id,
      productId: input.productId,
      customerName: firstName(order.customer.name),
      rating: input.rating,
      comment: input.comment,
    });
    return saved ? 'saved' : 'already';
  });
}
