export { putReview, type ReviewRecord } from './reviews.server';
