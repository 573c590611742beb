// The admin's server door: the review list and staff's own reviews (ADR 021).
export { addReview, deleteReview, listAdminReviews, setReviewStatus } from './admin-reviews.server';
export { reviewActionSchema } from './admin-actions.server';
