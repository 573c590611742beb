import {
  callOutsideService,
  OutsideServiceError,
  redactSecrets,
  type OutsideAnswer,
} from '~/lib/http-client.server';
import type { PaymentStatus } from '~/modules/payments';

export type UtmifyStatus = 'waiting_payment' | 'paid' | 'refused' | 'refunded' | 'chargedback';

const TRACKING_KEYS = [
  'src',
  'sck',
  'utm_source',
  'utm_campaign',
  'utm_medium',
  'utm_content',
  'utm_term',
] as const;
type TrackingKey = (typeof TRACKING_KEYS)[number];

export interface UtmifyOrderInput {
  orderId: string;
  /** As stored on the order ('pix', 'PIX'…); empty means PIX. */
  paymentMethod: string;
  status: UtmifyStatus;
  /** When the order was placed: the same on every report of one order. */
  createdAt: Date;
  approvedAt: Date | null;
  refundedAt?: Date | null;
  customer: { name: string; email: string; phone: string; document: string };
  products: { id: string; name: string; quantity: number; priceInCents: number }[];
  /** The shopper's landing parameters; null when unknown (a report made from the admin). */
  trackingParameters: Partial<Record<TrackingKey, string>> | null;
  totalCents: number;
  /** Orders paid through the sandbox provider are tests. */
  isTest?: boolean;
}

export interface UtmifyOrderBody {
  orderId: string;
  platform: 'Vitrine';
  paymentMethod: string;
  status: UtmifyStatus;
  createdAt: string;
  approvedDate: string | null;
  refundedAt: string | null;
  customer: { name: string; email: string; phone: string; document: string };
  products: {
    id: string;
    name: string;
    planId: null;
    planName: null;
    quantity: number;
    priceInCents: number;
  }[];
  trackingParameters: Record<TrackingKey, string | null>;
  commission: {
    totalPriceInCents: number;
    gatewayFeeInCents: number;
    userCommissionInCents: number;
  };
  isTest: boolean;
}

const STATUS_BY_PAYMENT: Record<PaymentStatus, UtmifyStatus> = {
  pending: 'waiting_payment',
  approved: 'paid',
  rejected: 'refused',
  expired: 'refused',
  refunded: 'refunded',
  chargeback: 'chargedback',
};

export function paymentStatusToUtmify(status: PaymentStatus): UtmifyStatus {
  return STATUS_BY_PAYMENT[status];
}

/** UTMify reads dates as UTC 'YYYY-MM-DD HH:MM:SS'. */
function utcDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** The body UTMify's orders endpoint takes; sent again, whole, on every status change. */
export function utmifyOrderBody(input: UtmifyOrderInput): UtmifyOrderBody {
  const tracking = Object.fromEntries(
    TRACKING_KEYS.map((key) => [key, input.trackingParameters?.[key] || null]),
  ) as Record<TrackingKey, string | null>;
  const moneyReturned = input.status === 'refunded' || input.status === 'chargedback';
  return {
    orderId: input.orderId,
    platform: 'Vitrine',
    paymentMethod: (input.paymentMethod || 'pix').toLowerCase(),
    status: input.status,
    createdAt: utcDateTime(input.createdAt),
    approvedDate:
      input.status === 'paid' && input.approvedAt ? utcDateTime(input.approvedAt) : null,
    refundedAt: moneyReturned && input.refundedAt ? utcDateTime(input.refundedAt) : null,
    customer: {
      name: input.customer.name,
      email: input.customer.email,
      phone: input.customer.phone,
      document: input.customer.document,
    },
    products: input.products.map((product) => ({
      id: product.id,
      name: product.name,
      planId: null,
      planName: null,
      quantity: product.quantity,
      priceInCents: product.priceInCents,
    })),
    trackingParameters: tracking,
    commission: {
      totalPriceInCents: input.totalCents,
      gatewayFeeInCents: 0,
      userCommissionInCents: input.totalCents,
    },
    isTest: input.isTest ?? false,
  };
}

export interface SendUtmifyOrderOptions {
  url: string;
  token: string;
  body: UtmifyOrderBody;
  timeoutMs?: number;
  /** Aborts the request early (the outbox handler's signal). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

const MAX_ANSWER_IN_ERROR = 200;

// UTMify answers a few bytes of JSON; the answer is only read for an error's excerpt.
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Reports an order to UTMify. Throws on a refusal, a network error or no answer in time, so the
 * outbox tries again (this call does not: a POST sent twice could count the order twice); the
 * messages never carry the token.
 */
export async function sendUtmifyOrder({
  url,
  token,
  body,
  timeoutMs = 10_000,
  signal,
  fetch: fetchImpl,
}: SendUtmifyOrderOptions): Promise<void> {
  let answer: OutsideAnswer;
  try {
    answer = await callOutsideService(url, {
      service: 'tracking',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': token },
      body: JSON.stringify(body),
      timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
      secrets: [token],
      signal,
      fetch: fetchImpl,
    });
  } catch (error) {
    if (!(error instanceof OutsideServiceError)) throw error;
    // A taken order is taken, whatever the size of the words that came with it.
    if (error.failure === 'too-large' && error.status !== undefined && error.status < 300) return;
    if (error.failure === 'timeout')
      throw new Error(`UTMify did not answer within ${timeoutMs} ms`);
    if (error.failure === 'too-large') throw new Error(`UTMify answered ${error.status}`);
    throw new Error(`UTMify request failed: ${error.message}`);
  }
  if (!answer.ok) {
    const excerpt = redactSecrets(answer.text.replace(/\s+/g, ' ').trim(), [token]).slice(
      0,
      MAX_ANSWER_IN_ERROR,
    );
    throw new Error(`UTMify answered ${answer.status}${excerpt ? `: ${excerpt}` : ''}`);
  }
}
