export { createMelhorEnvio, type MelhorEnvioOptions } from './melhorenvio.server';
export { createShippingQuoterFromEnv, storeUserAgent } from './provider.server';
export {
  createShippingQuoter,
  QUOTE_DEADLINE_MS,
  QUOTE_TTL_MS,
  sweepShippingQuotes,
  type ShippingQuoter,
} from './quotes.server';
