export { checkoutLimit, RATE_LIMITS, waitText, type RateLimitPolicy } from './policies';
