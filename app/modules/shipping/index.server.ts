export { createMelhorEnvio, type MelhorEnvioOptions } from './melhorenvio.server';
export {
  createMelhorEnvioLabels,
  LABEL_REFUSALS,
  type LabelParty,
  type LabelShipment,
  type MelhorEnvioLabels,
  type ShipmentTracking,
} from './melhorenvio-labels.server';
export { readMelhorEnvioWebhook, WEBHOOK_MESSAGES } from './melhorenvio-webhook.server';
export {
  createShippingLabelsFromEnv,
  createShippingQuoterFromEnv,
  storeUserAgent,
} from './provider.server';
export {
  createShippingQuoter,
  QUOTE_DEADLINE_MS,
  QUOTE_TTL_MS,
  sweepShippingQuotes,
  type ShippingQuoter,
} from './quotes.server';
