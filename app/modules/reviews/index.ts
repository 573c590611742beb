export { BUYER_REVIEW_MESSAGES, REVIEW_ORDER_PATH } from './buyer-review';
export {
  formatReviewDate,
  RATING_CHOICES,
  ratingText,
  REVIEW_SOURCE_BADGES,
  REVIEW_STATUS_LABELS,
  reviewerName,
} from './display';
export type { ReviewSource, ReviewStatus } from './schema';
export type { RatingSummary, Review } from './types';
export { buyerReviewSchema, REVIEW_MESSAGES, reviewFormSchema } from './review-form';
