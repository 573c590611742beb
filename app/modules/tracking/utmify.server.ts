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

/**
 * Reports an order to UTMify. Throws on a refusal, a network error or no answer in time, so the
 * outbox tries again; the messages never carry the token.
 */
export async function sendUtmifyOrder({
  url,
  token,
  body,
  timeoutMs = 10_000,
  signal,
  fetch: fetchImpl = fetch,
}: SendUtmifyOrderOptions): Promise<void> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const hide = (text: string) => (token ? text.split(token).join('***') : text);
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': token },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (timeout.aborted) throw new Error(`UTMify did not answer within ${timeoutMs} ms`);
    throw new Error(`UTMify request failed: ${hide(networkReason(error))}`);
  }
  // Read the answer in any case, so the connection can be reused.
  const answer = await response.text().catch(() => '');
  if (!response.ok) {
    const excerpt = hide(answer.replace(/\s+/g, ' ').trim()).slice(0, MAX_ANSWER_IN_ERROR);
    throw new Error(`UTMify answered ${response.status}${excerpt ? `: ${excerpt}` : ''}`);
  }
}

/** fetch() reports every network failure as 'fetch failed'; the reason is in its cause. */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}
