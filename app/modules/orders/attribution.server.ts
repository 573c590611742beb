import { createCookie } from 'react-router';
import { z } from 'zod';

import type { TrackingParameters } from './schema';

/** The landing parameters a purchase is attributed to (remembered in a cookie on arrival). */
export const ATTRIBUTION_PARAMS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'src',
  'sck',
] as const;

// Where the shopper landed from, kept until the purchase (last click wins, as ad tools count).
const attributionCookie = createCookie('vitrine_utm', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  maxAge: 60 * 60 * 24 * 30,
});

const value = z
  .string()
  .max(200)
  .regex(/^[^\p{Cc}]*$/u);
const parametersSchema = z.partialRecord(z.enum(ATTRIBUTION_PARAMS), value);

/** The utm_*, src and sck parameters of a landing URL; empty when it has none. */
function landingParameters(url: URL): TrackingParameters {
  const found: TrackingParameters = {};
  for (const key of ATTRIBUTION_PARAMS) {
    const given = url.searchParams.get(key)?.trim();
    if (given && value.safeParse(given).success) found[key] = given;
  }
  return found;
}

/** A Set-Cookie header remembering a landing's parameters, or null when the URL has none. */
export async function attributionCookieHeader(url: URL): Promise<string | null> {
  const found = landingParameters(url);
  return Object.keys(found).length > 0 ? attributionCookie.serialize(found) : null;
}

/** The parameters remembered for this browser; a tampered cookie counts as none. */
export async function readAttribution(request: Request): Promise<TrackingParameters> {
  const parsed = parametersSchema.safeParse(
    await attributionCookie.parse(request.headers.get('Cookie')),
  );
  return parsed.success ? parsed.data : {};
}

/** "utm_source=x&utm_medium=y" for the payment provider. */
export function attributionQuery(parameters: TrackingParameters): string {
  return new URLSearchParams(
    Object.entries(parameters).filter((entry): entry is [string, string] => !!entry[1]),
  ).toString();
}
