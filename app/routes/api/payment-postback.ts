import { data } from 'react-router';
import { z } from 'zod';

import { applyPaymentReport } from '~/flows/order-changes.server';
import { logger } from '~/lib/logger.server';
import { findOrderIdByPaymentId } from '~/modules/orders/index.server';

import type { Route } from './+types/payment-postback';

// Gateways name the transaction differently; only its id is read, never its status.
const postbackSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).optional(),
  transactionId: z.union([z.string(), z.number()]).optional(),
});

const INVALID = 'Notificação de pagamento inválida.';

export function loader() {
  return data(
    { ok: false, message: 'Envie a notificação com POST.' },
    { status: 405, headers: { Allow: 'POST' } },
  );
}

/**
 * The gateway's postback. Its body is not trusted: it only says which payment to look at, and
 * the provider is asked how that payment stands before anything changes. A replay changes nothing.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return loader();
  let body: unknown;
  try {
    body = request.headers.get('Content-Type')?.includes('application/json')
      ? await request.json()
      : Object.fromEntries(await request.formData());
  } catch {
    return data({ ok: false, message: INVALID }, 400);
  }
  const parsed = postbackSchema.safeParse(body);
  const given = parsed.success ? (parsed.data.id ?? parsed.data.transactionId) : undefined;
  const paymentId = given === undefined ? '' : String(given).trim();
  if (!paymentId || paymentId.length > 200 || /[\p{Cc}]/u.test(paymentId)) {
    return data({ ok: false, message: INVALID }, 400);
  }
  const orderId = await findOrderIdByPaymentId(context.db, paymentId);
  const payments = await context.payments();
  if (!orderId || !payments) {
    return data({ ok: false, message: 'Pagamento não encontrado.' }, 404);
  }
  const answer = await payments.status(paymentId);
  if (!answer.ok) {
    logger.warn({ paymentId, error: answer.error }, 'Postback: could not re-read the payment');
    // Not our input's fault; the gateway should try again later.
    return data({ ok: false, message: answer.error }, 409);
  }
  const outcome = await applyPaymentReport(
    context.db,
    { orderId, provider: payments.name, report: answer.value },
    context.orderEvents,
  );
  return { ok: true, outcome };
}
