import type { Db } from '~/db/database.server';
import { canonicalOrigin } from '~/lib/canonical-origin';
import type { Env } from '~/lib/env.server';
import { logger } from '~/lib/logger.server';
import { startOutboxWorker, type OutboxHandler } from '~/modules/jobs/index.server';
import {
  orderReceivedEmail,
  paymentConfirmedEmail,
  type OrderEmailData,
} from '~/modules/notifications';
import { createMailer } from '~/modules/notifications/index.server';
import {
  addressLine,
  estimatedDelivery,
  formatDeliveryDate,
  type OrderView,
} from '~/modules/orders';
import { getOrder } from '~/modules/orders/index.server';
import { PAYMENT_STATUSES, type PaymentProvider, type PaymentStatus } from '~/modules/payments';
import type { SettingsStore } from '~/modules/settings/index.server';
import {
  paymentStatusToUtmify,
  sendUtmifyOrder,
  utmifyOrderBody,
} from '~/modules/tracking/index.server';

import { expireOrders } from './order-payment.server';
import {
  ORDER_TOPICS,
  type OrderEventOptions,
  type OrderTrackingPayload,
} from './order-events.server';

const EXPIRY_INTERVAL_MS = 30_000;
// A payment still being created (a slow gateway) is waited for this long before the e-mail
// goes without its PIX code.
const WAIT_FOR_PAYMENT_MS = 2 * 60_000;

export interface BackgroundJobsOptions {
  env: Env;
  db: Db;
  settings: SettingsStore;
  payments: PaymentProvider | null;
  orderEvents: OrderEventOptions;
}

/**
 * The server's own work, after requests: the outbox (e-mails, sales tracking) and the expiry of
 * unpaid orders. Every instance runs both; row locks keep them from doing anything twice.
 */
export function startBackgroundJobs(options: BackgroundJobsOptions): { stop(): Promise<void> } {
  const { db, payments, orderEvents } = options;
  const worker = startOutboxWorker({ db, handlers: orderHandlers(options) });
  let running: Promise<unknown> = Promise.resolve();
  const expiry = setInterval(() => {
    running = expireOrders(db, payments, orderEvents)
      .then((count) => {
        if (count > 0) logger.info({ count }, 'Cancelled unpaid orders past their deadline');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'Order expiry failed'));
  }, EXPIRY_INTERVAL_MS);
  expiry.unref();
  return {
    async stop() {
      clearInterval(expiry);
      await Promise.all([worker.stop(), running]);
    },
  };
}

function currentPaymentStatus(order: OrderView, payload: unknown): PaymentStatus {
  const recorded = order.payment.status;
  if (recorded && (PAYMENT_STATUSES as readonly string[]).includes(recorded)) {
    return recorded as PaymentStatus;
  }
  return (payload as OrderTrackingPayload).paymentStatus;
}

function orderIdOf(payload: unknown): string {
  const orderId = (payload as { orderId?: unknown } | null)?.orderId;
  if (typeof orderId !== 'string') throw new Error('Outbox payload without an order id');
  return orderId;
}

async function loadOrder(db: Db, payload: unknown): Promise<OrderView> {
  const order = await getOrder(db, orderIdOf(payload));
  if (!order) throw new Error('Order not found');
  return order;
}

function orderHandlers({
  env,
  db,
  settings,
}: BackgroundJobsOptions): Record<string, OutboxHandler> {
  const mail = async (order: OrderView, kind: 'received' | 'confirmed') => {
    const store = await settings.get();
    // The pages' own rule (PUBLIC_URL, else canonical_url's origin); no request to fall back on.
    const origin =
      env.PUBLIC_URL ?? canonicalOrigin(store.canonical_url) ?? `http://localhost:${env.PORT}`;
    const delivery =
      order.paidAt &&
      estimatedDelivery(order.paidAt, store.estimated_delivery_days, store.timezone);
    const data: OrderEmailData = {
      orderId: order.id,
      customerName: order.customer.name,
      customerEmail: order.customer.email,
      items: order.lines.map((line) => ({
        name: line.name,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        totalCents: line.totalCents,
      })),
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      totalCents: order.totalCents,
      addressLine: addressLine(order.address),
      pixCode: order.status === 'pending' ? order.payment.pixCode : null,
      expiresAt: order.status === 'pending' ? order.payment.expiresAt : null,
      // The link's key opens this one order on any device, as the shopper reads mail on a phone.
      orderUrl: `${origin}/${kind === 'received' ? 'order-confirmation' : 'thank-you'}?${new URLSearchParams({ orderId: order.id, chave: order.accessKey })}`,
      estimatedDelivery: delivery ? formatDeliveryDate(delivery) : undefined,
    };
    const identity = {
      name: store.store_name,
      contactEmail: store.contact_email || undefined,
      contactPhone: store.contact_phone || undefined,
      timeZone: store.timezone,
    };
    const message =
      kind === 'received'
        ? orderReceivedEmail(data, identity)
        : paymentConfirmedEmail(data, identity);
    const mailer = createMailer({
      smtpUrl: env.SMTP_URL,
      from: env.SMTP_FROM,
      storeName: store.store_name,
      dataDir: env.DATA_DIR,
    });
    await mailer.send({ to: order.customer.email, ...message });
  };

  return {
    [ORDER_TOPICS.orderReceived]: async (payload) => {
      const order = await loadOrder(db, payload);
      const young = Date.now() - order.createdAt.getTime() < WAIT_FOR_PAYMENT_MS;
      if (order.status === 'pending' && !order.payment.pixCode && young) {
        throw new Error('Payment not created yet; the e-mail waits for its PIX code');
      }
      await mail(order, 'received');
    },
    [ORDER_TOPICS.paymentConfirmed]: async (payload) => {
      await mail(await loadOrder(db, payload), 'confirmed');
    },
    [ORDER_TOPICS.tracking]: async (payload, signal) => {
      if (!env.UTMIFY_API_TOKEN) return;
      const order = await loadOrder(db, payload);
      // The order's status now, not when the report was queued: a report retried after a later
      // one must not take the order back to an earlier status.
      const status = paymentStatusToUtmify(currentPaymentStatus(order, payload));
      await sendUtmifyOrder({
        url: env.UTMIFY_API_URL,
        token: env.UTMIFY_API_TOKEN,
        signal,
        body: utmifyOrderBody({
          orderId: order.id,
          paymentMethod: order.paymentMethod,
          status,
          createdAt: order.createdAt,
          approvedAt: status === 'paid' ? order.paidAt : null,
          customer: {
            name: order.customer.name,
            email: order.customer.email,
            phone: order.customer.phone,
            document: order.customer.cpf,
          },
          products: order.lines.map((line) => ({
            id: line.productId ?? order.id,
            name: line.name,
            quantity: line.quantity,
            priceInCents: line.unitPriceCents,
          })),
          trackingParameters: order.trackingParameters,
          totalCents: order.totalCents,
          isTest: order.payment.provider === 'sandbox',
        }),
      });
    },
  };
}
