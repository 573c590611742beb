import { preferenceCookie } from '~/lib/preference-cookie.server';

import type { Consent } from './consent';

const consentCookie = preferenceCookie('vitrine_consent', ['granted', 'denied']);

export function readConsent(request: Request): Promise<Consent> {
  return consentCookie.read(request);
}

export function consentCookieHeader(consent: NonNullable<Consent>): Promise<string> {
  return consentCookie.serialize(consent);
}
