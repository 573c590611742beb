import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, updatedAt } from '../../db/columns';
import { adminUsers } from '../auth/schema';
import { products, productVariants, type VariantOptionValue } from '../catalog/schema';
import { coupons } from '../coupons/schema';
import type { PaymentDetails } from '../payments';
import type { OrderShipping, ShippingLabel } from '../shipping';

export const ORDER_STATUSES = [
  'pending',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CANCEL_REASONS = ['rejected', 'expired', 'staff'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Where the shopper came from (utm_*, src, sck of the landing URL), for sales tracking. */
export type TrackingParameters = Partial<
  Record<
    'utm_source' | 'utm_medium' | 'utm_campaign' | 'utm_content' | 'utm_term' | 'src' | 'sck',
    string
  >
>;

/**
 * The store's order numbers (#1001, #1002…): never reused, but a rolled-back checkout leaves a
 * gap, as every PostgreSQL sequence does; a gap-free counter would serialize every checkout.
 */
export const orderNumberSequence = pgSequence('orders_number_seq', { startWith: 1001 });

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // What shoppers and staff call the order; the id stays the key in links.
    number: integer('number')
      .notNull()
      .default(sql`nextval('orders_number_seq')`),
    customerName: text('customer_name').notNull(),
    customerEmail: text('customer_email').notNull(),
    customerPhone: text('customer_phone').notNull(),
    // Digits only; it is also the customer_document shown in the admin.
    customerCpf: text('customer_cpf').notNull(),
    // The delivery address is kept in parts (labels, CEP look-ups); the one-line form is derived.
    shippingZip: text('shipping_zip').notNull(),
    shippingStreet: text('shipping_street').notNull(),
    shippingNumber: text('shipping_number').notNull(),
    shippingComplement: text('shipping_complement'),
    shippingNeighborhood: text('shipping_neighborhood').notNull(),
    shippingCity: text('shipping_city').notNull(),
    shippingState: text('shipping_state').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    shippingCostCents: integer('shipping_cost_cents').notNull().default(0),
    // The carrier and service the shopper chose (or the store's rule), as quoted then; null on
    // orders placed before carriers.
    shippingMethod: jsonb('shipping_method').$type<OrderShipping>(),
    // The carrier's label bought for the order ('Gerar etiqueta'), step by step; null until then.
    shippingLabel: jsonb('shipping_label').$type<ShippingLabel>(),
    // While one request buys the label, others leave it alone until this time (a crash frees it).
    labelLeaseUntil: timestamp('label_lease_until', { withTimezone: true }),
    totalAmountCents: integer('total_amount_cents').notNull(),
    // What the order's adjustments took off (coupons, PIX), as a positive figure: written with the
    // order, and worked out again by a trigger whenever its adjustments change some other way
    // (migration 0031), so the sales days below read it from the order's own row.
    discountCents: integer('discount_cents').notNull().default(0),
    paymentMethod: text('payment_method').notNull().default('pix'),
    status: text('status').$type<OrderStatus>().notNull().default('pending'),
    // Random identifier of the shopper's browser; the order history is looked up by it.
    orderToken: text('order_token').notNull(),
    // The hash of the address the checkout came from (clientAddressHash), kept only while the
    // order is unpaid: it counts one client's unpaid orders, then it is erased.
    clientAddressHash: text('client_address_hash'),
    // The key in the links of the order's e-mails: opens this one order on any device.
    accessKey: uuid('access_key').notNull().defaultRandom(),
    paymentProvider: text('payment_provider'),
    paymentId: text('payment_id'),
    paymentStatus: text('payment_status'),
    pixCode: text('pix_code'),
    pixQrCode: text('pix_qr_code'),
    billetUrl: text('billet_url'),
    billetCode: text('billet_code'),
    // Where the shopper pays when it is not on our page: the provider's checkout, a boleto.
    paymentUrl: text('payment_url'),
    // The provider's account of the payment (instalments, fees, settlement), for staff.
    paymentDetails: jsonb('payment_details').$type<PaymentDetails>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    trackingCode: text('tracking_code'),
    // The checkout form's hidden key: the same submission twice finds this order again.
    idempotencyKey: text('idempotency_key'),
    trackingParameters: jsonb('tracking_parameters')
      .$type<TrackingParameters>()
      .notNull()
      .default({}),
    cancelReason: text('cancel_reason').$type<CancelReason>(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    // A payment the provider confirmed after the order was cancelled: staff must refund or ship.
    latePaymentAt: timestamp('late_payment_at', { withTimezone: true }),
    // Why the provider's word did not confirm the order (less money, another currency, a card
    // held but not charged), in pt-BR for staff; cleared once the order is confirmed.
    paymentReview: text('payment_review'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'orders_status_check',
      sql`${t.status} in ('pending', 'confirmed', 'shipped', 'delivered', 'cancelled')`,
    ),
    check(
      'orders_amounts_check',
      sql`${t.subtotalCents} >= 0 and ${t.shippingCostCents} >= 0 and ${t.totalAmountCents} >= 0`,
    ),
    check('orders_discount_check', sql`${t.discountCents} >= 0`),
    // NULLS FIRST is what a plain ORDER BY … DESC means, so the index serves it.
    index('orders_created_at_idx').on(t.createdAt.desc().nullsFirst()),
    index('orders_token_created_at_idx').on(t.orderToken, t.createdAt.desc().nullsFirst()),
    // A shopper's account lists the orders placed with their e-mail, on any device (ADR 046).
    index('orders_email_created_at_idx').on(t.customerEmail, t.createdAt.desc().nullsFirst()),
    index('orders_status_created_at_idx').on(t.status, t.createdAt),
    index('orders_payment_id_idx').on(t.paymentId),
    // The carrier's notifications name its shipment, not our order.
    index('orders_label_shipment_idx')
      .on(sql`(${t.shippingLabel}->>'shipmentId')`)
      .where(sql`${t.shippingLabel} is not null`),
    uniqueIndex('orders_idempotency_key_idx').on(t.idempotencyKey),
    uniqueIndex('orders_number_idx').on(t.number),
    // The limit of unpaid orders counts them by CPF and by client address at every checkout.
    index('orders_pending_cpf_idx')
      .on(t.customerCpf)
      .where(sql`${t.status} = 'pending'`),
    index('orders_pending_client_address_idx')
      .on(t.clientAddressHash)
      .where(sql`${t.status} = 'pending'`),
    // The expiry job reads only unpaid orders with a deadline.
    index('orders_pending_expires_at_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    // Kept when the product is deleted later: the line keeps its own copy of what was bought.
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    // The variant bought, and copies of what names it (SKU, each option's value).
    variantId: uuid('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    sku: text('sku'),
    variantOptions: jsonb('variant_options').$type<VariantOptionValue[]>().notNull().default([]),
    productName: text('product_name').notNull(),
    productPriceCents: integer('product_price_cents').notNull(),
    quantity: integer('quantity').notNull(),
    totalPriceCents: integer('total_price_cents').notNull(),
    imageUrl: text('image_url'),
  },
  (t) => [
    check('order_items_quantity_check', sql`${t.quantity} > 0`),
    check(
      'order_items_amounts_check',
      sql`${t.productPriceCents} >= 0 and ${t.totalPriceCents} = ${t.productPriceCents} * ${t.quantity}`,
    ),
    index('order_items_order_id_idx').on(t.orderId),
  ],
);

export const ADJUSTMENT_KINDS = ['coupon', 'pix'] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];

/**
 * What the pricing pipeline took off (or added to) an order's subtotal and shipping, in its
 * order and with the label the shopper saw ('Cupom BEMVINDO10', 'Desconto PIX (10%)'): every
 * screen, e-mail and report reads them from here. The order's total is subtotal + shipping +
 * their sum.
 */
export const orderAdjustments = pgTable(
  'order_adjustments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind').$type<AdjustmentKind>().notNull(),
    label: text('label').notNull(),
    // Negative for a discount.
    amountCents: integer('amount_cents').notNull(),
    // A coupon that was used is never deleted (its uses and revenue are reported).
    couponId: uuid('coupon_id').references(() => coupons.id, { onDelete: 'restrict' }),
    // The code as the shopper used it, kept with the order as its lines keep product names.
    couponCode: text('coupon_code'),
  },
  (t) => [
    check('order_adjustments_kind_check', sql`${t.kind} in ('coupon', 'pix')`),
    check(
      'order_adjustments_coupon_check',
      sql`(${t.kind} = 'coupon') = (${t.couponId} is not null and ${t.couponCode} is not null)`,
    ),
    uniqueIndex('order_adjustments_order_position_idx').on(t.orderId, t.position),
    index('order_adjustments_coupon_id_idx')
      .on(t.couponId)
      .where(sql`${t.couponId} is not null`),
  ],
);

export const ORDER_EVENT_KINDS = [
  'status',
  'payment',
  'tracking',
  'label',
  'note',
  'invoice',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

/**
 * An order's timeline: every status change (by whom and when), payments seen, each step of its
 * carrier label and staff notes.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<OrderEventKind>().notNull(),
    fromStatus: text('from_status').$type<OrderStatus>(),
    toStatus: text('to_status').$type<OrderStatus>(),
    // The admin who acted; null for the shopper or the store itself (payments, expiry).
    adminUserId: uuid('admin_user_id').references(() => adminUsers.id, { onDelete: 'set null' }),
    // Who, as shown in the timeline, kept even when that admin is removed later.
    actor: text('actor').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('order_events_order_id_idx').on(t.orderId, t.id)],
);

/**
 * The time zones whose calendar days orderSalesDays keeps: the store's, added the first time its
 * figures are read in it (ensureSalesDays), and any it had before, still kept.
 */
export const orderSalesZones = pgTable('order_sales_zones', {
  timeZone: text('time_zone').primaryKey(),
});

/**
 * The orders placed on each calendar day of a time zone, by their status now: how many, their
 * totals and their discounts. The dashboard's figures over a year read a few hundred of these rows
 * instead of every order. Kept by a trigger on orders (migration 0031) that runs when the
 * transaction commits, so whatever writes orders (a checkout, a payment, the admin, plain SQL)
 * keeps them, and a day's row stays locked only for the commit.
 */
export const orderSalesDays = pgTable(
  'order_sales_days',
  {
    timeZone: text('time_zone')
      .notNull()
      .references(() => orderSalesZones.timeZone, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    status: text('status').$type<OrderStatus>().notNull(),
    orders: integer('orders').notNull(),
    // Sums: a big store passes 2^31 cents in a day's totals long before it passes them in one order.
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.timeZone, t.day, t.status] })],
);
