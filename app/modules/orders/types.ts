import type { PaymentDetails } from '~/modules/payments';
import type { VariantOptionValue } from '~/modules/catalog';
import type { Adjustment } from '~/modules/pricing';
import type { OrderShipping } from '~/modules/shipping';

import type { AddressParts } from './display';
import type { CancelReason, OrderStatus, TrackingParameters } from './schema';

/** A line of an order between its subtotal and total, as stored in order_adjustments. */
export type OrderAdjustment = Adjustment;

export interface OrderLine {
  productId: string | null;
  /** Null once the variant is deleted: the line keeps its copies of what named it. */
  variantId: string | null;
  /** The variant's SKU when bought. */
  sku: string | null;
  /** The variant's option values when bought ('Tamanho' 'G'); empty for a product without. */
  options: VariantOptionValue[];
  /** The product's name when bought. */
  name: string;
  unitPriceCents: number;
  quantity: number;
  totalCents: number;
  imageUrl: string | null;
}

/** An order as its shopper sees it (only ever shown to the browser that placed it). */
export interface OrderView {
  id: string;
  /** The order's name as people read it: '#1001' (see orderNumber). */
  number: string;
  status: OrderStatus;
  customer: { name: string; email: string; phone: string; cpf: string };
  address: AddressParts;
  lines: OrderLine[];
  subtotalCents: number;
  shippingCents: number;
  /** How it ships (carrier and service); null: the store's own rule, before carriers. */
  shipping: OrderShipping | null;
  /** The coupon and PIX discounts, in the order pricing applied them, with their labels. */
  adjustments: OrderAdjustment[];
  /** What the shopper pays: subtotal + shipping + the adjustments. */
  totalCents: number;
  paymentMethod: string;
  payment: {
    provider: string | null;
    id: string | null;
    status: string | null;
    pixCode: string | null;
    expiresAt: Date | null;
    /** Where the shopper pays off our pages (the provider's checkout, a boleto), if anywhere. */
    url: string | null;
    details: PaymentDetails | null;
    /** Why the provider's approval did not confirm the order: staff must look (pt-BR). */
    review: string | null;
  };
  createdAt: Date;
  paidAt: Date | null;
  /** The shopper paid after the order was cancelled: staff must refund or ship. */
  latePaymentAt: Date | null;
  cancelReason: CancelReason | null;
  cancelledAt: Date | null;
  trackingCode: string | null;
  trackingParameters: TrackingParameters;
  /** Opens this order from its e-mails' links; only ever sent to whoever may see the order. */
  accessKey: string;
}

/** What the place-order flow writes. */
export interface NewOrder {
  idempotencyKey: string;
  orderToken: string;
  /** The address the checkout came from (context.clientIp); only its hash is stored. */
  clientAddress: string;
  customer: { name: string; email: string; phone: string; cpf: string };
  address: AddressParts;
  paymentMethod: string;
  /**
   * The money below is the pricing pipeline's, as the shopper was shown it: stored as given,
   * never added up again here (each line's total too).
   */
  lines: OrderLine[];
  subtotalCents: number;
  shippingCents: number;
  shipping: OrderShipping | null;
  adjustments: OrderAdjustment[];
  totalCents: number;
  trackingParameters: TrackingParameters;
  /** Until a payment gives its own deadline, the order is cancelled if unpaid by then. */
  expiresAt: Date;
  /** The first line of its timeline: placed (pending) by the customer, saying this. */
  placedNote: string;
}
