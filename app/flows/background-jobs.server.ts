import type { Db } from '~/db/database.server';
import { canonicalOrigin } from '~/lib/canonical-origin';
import type { Env } from '~/lib/env.server';
import { logger } from '~/lib/logger.server';
import { variantLabel } from '~/modules/catalog';
import { deleteExpiredRestockRequests } from '~/modules/catalog/index.server';
import { startOutboxWorker, type OutboxHandler } from '~/modules/jobs/index.server';
import { ERP_TOPICS, getErpOrder } from '~/modules/erp/index.server';
import {
  invoiceAuthorizedEmail,
  orderCancelledEmail,
  orderDeliveredEmail,
  orderLinkEmail,
  orderReceivedEmail,
  orderShippedEmail,
  trackingCodeChangedEmail,
  paymentConfirmedEmail,
  type EmailStore,
  type OrderEmailData,
  type RenderedEmail,
} from '~/modules/notifications';
import { type MailSending } from '~/modules/notifications/index.server';
import {
  addressLine,
  estimatedDelivery,
  formatDeliveryDate,
  wasPaid,
  type OrderStatus,
  type OrderView,
} from '~/modules/orders';
import {
  getOrder,
  ORDER_KEY_PARAM,
  ORDER_TOPICS,
  type OrderEventOptions,
  type OrderMailTopic,
  type OrderTrackingPayload,
} from '~/modules/orders/index.server';
import { PAYMENT_STATUSES, type PaymentProvider, type PaymentStatus } from '~/modules/payments';
import { sweepRateLimits } from '~/modules/rate-limits/index.server';
import { deleteExpiredRecovery } from '~/modules/recovery/index.server';
import { REVIEW_ORDER_PATH } from '~/modules/reviews';
import type { SettingsStore } from '~/modules/settings/index.server';
import { deliveryDays, shippingLineLabel } from '~/modules/shipping';
import { sweepShippingQuotes } from '~/modules/shipping/index.server';
import type { MelhorEnvioLabels } from '~/modules/shipping/index.server';
import {
  paymentStatusToUtmify,
  sendUtmifyOrder,
  utmifyOrderBody,
  type UtmifyStatus,
} from '~/modules/tracking/index.server';

import { emailStoreOf, sendStoreMail } from './mail-sending.server';
import { abandonedCheckoutHandlers, sweepAbandonedCheckouts } from './abandoned-checkouts.server';
import { passwordResetHandlers } from './admin-password-reset.server';
import { erpHandlers, type ErpAccess } from './erp-orders.server';
import { expireOrders } from './order-payment.server';
import { reconcilePixPayments, registerPixWebhook } from './pix-api-payments.server';
import { restockHandlers } from './restock-alerts.server';
import { followShippedLabels, TRACKING_CHECK_INTERVAL_MS } from './shipping-labels.server';
import { shopperCodeHandlers } from './shopper-sign-in.server';

// Forgotten rate-limit counts are already ignored, and unconfirmed 'Avise-me' requests live 7
// days: deleting either ten minutes late changes nothing; it only keeps the tables small.
const SWEEP_INTERVAL_MS = 10 * 60_000;
// A payment still being created (a slow gateway) is waited for this long before the e-mail
// goes without its PIX code.
const WAIT_FOR_PAYMENT_MS = 2 * 60_000;

export interface BackgroundJobsOptions {
  env: Env;
  db: Db;
  settings: SettingsStore;
  /** The provider for the store's mode at the time of asking. */
  payments: () => Promise<PaymentProvider | null>;
  orderEvents: OrderEventOptions;
  /** The SMTP server and sender in force, read for every message: staff may change them. */
  mailSending: () => Promise<MailSending>;
  /** The carrier's label calls in force, whose shipped orders' tracking is read periodically. */
  shippingLabels: () => Promise<MelhorEnvioLabels | null>;
  /** The merchant's ERP (Bling) in force, or null: its orders and NF-e jobs wait for it. */
  erp: () => Promise<ErpAccess | null>;
}

/** How often an instance looks for shipped orders due a tracking read (each is due every 30 min). */
const TRACKING_ROUND_MS = 5 * 60_000;

/**
 * The server's own work, after requests: the outbox (e-mails, sales tracking), the expiry of
 * unpaid orders, the sweeps of old rate-limit counts, unconfirmed 'Avise-me' requests, expired
 * shipping quotes and abandoned checkouts, the abandoned checkouts due their e-mail, and the
 * carrier's tracking of shipped orders. Every instance runs them all; row locks (and, for
 * tracking and abandoned checkouts, each row claimed in the database) keep them from doing
 * anything twice.
 */
export function startBackgroundJobs(options: BackgroundJobsOptions): { stop(): Promise<void> } {
  const { db, payments, orderEvents } = options;
  const worker = startOutboxWorker({
    db,
    handlers: {
      ...orderHandlers(options),
      ...restockHandlers(options),
      ...passwordResetHandlers(options),
      ...shopperCodeHandlers(options),
      ...abandonedCheckoutHandlers(options),
      ...erpHandlers({ db, erp: options.erp, settings: options.settings }),
    },
  });
  let running: Promise<unknown> = Promise.resolve();
  const expiry = setInterval(() => {
    running = payments()
      .then((provider) => expireOrders(db, provider, orderEvents))
      .then((count) => {
        if (count > 0) logger.info({ count }, 'Cancelled unpaid orders past their deadline');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'Order expiry failed'));
  }, options.env.ORDER_EXPIRY_SECONDS * 1000);
  expiry.unref();
  // The API Pix: the webhook registered at start, and the received PIX listed every interval by
  // whichever instance the database lets, so a lost webhook leaves no paid order pending.
  const reconcileMs = options.env.PIX_API_RECONCILE_SECONDS * 1000;
  let reconciling: Promise<unknown> = payments()
    .then((provider) => registerPixWebhook(provider))
    .catch((error: unknown) => logger.error({ err: error }, 'API Pix webhook registration failed'));
  let reconcileBusy = false;
  const reconcile = setInterval(
    () => {
      if (reconcileBusy) return;
      reconcileBusy = true;
      reconciling = payments()
        .then((provider) =>
          reconcilePixPayments(db, provider, orderEvents, { intervalMs: reconcileMs }),
        )
        .then((count) => {
          if (count) logger.info({ count }, 'API Pix reconciliation settled orders');
        })
        .catch((error: unknown) => logger.error({ err: error }, 'API Pix reconciliation failed'))
        .finally(() => {
          reconcileBusy = false;
        });
    },
    Math.min(reconcileMs, 30_000),
  );
  reconcile.unref();
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = Promise.all([
      sweepRateLimits(db).catch((error: unknown) =>
        logger.error({ err: error }, 'Rate limit sweep failed'),
      ),
      deleteExpiredRestockRequests(db)
        .then((count) => {
          if (count > 0) logger.info({ count }, 'Deleted unconfirmed restock requests past 7 days');
        })
        .catch((error: unknown) => logger.error({ err: error }, 'Restock request sweep failed')),
      sweepShippingQuotes(db).catch((error: unknown) =>
        logger.error({ err: error }, 'Shipping quote sweep failed'),
      ),
      deleteExpiredRecovery(db, new Date()).catch((error: unknown) =>
        logger.error({ err: error }, 'Expired abandoned checkout sweep failed'),
      ),
    ]);
  };
  sweep();
  const sweeps = setInterval(sweep, SWEEP_INTERVAL_MS);
  sweeps.unref();
  let recovering: Promise<unknown> = Promise.resolve();
  const recover = () => {
    recovering = sweepAbandonedCheckouts(db, options.settings, new Date())
      .then((count) => {
        if (count > 0) logger.info({ count }, 'Recovery e-mails queued for abandoned checkouts');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'Abandoned checkout sweep failed'));
  };
  // At start too: checkouts that fell due while no instance ran go at once. The abandoned
  // checkouts' delay is set in minutes: looking every minute (the default) keeps the e-mail within
  // a minute of it.
  recover();
  const recovery = setInterval(recover, options.env.RECOVERY_SWEEP_SECONDS * 1000);
  recovery.unref();
  let tracking: Promise<unknown> = Promise.resolve();
  let trackingBusy = false;
  const follow = setInterval(() => {
    // A round still reading (a slow carrier) is not overtaken by the next one.
    if (trackingBusy) return;
    trackingBusy = true;
    tracking = options
      .shippingLabels()
      .then((labels) =>
        labels
          ? followShippedLabels({ db, labels, events: orderEvents }, TRACKING_CHECK_INTERVAL_MS)
          : 0,
      )
      .then((count) => {
        if (count > 0) logger.info({ count }, 'Orders delivered by the carrier');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'Shipment tracking check failed'))
      .finally(() => {
        trackingBusy = false;
      });
  }, TRACKING_ROUND_MS);
  follow.unref();
  return {
    async stop() {
      clearInterval(expiry);
      clearInterval(sweeps);
      clearInterval(follow);
      clearInterval(reconcile);
      clearInterval(recovery);
      await Promise.all([worker.stop(), running, sweeping, tracking, reconciling, recovering]);
    },
  };
}

/** The page each e-mail's button opens. */
const ORDER_PAGE: Record<OrderMailTopic, string> = {
  [ORDER_TOPICS.orderReceived]: 'order-confirmation',
  [ORDER_TOPICS.paymentConfirmed]: 'thank-you',
  [ORDER_TOPICS.orderShipped]: 'thank-you',
  [ORDER_TOPICS.trackingCodeChanged]: 'thank-you',
  [ORDER_TOPICS.orderDelivered]: 'thank-you',
  [ORDER_TOPICS.orderCancelled]: 'order-confirmation',
  [ORDER_TOPICS.orderLink]: 'order-confirmation',
};

const TEMPLATES: Record<
  OrderMailTopic,
  (data: OrderEmailData, store: EmailStore) => RenderedEmail
> = {
  [ORDER_TOPICS.orderReceived]: orderReceivedEmail,
  [ORDER_TOPICS.paymentConfirmed]: paymentConfirmedEmail,
  [ORDER_TOPICS.orderShipped]: orderShippedEmail,
  [ORDER_TOPICS.trackingCodeChanged]: trackingCodeChangedEmail,
  [ORDER_TOPICS.orderDelivered]: orderDeliveredEmail,
  [ORDER_TOPICS.orderCancelled]: orderCancelledEmail,
  [ORDER_TOPICS.orderLink]: orderLinkEmail,
};

/** The e-mails sent as soon as their job runs: all but the order's receipt (see its handler). */
const PLAIN_MAIL_TOPICS = (Object.keys(TEMPLATES) as OrderMailTopic[]).filter(
  (topic) => topic !== ORDER_TOPICS.orderReceived,
);

/** The order as UTMify reads it, with its landing parameters; `status` already mapped. */
function trackingInput(order: OrderView, status: UtmifyStatus) {
  return {
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
      name: variantLabel(line),
      quantity: line.quantity,
      priceInCents: line.unitPriceCents,
    })),
    trackingParameters: withCoupon(order),
    // What the shopper pays, after the coupon and the PIX discount.
    totalCents: order.totalCents,
    isTest: order.payment.provider === 'sandbox',
  };
}

/**
 * UTMify's order has no coupon field; its free `sck` parameter carries the order's coupon
 * ('cupom-BEMVINDO10') when the landing link set none, so sales can be told apart by coupon.
 */
function withCoupon(order: OrderView): OrderView['trackingParameters'] {
  const code = order.adjustments.find((adjustment) => adjustment.couponCode)?.couponCode;
  if (!code || order.trackingParameters.sck) return order.trackingParameters;
  return { ...order.trackingParameters, sck: `cupom-${code}` };
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

/**
 * The order of an e-mail or report, or null when staff deleted it since (an order is only ever
 * queued in the transaction that wrote it, so a missing one was deleted): nothing to send, and
 * nothing to retry for a day.
 */
async function orderIfKept(db: Db, payload: unknown, topic: string): Promise<OrderView | null> {
  const orderId = orderIdOf(payload);
  const order = await getOrder(db, orderId);
  if (!order) logger.info({ orderId, topic }, 'Order deleted before its outbox job ran; skipped');
  return order;
}

/**
 * The SPEC's admin mapping of an order's status for sales tracking (SPEC §4 and §7), except
 * that shipped and delivered orders report 'paid': UTMify's statuses have no 'delivered', and
 * 'waiting_payment' would take a paid sale back to unpaid.
 */
export const ADMIN_TRACKING_STATUS: Record<OrderStatus, UtmifyStatus> = {
  pending: 'waiting_payment',
  confirmed: 'paid',
  shipped: 'paid',
  delivered: 'paid',
  cancelled: 'refused',
};

function orderHandlers({
  env,
  db,
  settings,
  mailSending,
}: BackgroundJobsOptions): Record<string, OutboxHandler> {
  const mail = async (
    order: OrderView,
    topic: OrderMailTopic,
    invoice?: OrderEmailData['invoice'],
    template = TEMPLATES[topic],
  ) => {
    const store = await settings.get();
    // The pages' own rule (PUBLIC_URL, else canonical_url's origin); no request to fall back on.
    const origin =
      env.PUBLIC_URL ?? canonicalOrigin(store.canonical_url) ?? `http://localhost:${env.PORT}`;
    const delivery =
      order.paidAt &&
      estimatedDelivery(
        order.paidAt,
        deliveryDays(order.shipping, store.estimated_delivery_days),
        store.timezone,
      );
    const data: OrderEmailData = {
      number: order.number,
      customerName: order.customer.name,
      customerEmail: order.customer.email,
      items: order.lines.map((line) => ({
        name: variantLabel(line),
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        totalCents: line.totalCents,
      })),
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      shippingLabel: shippingLineLabel(order.shipping),
      adjustments: order.adjustments,
      totalCents: order.totalCents,
      addressLine: addressLine(order.address),
      pixCode: order.status === 'pending' ? order.payment.pixCode : null,
      expiresAt: order.status === 'pending' ? order.payment.expiresAt : null,
      // The link's key opens this one order on any device, as the shopper reads mail on a phone;
      // the page moves it out of the address into a cookie before it renders (order-key.server).
      orderUrl: `${origin}/${ORDER_PAGE[topic]}?${new URLSearchParams({ orderId: order.id, [ORDER_KEY_PARAM]: order.accessKey })}`,
      estimatedDelivery: delivery ? formatDeliveryDate(delivery) : undefined,
      trackingCode: order.trackingCode,
      wasPaid: wasPaid(order),
      // The delivered e-mail invites the buyer to review what they bought, with the same key.
      reviewUrl:
        topic === ORDER_TOPICS.orderDelivered && store.enable_reviews
          ? `${origin}${REVIEW_ORDER_PATH}?${new URLSearchParams({ orderId: order.id, [ORDER_KEY_PARAM]: order.accessKey })}`
          : undefined,
      invoice,
    };
    const message = template(data, emailStoreOf(store));
    await sendStoreMail(
      { dataDir: env.DATA_DIR, storeName: store.store_name, mailSending },
      { to: order.customer.email, ...message },
    );
  };

  return {
    [ORDER_TOPICS.orderReceived]: async (payload) => {
      const order = await orderIfKept(db, payload, ORDER_TOPICS.orderReceived);
      if (!order) return;
      const young = Date.now() - order.createdAt.getTime() < WAIT_FOR_PAYMENT_MS;
      if (order.status === 'pending' && !order.payment.pixCode && young) {
        throw new Error('Payment not created yet; the e-mail waits for its PIX code');
      }
      await mail(order, ORDER_TOPICS.orderReceived);
    },
    ...Object.fromEntries(
      PLAIN_MAIL_TOPICS.map((topic) => [
        topic,
        async (payload: unknown) => {
          const order = await orderIfKept(db, payload, topic);
          if (order) await mail(order, topic);
        },
      ]),
    ),
    // The authorized NF-e: its key and DANFE, as the ERP gave them (read when the job runs).
    [ERP_TOPICS.invoiceEmail]: async (payload) => {
      const order = await orderIfKept(db, payload, ERP_TOPICS.invoiceEmail);
      if (!order) return;
      const erpOrder = await getErpOrder(db, order.id);
      if (erpOrder?.invoiceState !== 'authorized' || !erpOrder.invoiceKey) return;
      await mail(
        order,
        ORDER_TOPICS.paymentConfirmed,
        {
          number: erpOrder.invoiceNumber,
          key: erpOrder.invoiceKey,
          danfeUrl: erpOrder.danfeUrl,
        },
        invoiceAuthorizedEmail,
      );
    },
    [ORDER_TOPICS.statusTracking]: async (payload, signal) => {
      if (!env.UTMIFY_API_TOKEN) return;
      const order = await orderIfKept(db, payload, ORDER_TOPICS.statusTracking);
      if (!order) return;
      // As for payment reports: the order's status now, so a retried report never goes back.
      const status = ADMIN_TRACKING_STATUS[order.status];
      await sendUtmifyOrder({
        url: env.UTMIFY_API_URL,
        token: env.UTMIFY_API_TOKEN,
        signal,
        body: utmifyOrderBody({
          ...trackingInput(order, status),
          // SPEC §7: the admin's report carries no landing parameters.
          trackingParameters: null,
        }),
      });
    },
    [ORDER_TOPICS.tracking]: async (payload, signal) => {
      if (!env.UTMIFY_API_TOKEN) return;
      const order = await orderIfKept(db, payload, ORDER_TOPICS.tracking);
      if (!order) return;
      // The order's status now, not when the report was queued: a report retried after a later
      // one must not take the order back to an earlier status.
      const status = paymentStatusToUtmify(currentPaymentStatus(order, payload));
      await sendUtmifyOrder({
        url: env.UTMIFY_API_URL,
        token: env.UTMIFY_API_TOKEN,
        signal,
        body: utmifyOrderBody(trackingInput(order, status)),
      });
    },
  };
}
