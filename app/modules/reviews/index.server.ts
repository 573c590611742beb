export {
  addBuyerReview,
  listProductReviews,
  orderReviews,
  putReview,
  ratingSummaries,
  type BuyerReviewInput,
  type ReviewRecord,
} from './reviews.server';
