export {
  addressKey,
  clearRateLimit,
  hitRateLimit,
  refundRateLimit,
  sweepRateLimits,
} from './limiter.server';
export { checkoutLimit, RATE_LIMITS, waitText } from './policies';
