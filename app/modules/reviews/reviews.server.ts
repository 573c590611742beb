import type { Db } from '~/db/database.server';

import { reviews } from './schema';

export type ReviewRecord = Omit<typeof reviews.$inferInsert, 'id'> & { id: string };

/** Creates the review, or puts an existing one with the same id back to these values. */
export async function putReview(db: Db, review: ReviewRecord): Promise<void> {
  const { id, ...values } = review;
  await db.insert(reviews).values(review).onConflictDoUpdate({ target: reviews.id, set: values });
}
