export { CONSENT_COOKIE, consentCookieHeader, readConsent } from './consent.server';
export { parseCustomScripts, trackingScripts } from './scripts';
export {
  paymentStatusToUtmify,
  sendUtmifyOrder,
  utmifyOrderBody,
  type SendUtmifyOrderOptions,
  type UtmifyOrderBody,
  type UtmifyOrderInput,
  type UtmifyStatus,
} from './utmify.server';
