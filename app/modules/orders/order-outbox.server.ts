import type { Db } from '~/db/database.server';
import { enqueue, type OutboxJob } from '~/modules/jobs/index.server';
import type { PaymentStatus } from '~/modules/payments';

import type { OrderStatus } from './schema';

/** Outbox topics the order flows write and the background worker delivers. */
export const ORDER_TOPICS = {
  orderReceived: 'email.order_received',
  paymentConfirmed: 'email.payment_confirmed',
  orderShipped: 'email.order_shipped',
  trackingCodeChanged: 'email.tracking_code_changed',
  orderDelivered: 'email.order_delivered',
  orderCancelled: 'email.order_cancelled',
  /** The order's link, asked for with 'Encontrar meu pedido'. */
  orderLink: 'email.order_link',
  tracking: 'tracking.order',
  /** A status change made by staff, reported with the SPEC's admin mapping. */
  statusTracking: 'tracking.order_status',
} as const;

export type OrderMailTopic =
  | typeof ORDER_TOPICS.orderReceived
  | typeof ORDER_TOPICS.paymentConfirmed
  | typeof ORDER_TOPICS.orderShipped
  | typeof ORDER_TOPICS.trackingCodeChanged
  | typeof ORDER_TOPICS.orderDelivered
  | typeof ORDER_TOPICS.orderCancelled
  | typeof ORDER_TOPICS.orderLink;

export interface OrderTrackingPayload {
  orderId: string;
  paymentStatus: PaymentStatus;
}

/** What the flows need to know about the outside services, decided at start from the environment. */
export interface OrderEventOptions {
  /** Sales tracking has a token: each new order and each status change is reported. */
  tracking: boolean;
}

/** Reports the order's payment status to sales tracking, after the caller's transaction commits. */
export async function trackOrder(
  db: Db,
  orderId: string,
  paymentStatus: PaymentStatus,
  options: OrderEventOptions,
): Promise<void> {
  if (!options.tracking) return;
  const payload: OrderTrackingPayload = { orderId, paymentStatus };
  await enqueue(db, ORDER_TOPICS.tracking, payload);
}

export interface OrderStatusTrackingPayload {
  orderId: string;
  status: OrderStatus;
}

/**
 * Reports a status change made by staff to sales tracking (SPEC §7, the admin call), after the
 * caller's transaction commits.
 */
export async function trackOrderStatus(
  db: Db,
  orderId: string,
  status: OrderStatus,
  options: OrderEventOptions,
): Promise<void> {
  if (!options.tracking) return;
  const payload: OrderStatusTrackingPayload = { orderId, status };
  await enqueue(db, ORDER_TOPICS.statusTracking, payload);
}

// The order-received e-mail carries the PIX code, created just after the order's transaction
// commits: it waits these few seconds rather than being tried before the code exists.
const ORDER_RECEIVED_DELAY_MS = 5_000;

export async function mailOrder(db: Db, topic: OrderMailTopic, orderId: string): Promise<void> {
  const { payload, runAt } = orderMailJob(topic, orderId);
  await enqueue(db, topic, payload, { runAt });
}

function orderMailJob(topic: OrderMailTopic, orderId: string): OutboxJob {
  const runAt =
    topic === ORDER_TOPICS.orderReceived
      ? new Date(Date.now() + ORDER_RECEIVED_DELAY_MS)
      : undefined;
  return { topic, payload: { orderId }, runAt };
}

/**
 * The work a new order queues: the order-received e-mail, and its report to sales tracking
 * (unpaid) when tracking is on. Written with the order (insertOrder), in its statement.
 */
export function placedOrderJobs(orderId: string, options: OrderEventOptions): OutboxJob[] {
  const tracking: OrderTrackingPayload = { orderId, paymentStatus: 'pending' };
  return [
    orderMailJob(ORDER_TOPICS.orderReceived, orderId),
    ...(options.tracking ? [{ topic: ORDER_TOPICS.tracking, payload: tracking }] : []),
  ];
}
