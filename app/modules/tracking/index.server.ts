export { consentCookieHeader, readConsent } from './consent.server';
