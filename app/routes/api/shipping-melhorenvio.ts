import { data } from 'react-router';

import { followNotifiedShipment } from '~/flows/shipping-labels.server';
import { methodNotAllowed } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import { readMelhorEnvioWebhook } from '~/modules/shipping/index.server';

import type { Route } from './+types/shipping-melhorenvio';

const NOT_ACTIVE = 'Notificações do Melhor Envio não estão ativas nesta loja.';
const UNREADABLE = 'Não foi possível consultar o envio no Melhor Envio agora.';

/** Notifications come by POST only. */
export function loader() {
  return methodNotAllowed('POST');
}

/**
 * Melhor Envio's tracking notifications. Nothing is read from one before its signature is
 * checked, and then only the shipment's id: a notification is a hint to read the shipment again
 * from Melhor Envio, and only that read moves the order (to 'Entregue').
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return loader();
  const [secret, labels] = await Promise.all([
    context.melhorEnvioWebhookSecret(),
    context.shippingLabels(),
  ]);
  if (!secret || !labels) {
    return data({ ok: false, message: NOT_ACTIVE }, 404);
  }
  const reading = readMelhorEnvioWebhook(
    await request.text(),
    request.headers.get('x-me-signature'),
    secret,
  );
  if (!reading.ok) return data({ ok: false, message: reading.error }, reading.status);
  const outcome = await followNotifiedShipment(
    { db: context.db, labels, events: context.orderEvents },
    reading.shipmentId,
  );
  if (outcome === 'failed') {
    logger.warn({ shipmentId: reading.shipmentId }, 'Melhor Envio notification: tracking unread');
    // Not the notification's fault: Melhor Envio sends it again later.
    return data({ ok: false, message: UNREADABLE }, 503);
  }
  return { ok: true, outcome };
}
