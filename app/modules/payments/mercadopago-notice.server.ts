import { createHmac, timingSafeEqual } from 'node:crypto';

import { z } from 'zod';

import type { NoticeReading, PaymentNotice } from './types';

/**
 * How far a notification's timestamp may be from our clock. Mercado Pago sends at once and
 * retries every 15 minutes with a new timestamp each time, so a signed notification older than
 * this is a replay, not a late delivery.
 */
export const NOTICE_TOLERANCE_SECONDS = 10 * 60;

const NOTICE_MESSAGES = {
  unsigned: 'Notificação sem assinatura.',
  forged: 'Assinatura da notificação inválida.',
  stale: 'Notificação fora do prazo.',
  invalid: 'Notificação de pagamento inválida.',
};

const PAYMENT_ID = /^\d{1,20}$/;

// Only data.id is read from the body, to be compared with the signed one in the query.
const bodySchema = z.looseObject({
  type: z.string().optional(),
  data: z.looseObject({ id: z.union([z.string(), z.number()]).optional() }).optional(),
});

/** `ts=…,v1=…` as Mercado Pago writes it: pairs split at the first '=', spaces trimmed. */
function signatureParts(header: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const pair of header.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) parts.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return parts;
}

/**
 * The text Mercado Pago signs: `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`, leaving out a
 * pair whose value did not come (its documentation says so, and its SDKs do so).
 */
export function noticeManifest(dataId: string, requestId: string, ts: string): string {
  return (
    (dataId ? `id:${dataId};` : '') + (requestId ? `request-id:${requestId};` : '') + `ts:${ts};`
  );
}

/** Timestamps are seconds in Mercado Pago's examples and SDKs; some deliveries write ms. */
function timestampSeconds(ts: string): number | null {
  if (!/^\d{1,16}$/.test(ts)) return null;
  const value = Number(ts);
  return value > 1e12 ? value / 1000 : value;
}

/**
 * Checks a Mercado Pago notification: the `x-signature` HMAC-SHA256 with the webhook secret over
 * the manifest, compared in constant time, and a timestamp within the tolerance. Only then is
 * anything in it read, and of it only the payment's id.
 */
export function readMercadoPagoNotice(
  notice: PaymentNotice,
  secret: string,
  now: Date = new Date(),
): NoticeReading {
  const header = notice.headers.get('x-signature');
  if (!header) return { ok: false, status: 401, error: NOTICE_MESSAGES.unsigned };
  const parts = signatureParts(header);
  const ts = parts.get('ts') ?? '';
  const given = parts.get('v1') ?? '';
  const seconds = timestampSeconds(ts);
  if (seconds === null || !/^[0-9a-f]{64}$/i.test(given)) {
    return { ok: false, status: 401, error: NOTICE_MESSAGES.unsigned };
  }
  // The signed id is the query's (Mercado Pago's `data.id_url`), read from the raw URL.
  const dataId = notice.url.searchParams.get('data.id') ?? '';
  const requestId = notice.headers.get('x-request-id') ?? '';
  const expected = createHmac('sha256', secret)
    .update(noticeManifest(dataId, requestId, ts))
    .digest();
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) {
    return { ok: false, status: 401, error: NOTICE_MESSAGES.forged };
  }
  if (Math.abs(now.getTime() / 1000 - seconds) > NOTICE_TOLERANCE_SECONDS) {
    return { ok: false, status: 401, error: NOTICE_MESSAGES.stale };
  }

  let body: unknown;
  try {
    body = notice.body === '' ? {} : JSON.parse(notice.body);
  } catch {
    return { ok: false, status: 400, error: NOTICE_MESSAGES.invalid };
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) return { ok: false, status: 400, error: NOTICE_MESSAGES.invalid };
  const bodyId = parsed.data.data?.id;
  // The body is not signed: one naming another payment than the signed query is not trusted.
  if (bodyId !== undefined && String(bodyId) !== dataId) {
    return { ok: false, status: 400, error: NOTICE_MESSAGES.invalid };
  }
  const topic = notice.url.searchParams.get('type') ?? parsed.data.type;
  if (topic !== 'payment') return { ok: true, paymentId: null };
  if (!PAYMENT_ID.test(dataId)) return { ok: false, status: 400, error: NOTICE_MESSAGES.invalid };
  return { ok: true, paymentId: dataId };
}
