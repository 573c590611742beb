import { preferenceCookie } from '~/lib/preference-cookie.server';

import type { Consent } from './consent';

const consentCookie = preferenceCookie('vitrine_consent', ['granted', 'denied']);
export const CONSENT_COOKIE = consentCookie.name;

export function readConsent(request: Pick<Request, 'headers'>): Promise<Consent> {
  return consentCookie.read(request);
}

export function consentCookieHeader(consent: NonNullable<Consent>): Promise<string> {
  return consentCookie.serialize(consent);
}
