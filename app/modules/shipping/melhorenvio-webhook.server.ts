import { createHmac, timingSafeEqual } from 'node:crypto';

import { z } from 'zod';

export const WEBHOOK_MESSAGES = {
  forged: 'Assinatura inválida.',
  invalid: 'Notificação do Melhor Envio inválida.',
} as const;

export type WebhookReading =
  { ok: true; shipmentId: string; event: string } | { ok: false; status: 400 | 401; error: string };

const bodySchema = z.looseObject({
  event: z.string().max(100),
  data: z.looseObject({ id: z.string().regex(/^[0-9A-Za-z-]{1,64}$/) }),
});

/**
 * Checks a Melhor Envio notification: `X-ME-Signature` is the base64 HMAC-SHA256 of the raw body
 * keyed with the application's secret, compared in constant time before anything in the body is
 * read. Of the body only the shipment's id is kept: its status is read again from Melhor Envio.
 */
export function readMelhorEnvioWebhook(
  rawBody: string,
  signature: string | null,
  secret: string,
): WebhookReading {
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(signature ?? '', 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, status: 401, error: WEBHOOK_MESSAGES.forged };
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { ok: false, status: 400, error: WEBHOOK_MESSAGES.invalid };
  }
  const parsed = bodySchema.safeParse(json);
  if (!parsed.success) return { ok: false, status: 400, error: WEBHOOK_MESSAGES.invalid };
  return { ok: true, shipmentId: parsed.data.data.id, event: parsed.data.event };
}
