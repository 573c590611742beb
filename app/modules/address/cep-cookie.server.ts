import { stateFromCep } from './cep-states';

/** The CEP a shopper last asked a shipping estimate for, to pre-fill the next ones and checkout. */
export const SAVED_CEP_COOKIE = 'vitrine_cep';
const MAX_AGE_SECONDS = 60 * 60 * 24 * 90;

/**
 * The saved CEP's 8 digits, or null. The cookie holds nothing but the digits (no encoding), and
 * anything else in it (a forged or stale value, a CEP of no state) reads as no CEP at all.
 */
export function readSavedCep(request: Pick<Request, 'headers'>): string | null {
  const header = request.headers.get('Cookie') ?? '';
  for (const part of header.split(';')) {
    const pair = part.trim();
    const equals = pair.indexOf('=');
    if (pair.slice(0, equals) !== SAVED_CEP_COOKIE) continue;
    const value = pair.slice(equals + 1);
    return stateFromCep(value) ? value : null;
  }
  return null;
}

/**
 * The Set-Cookie header that remembers a CEP. Not httpOnly: it is no secret and says nothing a
 * script could abuse; SameSite=Lax keeps it off other sites' requests.
 */
export function savedCepCookieHeader(digits: string): string {
  if (!stateFromCep(digits)) throw new Error('Only a CEP of a known state is saved');
  return `${SAVED_CEP_COOKIE}=${digits}; Path=/; Max-Age=${MAX_AGE_SECONDS}; SameSite=Lax`;
}
