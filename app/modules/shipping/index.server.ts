export { createMelhorEnvio, type MelhorEnvioOptions } from './melhorenvio.server';
export {
  checkMelhorEnvioAccount,
  MELHOR_ENVIO_ACCOUNT_MESSAGES,
  type MelhorEnvioAccountCheck,
} from './melhorenvio-account.server';
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
  createCarrierLabels,
  createCarrierQuoter,
  storeUserAgent,
  type CarrierAccess,
} from './provider.server';
export {
  createShippingQuoter,
  QUOTE_DEADLINE_MS,
  QUOTE_TTL_MS,
  sweepShippingQuotes,
  type ShippingQuoter,
} from './quotes.server';
