import { z } from 'zod';

import { REVIEW_MESSAGES, reviewDeleteSchema, reviewFormSchema } from './review-form';

/**
 * What the reviews screen posts: add one review, or delete one. Only the server reads it; the
 * browser checks the add form with reviewFormSchema.
 */
export const reviewActionSchema = z.discriminatedUnion(
  'intent',
  [reviewFormSchema, reviewDeleteSchema],
  { error: REVIEW_MESSAGES.invalid },
);
