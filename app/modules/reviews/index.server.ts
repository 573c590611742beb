export {
  listProductReviews,
  putReview,
  ratingSummaries,
  type ReviewRecord,
} from './reviews.server';
