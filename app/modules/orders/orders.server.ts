import { randomUUID } from 'node:crypto';

import { and, desc, eq, inArray, isNull, lt, or, sql, type Placeholder } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { preparedPer, type StatementPart } from '~/db/prepared-statements.server';
import { isUuid } from '~/lib/uuid';
import { enqueueingPart } from '~/modules/jobs/index.server';
import { discountTotal } from '~/modules/pricing';
import type { ShippingLabel } from '~/modules/shipping';

import { clientAddressHash } from './client-address.server';
import { orderNumber } from './display';
import { EVENT_ACTORS } from './order-events.server';
import { placedOrderJobs, type OrderEventOptions } from './order-outbox.server';
import { orderAdjustments, orderEvents, orderItems, orders } from './schema';
import type { NewOrder, OrderAdjustment, OrderLine, OrderView } from './types';

type OrderRow = typeof orders.$inferSelect;
/** An order line as stored (its own id aside: an order written now is answered without reading it back). */
type ItemRow = Omit<typeof orderItems.$inferSelect, 'id'>;
type AdjustmentRow = Omit<typeof orderAdjustments.$inferSelect, 'id'>;

function toLine(item: ItemRow): OrderLine {
  return {
    productId: item.productId,
    variantId: item.variantId,
    sku: item.sku,
    options: item.variantOptions,
    name: item.productName,
    unitPriceCents: item.productPriceCents,
    quantity: item.quantity,
    totalCents: item.totalPriceCents,
    imageUrl: item.imageUrl,
  };
}

function toAdjustment(row: AdjustmentRow): OrderAdjustment {
  return {
    kind: row.kind,
    label: row.label,
    cents: row.amountCents,
    couponId: row.couponId,
    couponCode: row.couponCode,
  };
}

function toView(order: OrderRow, items: ItemRow[], adjustments: AdjustmentRow[]): OrderView {
  return {
    id: order.id,
    number: orderNumber(order.number),
    status: order.status,
    customer: {
      name: order.customerName,
      email: order.customerEmail,
      phone: order.customerPhone,
      cpf: order.customerCpf,
    },
    address: {
      street: order.shippingStreet,
      number: order.shippingNumber,
      complement: order.shippingComplement,
      neighborhood: order.shippingNeighborhood,
      city: order.shippingCity,
      state: order.shippingState,
      zipCode: order.shippingZip,
    },
    lines: items.map(toLine),
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCostCents,
    shipping: order.shippingMethod,
    adjustments: adjustments.map(toAdjustment),
    totalCents: order.totalAmountCents,
    paymentMethod: order.paymentMethod,
    payment: {
      provider: order.paymentProvider,
      id: order.paymentId,
      status: order.paymentStatus,
      pixCode: order.pixCode,
      expiresAt: order.expiresAt,
      url: order.paymentUrl,
      details: order.paymentDetails,
      review: order.paymentReview,
    },
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    latePaymentAt: order.latePaymentAt,
    cancelReason: order.cancelReason,
    cancelledAt: order.cancelledAt,
    trackingCode: order.trackingCode,
    trackingParameters: order.trackingParameters,
    accessKey: order.accessKey,
  };
}

async function withItems(db: Db, rows: OrderRow[]): Promise<OrderView[]> {
  if (rows.length === 0) return [];
  if (rows.length === 1) {
    const orderId = rows[0]!.id;
    const [items, adjustments] = await Promise.all([
      itemsRead(db).execute({ orderId }),
      adjustmentsRead(db).execute({ orderId }),
    ]);
    return [toView(rows[0]!, items, adjustments)];
  }
  const ids = rows.map((row) => row.id);
  const [items, adjustments] = await Promise.all([
    db.select().from(orderItems).where(inArray(orderItems.orderId, ids)).orderBy(orderItems.id),
    db
      .select()
      .from(orderAdjustments)
      .where(inArray(orderAdjustments.orderId, ids))
      .orderBy(orderAdjustments.position),
  ]);
  return rows.map((row) =>
    toView(
      row,
      items.filter((item) => item.orderId === row.id),
      adjustments.filter((adjustment) => adjustment.orderId === row.id),
    ),
  );
}

/**
 * One order's reads, each built once: the server reads an order whole for each e-mail, payment
 * and job, and the shopper's confirmation page reads its lines.
 */
const orderRead = preparedPer((db: Db) =>
  db
    .select()
    .from(orders)
    .where(eq(orders.id, sql.placeholder('orderId')))
    .prepare('vitrine_order'),
);
const itemsRead = preparedPer((db: Db) =>
  db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, sql.placeholder('orderId')))
    .orderBy(orderItems.id)
    .prepare('vitrine_order_items'),
);
const adjustmentsRead = preparedPer((db: Db) =>
  db
    .select()
    .from(orderAdjustments)
    .where(eq(orderAdjustments.orderId, sql.placeholder('orderId')))
    .orderBy(orderAdjustments.position)
    .prepare('vitrine_order_adjustments'),
);

/**
 * Writes a pending order and its lines (each copying the product's name, price and image) with
 * the money as pricing gave it, and queues its e-mail and sales report; answers the order as
 * written, so the caller need not read it again.
 */
export async function insertOrder(
  db: Db,
  order: NewOrder,
  events: OrderEventOptions,
  /** Another module's write that goes with the order in its statement (given the order's id). */
  alongside?: (orderId: string) => StatementPart<Db>,
): Promise<OrderView> {
  // Its id is chosen here, so its lines, adjustments, the timeline's first line and the work it
  // queues (placedOrderJobs) go with it in one statement: each round trip is the server thread's
  // own time on PGlite, and on PostgreSQL time the transaction's locks are held. Their foreign
  // keys are checked at the statement's end.
  const orderId = randomUUID();
  const items = order.lines.map((line) => ({
    orderId,
    productId: line.productId,
    productName: line.name,
    productPriceCents: line.unitPriceCents,
    quantity: line.quantity,
    totalPriceCents: line.totalCents,
    imageUrl: line.imageUrl,
    variantId: line.variantId,
    sku: line.sku,
    variantOptions: line.options,
  }));
  const adjustments = order.adjustments.map((adjustment, index) => ({
    orderId,
    position: index + 1,
    kind: adjustment.kind,
    label: adjustment.label,
    amountCents: adjustment.cents,
    couponId: adjustment.couponId,
    couponCode: adjustment.couponCode,
  }));
  const shape: OrderInsertShape = {
    lines: items.length,
    adjustments: adjustments.length,
    shipping: order.shipping !== null,
    queued: enqueueingPart(placedOrderJobs(orderId, events), 'job'),
    alongside: alongside?.(orderId),
  };
  const values: Record<string, unknown> = {
    ...shape.queued.values,
    ...shape.alongside?.values,
    id: orderId,
    idempotencyKey: order.idempotencyKey,
    orderToken: order.orderToken,
    clientAddressHash: clientAddressHash(order.clientAddress),
    customerName: order.customer.name,
    customerEmail: order.customer.email,
    customerPhone: order.customer.phone,
    customerCpf: order.customer.cpf,
    shippingZip: order.address.zipCode,
    shippingStreet: order.address.street,
    shippingNumber: order.address.number,
    shippingComplement: order.address.complement || null,
    shippingNeighborhood: order.address.neighborhood,
    shippingCity: order.address.city,
    shippingState: order.address.state,
    subtotalCents: order.subtotalCents,
    shippingCostCents: order.shippingCents,
    shippingMethod: order.shipping,
    totalAmountCents: order.totalCents,
    discountCents: discountTotal(order.adjustments),
    paymentMethod: order.paymentMethod,
    trackingParameters: order.trackingParameters,
    expiresAt: order.expiresAt,
    placedNote: order.placedNote,
  };
  items.forEach((item, at) => {
    for (const field of LINE_FIELDS) values[`line${at}${field}`] = item[field];
  });
  adjustments.forEach((adjustment, at) => {
    for (const field of ADJUSTMENT_FIELDS) values[`adjustment${at}${field}`] = adjustment[field];
  });
  const statement =
    shape.lines <= PREPARED_LINES && shape.adjustments <= PREPARED_ADJUSTMENTS
      ? preparedOrderInsert(db, shape)
      : orderInsert(db, shape);
  const [row] = await statement.execute(values);
  return toView(row!, items, adjustments);
}

/** What the order's statement depends on besides its values. */
interface OrderInsertShape {
  lines: number;
  adjustments: number;
  /** Whether the order has a carrier's shipping (else the column keeps its default). */
  shipping: boolean;
  queued: StatementPart<Db>;
  alongside: StatementPart<Db> | undefined;
}

const LINE_FIELDS = [
  'productId',
  'productName',
  'productPriceCents',
  'quantity',
  'totalPriceCents',
  'imageUrl',
  'variantId',
  'sku',
  'variantOptions',
] as const;
const ADJUSTMENT_FIELDS = ['kind', 'label', 'amountCents', 'couponId', 'couponCode'] as const;

/**
 * Orders of up to this many lines and adjustments send a statement built once per shape (every
 * order sends one, and building it was the costliest of a purchase's); a larger one is built
 * each time, so the shapes kept stay few.
 */
const PREPARED_LINES = 4;
const PREPARED_ADJUSTMENTS = 2;

/** insertOrder's statement, its values as placeholders named as insertOrder names them. */
function orderInsert(db: Db, shape: OrderInsertShape) {
  const value = (name: string) => sql.placeholder(name);
  const orderId = value('id');
  const placeholders = <Field extends string>(
    prefix: string,
    count: number,
    fields: readonly Field[],
  ) =>
    Array.from({ length: count }, (_, at) => {
      const row = { orderId } as Record<Field | 'orderId', Placeholder>;
      for (const field of fields) row[field] = value(`${prefix}${at}${field}`);
      return row;
    });
  const adjustments = placeholders('adjustment', shape.adjustments, ADJUSTMENT_FIELDS).map(
    (adjustment, at) => ({ ...adjustment, position: at + 1 }),
  );
  const written = [
    db.$with('placed', {}).as(
      db
        .insert(orderEvents)
        .values({
          orderId,
          kind: 'status',
          toStatus: 'pending',
          actor: EVENT_ACTORS.customer,
          note: value('placedNote'),
        })
        .getSQL(),
    ),
    db.$with('lines', {}).as(
      db
        .insert(orderItems)
        .values(placeholders('line', shape.lines, LINE_FIELDS))
        .getSQL(),
    ),
    ...(adjustments.length === 0
      ? []
      : [db.$with('adjustments', {}).as(db.insert(orderAdjustments).values(adjustments).getSQL())]),
    db.$with('queued', {}).as(shape.queued.build(db).getSQL()),
    ...(shape.alongside ? [db.$with('alongside', {}).as(shape.alongside.build(db).getSQL())] : []),
  ];
  return db
    .with(...written)
    .insert(orders)
    .values({
      id: orderId,
      idempotencyKey: value('idempotencyKey'),
      orderToken: value('orderToken'),
      clientAddressHash: value('clientAddressHash'),
      customerName: value('customerName'),
      customerEmail: value('customerEmail'),
      customerPhone: value('customerPhone'),
      customerCpf: value('customerCpf'),
      shippingZip: value('shippingZip'),
      shippingStreet: value('shippingStreet'),
      shippingNumber: value('shippingNumber'),
      shippingComplement: value('shippingComplement'),
      shippingNeighborhood: value('shippingNeighborhood'),
      shippingCity: value('shippingCity'),
      shippingState: value('shippingState'),
      subtotalCents: value('subtotalCents'),
      shippingCostCents: value('shippingCostCents'),
      // A JSON column would take a null value as JSON's null: without shipping it is left out.
      ...(shape.shipping ? { shippingMethod: value('shippingMethod') } : {}),
      totalAmountCents: value('totalAmountCents'),
      discountCents: value('discountCents'),
      paymentMethod: value('paymentMethod'),
      trackingParameters: value('trackingParameters'),
      expiresAt: value('expiresAt'),
    })
    .returning();
}

let orderInserts = 0;
const preparedOrderInsert = preparedPer(
  (db: Db, shape: OrderInsertShape) =>
    orderInsert(db, shape).prepare(`vitrine_order_insert_${orderInserts++}`),
  (shape) =>
    [
      shape.lines,
      shape.adjustments,
      shape.shipping,
      shape.queued.key,
      shape.alongside?.key ?? '',
    ].join('|'),
);

/** The order a checkout submission already created, with the browser that created it. */
export async function findOrderByIdempotencyKey(
  db: Db,
  idempotencyKey: string,
): Promise<{ id: string; orderToken: string; paymentId: string | null } | null> {
  const [row] = await db
    .select({ id: orders.id, orderToken: orders.orderToken, paymentId: orders.paymentId })
    .from(orders)
    .where(eq(orders.idempotencyKey, idempotencyKey));
  return row ?? null;
}

/** What opens an order's pages: the browser's order token, or the key in the order's e-mails. */
export interface OrderAccess {
  token: string | null;
  key?: string | null;
}

/**
 * The order, only for the browser that placed it or a link from its e-mails: another token, a
 * wrong key, an unknown id and a malformed one all answer null after the same single query, so
 * the answer tells nothing about other orders.
 */
export async function findOrderFor(
  db: Db,
  orderId: string,
  access: OrderAccess,
): Promise<OrderView | null> {
  const key = access.key && isUuid(access.key) ? access.key : null;
  if (!isUuid(orderId) || (!access.token && !key)) return null;
  const allowed = or(
    access.token ? eq(orders.orderToken, access.token) : undefined,
    key ? eq(orders.accessKey, key) : undefined,
  );
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), allowed));
  const [view] = await withItems(db, rows);
  return view ?? null;
}

/** The order a provider's payment id belongs to, for its postbacks. */
export async function findOrderIdByPaymentId(db: Db, paymentId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.paymentId, paymentId))
    .limit(1);
  return row?.id ?? null;
}

/** Any order by id, for the server's own work (payments, e-mails, jobs); never for a page. */
export async function getOrder(db: Db, orderId: string): Promise<OrderView | null> {
  if (!isUuid(orderId)) return null;
  const [view] = await withItems(db, await orderRead(db).execute({ orderId }));
  return view ?? null;
}

const HISTORY_LIMIT = 50;

/** This browser's orders, newest first. */
export async function listOrdersForToken(db: Db, orderToken: string): Promise<OrderView[]> {
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.orderToken, orderToken))
    .orderBy(desc(orders.createdAt))
    .limit(HISTORY_LIMIT);
  return withItems(db, rows);
}

/**
 * The orders placed with this e-mail (lower case, as the checkout stores it), newest first, on
 * any device: a signed-in shopper's account and data export (ADR 046).
 */
export async function listOrdersForEmail(
  db: Db,
  email: string,
  options: { all?: boolean } = {},
): Promise<OrderView[]> {
  const query = db
    .select()
    .from(orders)
    .where(eq(orders.customerEmail, email.toLowerCase()))
    .orderBy(desc(orders.createdAt));
  // The account page shows the latest; the data export holds them all.
  const rows = options.all ? await query : await query.limit(HISTORY_LIMIT);
  return withItems(db, rows);
}

/**
 * The order's row locked for a status change in the caller's transaction. With `skipLocked`, an
 * order another instance is changing right now answers null instead of waiting.
 */
export async function lockOrder(
  db: Db,
  orderId: string,
  options: { skipLocked?: boolean } = {},
): Promise<OrderView | null> {
  if (!isUuid(orderId)) return null;
  const rows = await db
    .select()
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update', options.skipLocked ? { skipLocked: true } : {});
  const [view] = await withItems(db, rows);
  return view ?? null;
}

/**
 * The order's row locked for a staff change that needs neither its lines nor its payment (a
 * note, a tracking code), in the caller's transaction.
 */
export async function lockOrderRow(
  db: Db,
  orderId: string,
): Promise<Pick<OrderView, 'status' | 'trackingCode'> | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db
    .select({ status: orders.status, trackingCode: orders.trackingCode })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  return row ?? null;
}

export interface PaymentFields {
  provider: string;
  paymentId: string;
  status: string;
  pixCode: string | null;
  pixQrCode: string | null;
  billetUrl: string | null;
  billetCode: string | null;
  paymentUrl: string | null;
  expiresAt: Date | null;
}

/** Stores a new payment on a still-pending order; false when the order is no longer pending. */
export async function recordPayment(
  db: Db,
  orderId: string,
  payment: PaymentFields,
): Promise<boolean> {
  const updated = await paymentRecording(db).execute({
    ...payment,
    orderId,
    expiresAt: payment.expiresAt?.toISOString() ?? null,
  });
  return updated.length > 0;
}

/**
 * recordPayment's update, built once: every order sends it. Its values go as
 * they are (Drizzle's `set` takes a placeholder only inside SQL), the time as text.
 */
const paymentRecording = preparedPer((db: Db) =>
  db
    .update(orders)
    .set({
      paymentProvider: sql`${sql.placeholder('provider')}`,
      paymentId: sql`${sql.placeholder('paymentId')}`,
      paymentStatus: sql`${sql.placeholder('status')}`,
      pixCode: sql`${sql.placeholder('pixCode')}`,
      pixQrCode: sql`${sql.placeholder('pixQrCode')}`,
      billetUrl: sql`${sql.placeholder('billetUrl')}`,
      billetCode: sql`${sql.placeholder('billetCode')}`,
      paymentUrl: sql`${sql.placeholder('paymentUrl')}`,
      paymentDetails: null,
      expiresAt: sql`${sql.placeholder('expiresAt')}::timestamptz`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(orders.id, sql.placeholder('orderId')), eq(orders.status, 'pending')))
    .returning({ id: orders.id })
    .prepare('vitrine_record_payment'),
);

/** Changes an order's row; the caller holds its lock and decided the change is allowed. */
export async function updateOrder(
  db: Db,
  orderId: string,
  change: Partial<
    Pick<
      OrderRow,
      | 'status'
      | 'paymentId'
      | 'paymentStatus'
      | 'paymentDetails'
      | 'paymentUrl'
      | 'paidAt'
      | 'cancelReason'
      | 'cancelledAt'
      | 'latePaymentAt'
      | 'paymentReview'
      | 'trackingCode'
    >
  >,
): Promise<void> {
  // The client address served only to count unpaid orders: it goes once the order is not.
  const erase = change.status && change.status !== 'pending' ? { clientAddressHash: null } : {};
  await db
    .update(orders)
    .set({ ...change, ...erase, updatedAt: sql`now()` })
    .where(eq(orders.id, orderId));
}

/** Who is placing an order, as the limit of unpaid orders counts them. */
export interface OrderPlacer {
  orderToken: string;
  /** Digits only, as orders store it. */
  cpf: string;
  /** Locked too, so a coupon's uses per shopper count one checkout at a time. */
  email: string;
  /** The request's client address (context.clientIp); '' when unknown. */
  clientAddress: string;
  /**
   * Locked too, so two first purchases to one phone or one door (hasOrdered) go one at a time.
   */
  phone: string;
  zipCode: string;
  number: string;
}

/** How many unpaid orders each key of a placer has, and this browser's newest one. */
export interface OpenOrders {
  browser: number;
  cpf: number;
  address: number;
  /** The newest unpaid order of this browser (its order token), to be paid first. */
  browserOrderId: string | null;
}

/**
 * Counts the unpaid orders (pending, deadline not passed) of this browser, this CPF and this
 * client address, after taking a transaction lock on each of the three: a checkout of the same
 * browser, CPF or address waits until this transaction ends, then counts the order it wrote.
 * So a burst of parallel checkouts cannot pass the limit. Call it in the placing transaction.
 */
export async function lockOpenOrders(db: Db, placer: OrderPlacer): Promise<OpenOrders> {
  const addressHash = clientAddressHash(placer.clientAddress);
  const keys = [
    `token:${placer.orderToken}`,
    `cpf:${placer.cpf}`,
    `email:${placer.email.toLowerCase()}`,
    `phone:${placer.phone}`,
  ];
  const door = houseNumber(placer.number);
  if (door) keys.push(`door:${placer.zipCode}:${door}`);
  if (addressHash) keys.push(`address:${addressHash}`);
  const names = sql.join(
    keys.map((key) => sql`${`vitrine:open-orders:${key}`}`),
    sql`, `,
  );
  // The locks and the count in one round trip; the count's snapshot is taken after the locks
  // (migration 0039).
  const result = await db.execute(
    sql`select browser, cpf, address, browser_order_id as "browserOrderId"
        from vitrine_lock_open_orders(array[${names}]::text[], ${placer.orderToken}, ${placer.cpf}, ${addressHash})`,
  );
  // An aggregate without GROUP BY: always one row, its counts 0 when nothing matched.
  return (result as unknown as { rows: OpenOrders[] }).rows[0]!;
}

/** Unpaid orders whose payment deadline passed, oldest deadline first. */
export async function listExpiredOrders(
  db: Db,
  now: Date,
  limit: number,
): Promise<{ id: string; paymentId: string | null }[]> {
  return (
    db
      .select({ id: orders.id, paymentId: orders.paymentId })
      .from(orders)
      // A payment staff must look at holds its order: money may have been taken.
      .where(
        and(eq(orders.status, 'pending'), lt(orders.expiresAt, now), isNull(orders.paymentReview)),
      )
      .orderBy(orders.expiresAt)
      .limit(limit)
  );
}

/** Whose orders a coupon's per-shopper limits count: the same CPF or the same e-mail. */
export interface CouponShopper {
  cpf: string;
  email: string;
}

function sameShopper(shopper: CouponShopper) {
  return or(
    eq(orders.customerCpf, shopper.cpf),
    eq(sql`lower(${orders.customerEmail})`, shopper.email.toLowerCase()),
  );
}

/**
 * How many of this shopper's orders, not cancelled, used the coupon. Called under
 * lockOpenOrders' locks on the CPF and e-mail, so two checkouts of one shopper count in turn.
 */
export async function countCouponUses(
  db: Db,
  couponId: string,
  shopper: CouponShopper,
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(distinct ${orders.id})::int` })
    .from(orders)
    .innerJoin(orderAdjustments, eq(orderAdjustments.orderId, orders.id))
    .where(
      and(
        eq(orderAdjustments.couponId, couponId),
        sql`${orders.status} <> 'cancelled'`,
        sameShopper(shopper),
      ),
    );
  return row?.count ?? 0;
}

/**
 * Who a first purchase would be for: the shopper, and the phone and delivery address given.
 * A fresh e-mail and any valid CPF are free to make up; a phone and a door to deliver to are not.
 */
export interface FirstPurchaseShopper extends CouponShopper {
  /** Digits only, as orders store it. */
  phone: string;
  /** The delivery CEP's digits and the house number as typed. */
  zipCode: string;
  number: string;
}

/** What a house number drops before it is compared, here and in the database alike. */
const SPACES = '\\s+';

/**
 * A house number as compared: without spaces, in capitals ('12 a' is '12A'); null when it has
 * no digit ('S/N', 'km 3' aside), since it then names no single door on its CEP.
 */
function houseNumber(number: string): string | null {
  const compact = number.replace(new RegExp(SPACES, 'g'), '').toUpperCase();
  return /\d/.test(compact) ? compact : null;
}

/**
 * Whether an order not cancelled was already made by this shopper (CPF or e-mail), to this phone,
 * or to this door (CEP and house number): then it is no first purchase.
 */
export async function hasOrdered(db: Db, shopper: FirstPurchaseShopper): Promise<boolean> {
  const door = houseNumber(shopper.number);
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        sql`${orders.status} <> 'cancelled'`,
        or(
          sameShopper(shopper),
          eq(orders.customerPhone, shopper.phone),
          door === null
            ? undefined
            : and(
                eq(orders.shippingZip, shopper.zipCode),
                sql`upper(regexp_replace(${orders.shippingNumber}, ${SPACES}, '', 'g')) = ${door}`,
              ),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** What buying an order's label reads of it, besides its lines (getOrder). */
export interface LabelState {
  status: OrderView['status'];
  shipping: OrderView['shipping'];
  label: ShippingLabel | null;
}

/**
 * Takes the order's label for one request until `until`: null while another request holds it
 * (two clicks, two admins, two instances), so only one of them talks to the carrier at a time.
 * The lease is its end, which is also its holder's token: each end is set later than the one
 * before it, so no two leases of an order ever share one.
 */
export async function claimLabelLease(
  db: Db,
  orderId: string,
  until: Date,
): Promise<LabelLease | null> {
  if (!isUuid(orderId)) return null;
  const [taken] = await db
    .update(orders)
    .set({
      labelLeaseUntil: sql`greatest(${until}::timestamptz,
        ${orders.labelLeaseUntil} + interval '1 millisecond')`,
    })
    .where(
      and(
        eq(orders.id, orderId),
        or(isNull(orders.labelLeaseUntil), lt(orders.labelLeaseUntil, sql`now()`)),
      ),
    )
    .returning({ until: orders.labelLeaseUntil });
  return taken?.until ? { orderId, until: taken.until } : null;
}

/** A request's hold on an order's label (claimLabelLease). */
export interface LabelLease {
  orderId: string;
  until: Date;
}

/**
 * Lets go of this lease only: a request that outlived its lease (a carrier slower than it) finds
 * another request's in its place, and leaves that one alone.
 */
export async function releaseLabelLease(db: Db, lease: LabelLease): Promise<void> {
  await db
    .update(orders)
    .set({ labelLeaseUntil: null })
    .where(and(eq(orders.id, lease.orderId), eq(orders.labelLeaseUntil, lease.until)));
}

/** The order's label and status, its row locked in the caller's transaction. */
export async function lockLabelState(db: Db, orderId: string): Promise<LabelState | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db
    .select({
      status: orders.status,
      shipping: orders.shippingMethod,
      label: orders.shippingLabel,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  return row ?? null;
}

/** Saves how far the label has gone (null: none, start again); the caller holds the order's lock. */
export async function saveShippingLabel(
  db: Db,
  orderId: string,
  label: ShippingLabel | null,
): Promise<void> {
  await db
    .update(orders)
    .set({ shippingLabel: label, updatedAt: sql`now()` })
    .where(eq(orders.id, orderId));
}

/** The order whose label is this carrier shipment, if any. */
export async function findOrderIdByShipment(db: Db, shipmentId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        sql`${orders.shippingLabel} is not null`,
        sql`(${orders.shippingLabel}->>'shipmentId') = ${shipmentId}`,
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

/**
 * Claims up to `limit` shipped orders with a label whose tracking was not read since
 * `checkedBefore`, marking them read now: every instance may run the periodic check, and each
 * order is taken by one of them per round.
 */
export async function claimLabelsToTrack(
  db: Db,
  checkedBefore: Date,
  limit: number,
): Promise<string[]> {
  const due = db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'shipped'),
        sql`${orders.shippingLabel} is not null`,
        sql`coalesce((${orders.shippingLabel}->>'checkedAt')::timestamptz, '-infinity') < ${checkedBefore.toISOString()}::timestamptz`,
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(orders)
    .set({
      shippingLabel: sql`jsonb_set(${orders.shippingLabel}, '{checkedAt}', to_jsonb(now()))`,
    })
    .where(inArray(orders.id, due))
    .returning({ id: orders.id });
  return claimed.map((row) => row.id);
}
