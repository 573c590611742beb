import { data, redirect } from 'react-router';
import { z } from 'zod';

import { colorSchemeCookieHeader } from '~/modules/settings/index.server';
import { consentCookieHeader } from '~/modules/tracking/index.server';

import type { Route } from './+types/preferences';

// Only a path on this site: an absolute or protocol-relative URL here would be an open redirect.
const localPath = z
  .string()
  .regex(/^\/(?![/\\])[^\s]*$/)
  .max(2000)
  .optional()
  .catch(undefined);

const preferenceSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('consent'),
    consent: z.enum(['granted', 'denied']),
    redirectTo: localPath,
  }),
  z.object({
    intent: z.literal('theme'),
    theme: z.enum(['dark', 'light']),
    redirectTo: localPath,
  }),
]);

/** Remembers the shopper's cookie consent or colour scheme. */
export async function action({ request }: Route.ActionArgs) {
  const parsed = preferenceSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data({ error: 'Preferência inválida.' }, { status: 400 });
  }
  const choice = parsed.data;
  const cookie =
    choice.intent === 'consent'
      ? await consentCookieHeader(choice.consent)
      : await colorSchemeCookieHeader(choice.theme);
  const headers = { 'Set-Cookie': cookie };
  // Plain forms (and the consent forms, which reload) go back where they came from; the theme
  // toggle posts with a fetcher and applies the change itself.
  if (choice.redirectTo) return redirect(choice.redirectTo, { headers });
  return data({ ok: true }, { headers });
}
