import type { Db } from '~/db/database.server';
import { addressLine, estimatedDelivery, formatDeliveryDate } from '~/modules/orders';
import { getRequestedOrder, type OrderEventOptions } from '~/modules/orders/index.server';
import type { PaymentProvider } from '~/modules/payments';
import type { StoreSettings } from '~/modules/settings';
import { deliveryDays, shippingLineLabel } from '~/modules/shipping';

import { refreshPayment } from './order-payment.server';

/** What the page needs of the request's context. */
interface OrderPageScope {
  db: Db;
  payments(): Promise<PaymentProvider | null>;
  orderEvents: OrderEventOptions;
}

/**
 * The thank-you page of the order the request names (and may see), null when there is none: the
 * order as the provider has it now (`verified=true` in the address proves nothing, so the
 * provider is asked again), and for a paid one the day it should arrive, counted from payment in
 * business days (the carrier's, else the store's).
 */
export async function loadThankYouPage(
  scope: OrderPageScope,
  request: Request,
  settings: Pick<StoreSettings, 'estimated_delivery_days' | 'timezone'>,
) {
  const found = await getRequestedOrder(scope.db, request);
  if (!found) return null;
  const { order } = await refreshPayment(
    scope.db,
    await scope.payments(),
    found,
    scope.orderEvents,
  );
  const paid = ['confirmed', 'shipped', 'delivered'].includes(order.status);
  const delivery =
    paid && order.paidAt
      ? estimatedDelivery(
          order.paidAt,
          deliveryDays(order.shipping, settings.estimated_delivery_days),
          settings.timezone,
        )
      : null;
  return {
    paid,
    order: {
      id: order.id,
      number: order.number,
      status: order.status,
      customerName: order.customer.name,
      email: order.customer.email,
      address: addressLine(order.address),
      lines: order.lines,
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      shippingLabel: shippingLineLabel(order.shipping),
      adjustments: order.adjustments.map(({ label, cents }) => ({ label, cents })),
      totalCents: order.totalCents,
      paymentId: order.payment.id,
      trackingCode: order.status === 'shipped' ? order.trackingCode : null,
    },
    delivery: delivery ? formatDeliveryDate(delivery) : null,
  };
}
