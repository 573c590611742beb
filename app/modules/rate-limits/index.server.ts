export {
  addressKey,
  clearRateLimit,
  hitRateLimit,
  refundRateLimit,
  sweepRateLimits,
  type RateLimitSubject,
  type RateLimitVerdict,
} from './limiter.server';
export { checkoutLimit, RATE_LIMITS, waitText, type RateLimitPolicy } from './policies';
