import { data } from 'react-router';

import { noteErpNotification } from '~/flows/erp-orders.server';
import { methodNotAllowed } from '~/lib/form.server';

import type { Route } from './+types/invoices-bling';

const NOT_ACTIVE = 'Notificações do Bling não estão ativas nesta loja.';
const UNSIGNED = 'Assinatura da notificação inválida.';
/** A notification is a few hundred bytes; a larger body is not Bling's. */
const MAX_BODY_BYTES = 64_000;

/** Notifications come by POST only. */
export function loader() {
  return methodNotAllowed('POST');
}

/**
 * Bling's notifications of its NF-e. Checked by their signature (HMAC-SHA256 of the body with the
 * application's client secret), they are only hints: the note is read again from Bling.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return loader();
  const body = await request.text();
  if (body.length > MAX_BODY_BYTES) return data({ ok: false, message: UNSIGNED }, 413);
  const outcome = await noteErpNotification(
    { db: context.db, erp: context.erp },
    body,
    request.headers.get('x-bling-signature-256'),
  );
  if (outcome === 'off') return data({ ok: false, message: NOT_ACTIVE }, 404);
  if (outcome === 'unsigned') return data({ ok: false, message: UNSIGNED }, 401);
  return { ok: true, outcome };
}
