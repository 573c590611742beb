import type { Db } from '~/db/database.server';
import { addressLine, carrierShippingLine } from '~/modules/orders';
import {
  findOrderFor,
  getRequestedOrder,
  type OrderAccess,
  type OrderEventOptions,
} from '~/modules/orders/index.server';
import type { PaymentProvider } from '~/modules/payments';
import { pixQrSvg, setSandboxPaymentStatus } from '~/modules/payments/index.server';
import { installmentOffer, type OfferSettings } from '~/modules/pricing';
import { hitRateLimit, RATE_LIMITS, waitText } from '~/modules/rate-limits/index.server';
import { shippingLineLabel } from '~/modules/shipping';

import { hasLivePayment, payOrder, refreshPayment } from './order-payment.server';

/** What the page needs of the request's context. */
interface OrderPageScope {
  db: Db;
  payments(): Promise<PaymentProvider | null>;
  orderEvents: OrderEventOptions;
}

const PAY_LIMITED = (seconds: number) =>
  `Muitos pedidos de pagamento em pouco tempo. Aguarde ${waitText(seconds)} e tente de novo.`;

/**
 * The payment page of the order the request names (and may see), after asking the provider how
 * its payment stands: 'missing' when there is none, 'paid' once it is no longer waiting (the
 * page moves on to the thank-you page), else what the page shows to pay it and what was bought.
 */
export async function loadOrderConfirmation(scope: OrderPageScope, request: Request) {
  const found = await getRequestedOrder(scope.db, request);
  if (!found) return { kind: 'missing' as const };
  const payments = await scope.payments();
  const { order, error } = await refreshPayment(scope.db, payments, found, scope.orderEvents);
  if (order.status !== 'pending' && order.status !== 'cancelled') {
    return { kind: 'paid' as const, orderId: order.id, paymentId: order.payment.id };
  }
  const now = new Date();
  const live = order.status === 'pending' && hasLivePayment(order, now);
  return {
    kind: 'order' as const,
    order: {
      id: order.id,
      number: order.number,
      status: order.status,
      totalCents: order.totalCents,
      adjustments: order.adjustments.map(({ label, cents }) => ({ label, cents })),
      shipping: carrierShippingLine(order),
      // What was bought and where it goes, below the payment.
      lines: order.lines,
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      shippingLabel: shippingLineLabel(order.shipping),
      customerName: order.customer.name,
      address: addressLine(order.address),
      cancelReason: order.cancelReason,
      paymentId: order.payment.id,
      paymentStatus: order.payment.status,
      pixCode: live ? order.payment.pixCode : null,
      expiresAt: live ? (order.payment.expiresAt?.toISOString() ?? null) : null,
      // Cards and boleto are paid on the provider's page (a boleto, once issued, at its own).
      paymentUrl: live ? order.payment.url : null,
      boletoIssued: order.payment.details?.method === 'boleto',
      paymentMethod: order.paymentMethod,
    },
    live,
    qrSvg: live && order.payment.pixCode ? await pixQrSvg(order.payment.pixCode) : null,
    testMode: !!payments?.testMode && order.payment.provider === payments.name,
    paymentFailed: !order.payment.id,
    statusError: error ?? null,
    renderedAt: now.getTime(),
  };
}

export type PayAgainResult =
  | { kind: 'missing' }
  | { kind: 'busy'; message: string; retryAfterSeconds: number }
  | { kind: 'refused'; error: string }
  /** `paymentUrl`: the provider's page to pay at, when it is not ours. */
  | { kind: 'payment'; orderId: string; paymentId: string; paymentUrl: string | null };

/**
 * 'Pagar agora' / 'Gerar novo PIX' on an order the shopper may see: its live payment, or a new one
 * from the provider. Each may ask the provider for a new payment, so each counts against the
 * client address (RATE_LIMITS.newPayment).
 */
export async function payOrderAgain(
  scope: OrderPageScope & { clientIp: string },
  orderId: string,
  access: OrderAccess,
): Promise<PayAgainResult> {
  const order = await findOrderFor(scope.db, orderId, access);
  if (!order) return { kind: 'missing' };
  const payments = await scope.payments();
  const limited = await hitRateLimit(scope.db, RATE_LIMITS.newPayment, {
    address: scope.clientIp,
  });
  if (!limited.allowed) {
    const { retryAfterSeconds } = limited;
    return { kind: 'busy', message: PAY_LIMITED(retryAfterSeconds), retryAfterSeconds };
  }
  const payment = await payOrder(scope.db, payments, order.id);
  if (!payment.ok) return { kind: 'refused', error: payment.error };
  const { paymentId, paymentUrl } = payment;
  return { kind: 'payment', orderId: order.id, paymentId, paymentUrl };
}

const SANDBOX_STATUS = { approve: 'approved', reject: 'rejected', expire: 'expired' } as const;

export type SandboxResult =
  | { kind: 'missing' }
  | { kind: 'not-sandbox' }
  /** A card's instalments out of what the store offers on this total (`most`). */
  | { kind: 'installments'; most: number }
  | { kind: 'settled'; orderId: string; paymentId: string };

/**
 * The sandbox tester's approve, reject and expire on the order's payment, applied as the
 * provider's report would be. Only while the sandbox is the provider: a demo made live takes no
 * pretend payment. A card is approved in the instalments the checkout offered on its total.
 */
export async function settleSandboxPayment(
  scope: OrderPageScope & { settings: { get(): Promise<OfferSettings> } },
  input: {
    orderId: string;
    access: OrderAccess;
    intent: keyof typeof SANDBOX_STATUS;
    /** One when not sent. */
    installments: number | undefined;
  },
): Promise<SandboxResult> {
  const order = await findOrderFor(scope.db, input.orderId, input.access);
  if (!order) return { kind: 'missing' };
  const payments = await scope.payments();
  const sandbox = payments?.testMode && order.payment.provider === payments.name;
  if (!sandbox || !order.payment.id) return { kind: 'not-sandbox' };
  let installments: number | null = null;
  if (input.intent === 'approve' && order.paymentMethod === 'credit_card') {
    const most = installmentOffer(order.totalCents, await scope.settings.get())?.count ?? 1;
    installments = input.installments ?? 1;
    if (installments < 1 || installments > most) return { kind: 'installments', most };
  }
  await setSandboxPaymentStatus(
    scope.db,
    order.payment.id,
    SANDBOX_STATUS[input.intent],
    new Date(),
    installments,
  );
  await refreshPayment(scope.db, payments, order, scope.orderEvents);
  return { kind: 'settled', orderId: order.id, paymentId: order.payment.id };
}
