export {
  addBuyerReview,
  anonymizeReviewsOfOrders,
  listProductReviews,
  orderReviews,
  putReview,
  ratingSummaries,
  reviewsOfOrders,
  type BuyerReviewInput,
  type ReviewRecord,
} from './reviews.server';
