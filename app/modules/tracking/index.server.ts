export { consentCookieHeader, readConsent } from './consent.server';
export { parseCustomScripts, trackingScripts } from './scripts';
