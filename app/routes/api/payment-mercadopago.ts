import { data } from 'react-router';

import { applyPaymentReport } from '~/flows/order-changes.server';
import { methodNotAllowed } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { isUuid } from '~/lib/uuid';

import type { Route } from './+types/payment-mercadopago';

const NOT_ACTIVE = 'Notificações do Mercado Pago não estão ativas nesta loja.';

/** Notifications come by POST only. */
export function loader() {
  return methodNotAllowed('POST');
}

/**
 * Mercado Pago's notifications. Nothing is read from one before its signature is checked, and
 * then only the payment's id: the payment is read again from Mercado Pago and applied once, so a
 * replay or a thousand copies change nothing twice.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return loader();
  const payments = await context.payments();
  if (payments?.name !== 'mercadopago' || !payments.readNotification) {
    return data({ ok: false, message: NOT_ACTIVE }, 404);
  }
  const reading = payments.readNotification({
    url: new URL(request.url),
    headers: request.headers,
    body: await request.text(),
  });
  if (!reading.ok) return data({ ok: false, message: reading.error }, reading.status);
  if (reading.paymentId === null) return { ok: true, outcome: 'ignored' };

  const answer = await payments.status(reading.paymentId);
  if (!answer.ok) {
    logger.warn(
      { paymentId: reading.paymentId, error: answer.error },
      'Mercado Pago notification: could not read the payment',
    );
    // Not the notification's fault: Mercado Pago sends it again later.
    return data({ ok: false, message: answer.error }, 503);
  }
  const report = answer.value;
  // A payment of this account that is not one of this store's orders (another shop's, a test).
  if (!report.orderId || !isUuid(report.orderId)) return { ok: true, outcome: 'unchanged' };
  const outcome = await applyPaymentReport(
    context.db,
    { orderId: report.orderId, provider: payments.name, report },
    context.orderEvents,
  );
  return { ok: true, outcome };
}
