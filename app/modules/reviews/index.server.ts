export {
  listProductReviews,
  putReview,
  ratingSummaries,
  type ReviewRecord,
} from './reviews.server';
export {
  addReview,
  deleteReview,
  listAdminReviews,
  type AdminReview,
  type AdminReviewPage,
  type ReviewChange,
} from './admin-reviews.server';
export { reviewActionSchema } from './admin-actions.server';
