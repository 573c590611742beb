export { formatReviewDate, reviewerName } from './display';
export type { RatingSummary, Review } from './types';
export { RATING_CHOICES, ratingText, REVIEW_MESSAGES, reviewFormSchema } from './review-form';
