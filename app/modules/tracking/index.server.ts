export { CONSENT_COOKIE, consentCookieHeader, readConsent } from './consent.server';
export { trackingScripts } from './scripts';
export {
  paymentStatusToUtmify,
  sendUtmifyOrder,
  utmifyOrderBody,
  type UtmifyStatus,
} from './utmify.server';
