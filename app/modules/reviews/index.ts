export { formatReviewDate, reviewerName } from './display';
export type { RatingSummary, Review } from './types';
export {
  RATING_CHOICES,
  ratingText,
  REVIEW_MESSAGES,
  reviewDeleteSchema,
  reviewFormSchema,
  type ReviewForm,
} from './review-form';
