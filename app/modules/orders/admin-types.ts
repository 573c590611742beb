import type { PaymentDetails } from '~/modules/payments';
import type { ShippingLabel } from '~/modules/shipping';

import type { AddressParts } from './display';
import type { OrderEvent } from './order-events';
import type { OrderStatus } from './schema';
import type { OrderView } from './types';

/** One row of the admin's order list. */
export interface AdminOrderRow {
  id: string;
  number: string;
  customerName: string;
  customerEmail: string;
  createdAt: Date;
  status: OrderStatus;
  totalCents: number;
  /** Money was received: cancelling it means refunding the shopper. */
  paid: boolean;
  /** 'Excluir' is offered: the server would delete it (canDeleteOrder). */
  canDelete: boolean;
  /** 'Cancelar pedido' is offered: the lifecycle still allows it. */
  canCancel: boolean;
}

export interface AdminOrderPage {
  orders: AdminOrderRow[];
  /** Orders matching the filters, counted up to MAX_COUNTED_ORDERS. */
  total: number;
  /** More orders match than were counted. */
  totalIsLowerBound: boolean;
  page: number;
  pageCount: number;
}

/** An order as staff see it: everything the shopper gave, the payment and the timeline. */
export interface AdminOrderDetail extends Pick<
  OrderView,
  | 'id'
  | 'number'
  | 'status'
  | 'customer'
  | 'createdAt'
  | 'lines'
  | 'subtotalCents'
  | 'shippingCents'
  | 'shipping'
  | 'adjustments'
  | 'totalCents'
  | 'paymentMethod'
  | 'trackingCode'
  | 'cancelReason'
> {
  payment: Pick<OrderView['payment'], 'provider' | 'id' | 'status' | 'review'> & {
    paidAt: Date | null;
    /** The PIX's deadline (or the unpaid order's, before a payment exists). */
    expiresAt: Date | null;
    /** The shopper paid after the order was cancelled: staff must refund or ship. */
    latePaymentAt: Date | null;
    /** The provider's account of the payment (method, instalments, fees, settlement), if any. */
    details: PaymentDetails | null;
  };
  /** The delivery address in one line (SPEC §3), written on the server. */
  address: string;
  cancelledAt: Date | null;
  /** The carrier's label bought for it ('Gerar etiqueta'), as far as it has gone. */
  label: ShippingLabel | null;
  /** Newest first. */
  events: OrderEvent[];
}

/** One line of the CSV export. */
export interface AdminOrderExportRow {
  id: string;
  /** '#1001' (see orderNumber). */
  number: string;
  createdAt: Date;
  status: OrderStatus;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  customerCpf: string;
  address: AddressParts;
  subtotalCents: number;
  shippingCents: number;
  pixDiscountCents: number;
  couponCode: string | null;
  couponDiscountCents: number;
  totalCents: number;
  paymentMethod: string;
  paymentStatus: string | null;
  paidAt: Date | null;
  trackingCode: string | null;
  /** The lines as bought: quantity, product, variant values and SKU, '; ' between them. */
  items: string;
}
