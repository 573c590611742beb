import { data, redirect } from 'react-router';
import { z } from 'zod';

import { sitePath } from '~/lib/form';
import { parseForm } from '~/lib/form.server';
import { colorSchemeCookieHeader } from '~/modules/settings/index.server';
import { consentCookieHeader } from '~/modules/tracking/index.server';

import type { Route } from './+types/preferences';

const INVALID = 'Preferência inválida.';

// A target that is not a path on this site is dropped: the choice is still saved.
const redirectTo = z.catch(z.optional(sitePath), undefined);

const preferenceSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('consent'),
      consent: z.enum(['granted', 'denied'], { error: INVALID }),
      redirectTo,
    }),
    z.object({
      intent: z.literal('theme'),
      theme: z.enum(['dark', 'light'], { error: INVALID }),
      redirectTo,
    }),
  ],
  { error: INVALID },
);

/** Remembers the shopper's cookie consent or colour scheme. */
export async function action({ request }: Route.ActionArgs) {
  const parsed = await parseForm(request, preferenceSchema);
  if (!parsed.ok) return data({ error: parsed.error }, { status: 400 });
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
