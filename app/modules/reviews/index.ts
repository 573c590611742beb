export { reviewerName } from './display';
export type { RatingSummary, Review } from './types';
