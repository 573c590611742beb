import { z } from 'zod';

import {
  REVIEW_MESSAGES,
  reviewDeleteSchema,
  reviewFormSchema,
  reviewStatusSchema,
} from './review-form';

/**
 * What the reviews screen posts: add one review, approve or hide one, or delete one. Only the server reads it; the
 * browser checks the add form with reviewFormSchema.
 */
export const reviewActionSchema = z.discriminatedUnion(
  'intent',
  [reviewFormSchema, reviewDeleteSchema, reviewStatusSchema],
  { error: REVIEW_MESSAGES.invalid },
);
