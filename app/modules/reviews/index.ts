export {
  formatReviewDate,
  REVIEW_SOURCE_BADGES,
  REVIEW_STATUS_LABELS,
  reviewerName,
} from './display';
export type { ReviewSource, ReviewStatus } from './schema';
export type { RatingSummary, Review } from './types';
export {
  BUYER_REVIEW_MESSAGES,
  buyerReviewSchema,
  RATING_CHOICES,
  ratingText,
  REVIEW_MESSAGES,
  REVIEW_ORDER_PATH,
  reviewFormSchema,
} from './review-form';
