import type { Db } from '~/db/database.server';

import { reviews } from './schema';

export interface ReviewRecord {
  id: string;
  productId: string;
  customerName: string;
  rating: 1 | 2 | 3 | 4 | 5;
  comment: string | null;
  createdAt?: Date;
}

/** Creates the review, or puts an existing one with the same id back to these values. */
export async function putReview(db: Db, review: ReviewRecord): Promise<void> {
  const { id, ...values } = review;
  await db.insert(reviews).values(review).onConflictDoUpdate({ target: reviews.id, set: values });
}
