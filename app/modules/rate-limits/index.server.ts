export {
  addressKey,
  clearRateLimit,
  hitRateLimit,
  refundRateLimit,
  sweepRateLimits,
} from './limiter.server';
export { ANY_ADDRESS, checkoutLimit, RATE_LIMITS, waitText } from './policies';
