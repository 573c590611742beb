import { data } from 'react-router';

import { settlePixCharges } from '~/flows/pix-api-payments.server';
import { methodNotAllowed } from '~/lib/form.server';
import { isPixApiProvider, readPixApiNotice } from '~/modules/payments/index.server';

import type { Route } from './+types/payment-pix-api';

const NOTICE_MESSAGES = {
  notActive: 'Notificações da API Pix não estão ativas nesta loja.',
  invalid: 'Notificação PIX inválida: envie {"pix":[…]}.',
} as const;

/** Callbacks come by POST only. */
export function loader() {
  return methodNotAllowed('POST');
}

/**
 * The bank's webhook (`{webhookUrl}/pix` in the API Pix): `{"pix":[…]}`, or Inter's bare array.
 * Only the txids are read, and each charge is read again from the bank before anything changes,
 * so a forged or replayed callback confirms nothing. nginx asks the bank's certificate here.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return loader();
  // The body is judged first: whatever the provider, junk is the caller's fault.
  const notice = readPixApiNotice(await request.text());
  if (!notice.ok) return data({ ok: false, message: NOTICE_MESSAGES.invalid }, 400);
  const provider = await context.payments();
  if (!isPixApiProvider(provider)) {
    return data({ ok: false, message: NOTICE_MESSAGES.notActive }, 404);
  }
  const settled = await settlePixCharges(context.db, provider, notice.txids, context.orderEvents);
  // Not the callback's fault: the bank calls again, and the reconciliation follows anyway.
  if (settled.failed > 0) return data({ ok: false, message: 'Tente novamente.' }, 503);
  return { ok: true, settled: settled.outcomes.length };
}
