import { data } from 'react-router';

import { saveCheckoutContact } from '~/flows/abandoned-checkouts.server';
import { refuseOtherMethods } from '~/lib/form.server';
import { refuseForm } from '~/lib/toast.server';
import { checkoutContactLimit, hitRateLimit } from '~/modules/rate-limits/index.server';

import type { Route } from './+types/checkout-contact';

const BUSY = 'Muitas tentativas em pouco tempo. Aguarde um minuto.';

export function loader() {
  return refuseForm('Envie o contato pelo formulário do checkout.', {}, 405, { Allow: 'POST' });
}

/**
 * The checkout's small request when the e-mail field holds a valid address: the contact kept
 * with the cart for the abandoned-checkout e-mail (saveCheckoutContact). The page sends it from
 * a script and reads only the status; an invalid e-mail is a 400 and saves nothing.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const wrongMethod = refuseOtherMethods(request);
  if (wrongMethod) return wrongMethod;
  const limited = await hitRateLimit(context.db, checkoutContactLimit(context.checkoutRateLimit), {
    address: context.clientIp,
  });
  if (!limited.allowed) {
    return refuseForm(BUSY, {}, 429, { 'Retry-After': String(limited.retryAfterSeconds) });
  }
  const saved = await saveCheckoutContact(context, request, new Date());
  if (!saved.ok) return refuseForm(saved.error, { fieldErrors: saved.fieldErrors });
  return data({ ok: true as const }, { headers: saved.headers });
}
