export {
  addressKey,
  clearRateLimit,
  hitRateLimit,
  refundRateLimit,
  sweepRateLimits,
} from './limiter.server';
export {
  ANY_ADDRESS,
  checkoutContactLimit,
  checkoutLimit,
  OWNER_PROOF,
  RATE_LIMITS,
  waitText,
} from './policies';
