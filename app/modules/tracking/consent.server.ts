import { createCookie } from 'react-router';

import type { Consent } from './consent';

// LGPD asks that consent can be revisited; a year is long enough not to nag, short enough to ask again.
const consentCookie = createCookie('vitrine_consent', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export async function readConsent(request: Request): Promise<Consent> {
  const value: unknown = await consentCookie.parse(request.headers.get('Cookie'));
  return value === 'granted' || value === 'denied' ? value : null;
}

export function consentCookieHeader(consent: 'granted' | 'denied'): Promise<string> {
  return consentCookie.serialize(consent);
}
