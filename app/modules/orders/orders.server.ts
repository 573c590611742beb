import { randomUUID } from 'node:crypto';

import {
  and,
  desc,
  eq,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { raisedRefusal } from '~/db/errors.server';
import { preparedPer, type ClaimPart, type StatementPart } from '~/db/prepared-statements.server';
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
 * the money as pricing gave it, and queues its e-mail and sales report, once the placement's
 * checks pass and every claim took its row; answers the order as written, so the caller need not
 * read it again, or why nothing was written.
 */
export async function insertOrder(
  db: Db,
  order: NewOrder,
  events: OrderEventOptions,
  parts: OrderStatementParts = {},
): Promise<InsertedOrder> {
  // Its id is chosen here, so its lines, adjustments, the timeline's first line, the work it
  // queues (placedOrderJobs) and the other modules' parts go with it in one statement, without
  // a transaction around it (ADR 056): each round trip is the server thread's own time, and on
  // PostgreSQL time the order's locks are held. Their foreign keys are checked at its end.
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
  const claims = parts.claims ?? [];
  const shape: OrderInsertShape = {
    lines: items.length,
    adjustments: adjustments.length,
    shipping: order.shipping !== null,
    checked: parts.placement !== undefined,
    claims,
    queued: enqueueingPart(placedOrderJobs(orderId, events), 'job'),
    alongside: parts.alongside?.(orderId),
  };
  const addressHash = clientAddressHash(order.clientAddress);
  const values: Record<string, unknown> = {
    ...shape.queued.values,
    ...shape.alongside?.values,
    ...(parts.placement && placementValues(order, addressHash, parts.placement)),
    ...Object.assign({}, ...claims.map((claim) => claim.values)),
    id: orderId,
    idempotencyKey: order.idempotencyKey,
    orderToken: order.orderToken,
    clientAddressHash: addressHash,
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
  try {
    const [row] = await statement.execute(values);
    return { ok: true, order: toView(row!, items, adjustments) };
  } catch (error) {
    const refusal = placementRefusal(error, claims);
    if (refusal) return { ok: false, refusal };
    throw error;
  }
}

/** What goes with an order in its statement besides its own rows. */
export interface OrderStatementParts {
  /** Checked first, under the placer's locks; without it the order is written unchecked. */
  placement?: OrderPlacement;
  /** Other modules' claims, taken in this order after the placement's checks. */
  claims?: readonly ClaimPart<Db>[];
  /** Another module's write that goes with the order (given the order's id). */
  alongside?: (orderId: string) => StatementPart<Db>;
}

/** The order as written, or why its statement wrote nothing. */
export type InsertedOrder =
  { ok: true; order: OrderView } | { ok: false; refusal: PlacementRefusal };

/** What the order's statement depends on besides its values. */
interface OrderInsertShape {
  lines: number;
  adjustments: number;
  /** Whether the order has a carrier's shipping (else the column keeps its default). */
  shipping: boolean;
  /** Whether the placement is checked (placementCheck) first. */
  checked: boolean;
  claims: readonly ClaimPart<Db>[];
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
    ...checks(db, shape),
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
      // Read through the checks, so they run (and may refuse) before the order is written.
      id:
        shape.checked || shape.claims.length > 0
          ? sql`(select ${orderId}::uuid from checked)`
          : orderId,
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
      shape.checked,
      shape.claims.map((claim) => claim.key).join(','),
      shape.queued.key,
      shape.alongside?.key ?? '',
    ].join('|'),
);

/**
 * The `with`s that check and claim before the order is written: the placement's check, then each
 * claim once the one before it took its row (the first once the check passed), then `checked`,
 * which refuses with the first claim that took nothing. A refusal raises, so the whole statement,
 * claims taken included, writes nothing.
 */
function checks(db: Db, shape: OrderInsertShape) {
  if (!shape.checked && shape.claims.length === 0) return [];
  const cte = (name: string, body: SQL) => db.$with(name, {}).as(body);
  const ctes = shape.checked ? [cte('placer', placementCheck())] : [];
  let after = shape.checked ? sql`exists (select 1 from placer)` : sql`true`;
  const refusals = shape.claims.map((claim, at) => {
    const name = `claim${at}`;
    ctes.push(cte(name, claim.build(db, after).getSQL()));
    after = sql`exists (select 1 from ${sql.identifier(name)})`;
    return sql`when not ${after} then vitrine_refuse('claim', ${sql.raw(`'${at}'`)})`;
  });
  const ok =
    refusals.length > 0 ? sql`case ${sql.join(refusals, sql` `)} else true end` : sql`true`;
  ctes.push(cte('checked', sql`select ${ok} as ok ${shape.checked ? sql`from placer` : sql``}`));
  return ctes;
}

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

/**
 * What an order's statement checks before it writes anything: the limit of unpaid orders
 * (pending, deadline not passed) of the order's browser, CPF and client address, and the coupon's
 * rules per shopper. Counted under transaction locks on each of the order's keys (browser, CPF,
 * e-mail, phone, door, client address): a checkout sharing one waits until this order is written
 * or refused, then counts it, so a burst of parallel checkouts cannot pass either limit.
 */
export interface OrderPlacement {
  maxPending: number;
  /** The coupon the order uses, for its rules per shopper; null without one. */
  coupon: { id: string; firstPurchaseOnly: boolean; usageLimitPerCustomer: number | null } | null;
}

/** Why an order's statement wrote nothing. */
export type PlacementRefusal =
  /**
   * `maxPending` reached by this browser (`browser`), else by its CPF or client address.
   * `openOrderId`: this browser's newest unpaid order, to pay it; never another browser's.
   */
  | { reason: 'too_many_pending'; browser: boolean; openOrderId: string | null }
  /** A first-purchase coupon, and the shopper, the phone or the door has an order already. */
  | { reason: 'first_purchase' }
  /** The shopper's orders (by CPF or e-mail) used the coupon as often as it allows one shopper. */
  | { reason: 'used_by_shopper' }
  /** The first claim that took nothing (stock gone or repriced, a coupon's last use gone). */
  | { reason: 'claim'; claim: ClaimPart<Db> };

/** The placement's values for this order, by the placeholder names of placementCheck. */
function placementValues(
  order: NewOrder,
  addressHash: string | null,
  { coupon, maxPending }: OrderPlacement,
): Record<string, unknown> {
  const { customer, address } = order;
  const door = houseNumber(address.number);
  const email = customer.email.toLowerCase();
  const lock = (key: string) => `vitrine:open-orders:${key}`;
  return {
    lockToken: lock(`token:${order.orderToken}`),
    lockCpf: lock(`cpf:${customer.cpf}`),
    lockEmail: lock(`email:${email}`),
    lockPhone: lock(`phone:${customer.phone}`),
    lockDoor: door ? lock(`door:${address.zipCode}:${door}`) : null,
    lockAddress: addressHash ? lock(`address:${addressHash}`) : null,
    placerToken: order.orderToken,
    placerCpf: customer.cpf,
    placerAddressHash: addressHash,
    placerEmail: email,
    placerPhone: customer.phone,
    placerZip: address.zipCode,
    placerDoor: door,
    checkFirstPurchase: coupon?.firstPurchaseOnly ?? false,
    countUsesOf: coupon?.usageLimitPerCustomer == null ? null : coupon.id,
    usesPerShopper: coupon?.usageLimitPerCustomer ?? null,
    maxPending,
  };
}

/**
 * The placement's check, the first part of the order's statement: the locks and the counts come
 * from one function (migration 0040), whose reads take their snapshots after its locks, which
 * this statement's own could not; a refusal raises, so nothing of the statement is written.
 */
function placementCheck(): SQL {
  const value = (name: string, type: string) => sql`${sql.placeholder(name)}::${sql.raw(type)}`;
  const max = value('maxPending', 'int');
  const locks = ['lockToken', 'lockCpf', 'lockEmail', 'lockPhone', 'lockDoor', 'lockAddress'];
  return sql`select case
      when o.browser >= ${max}
        then vitrine_refuse('too_many_pending', 'browser:' || coalesce(o.browser_order_id::text, ''))
      when o.cpf >= ${max} or o.address >= ${max}
        then vitrine_refuse('too_many_pending', 'elsewhere:' || coalesce(o.browser_order_id::text, ''))
      when o.has_ordered then vitrine_refuse('first_purchase')
      when o.coupon_uses >= ${value('usesPerShopper', 'int')} then vitrine_refuse('used_by_shopper')
      else true end as ok
    from vitrine_lock_open_orders(
      array_remove(array[${sql.join(
        locks.map((name) => value(name, 'text')),
        sql`, `,
      )}], null),
      ${value('placerToken', 'text')}, ${value('placerCpf', 'text')},
      ${value('placerAddressHash', 'text')}, ${value('placerEmail', 'text')},
      ${value('placerPhone', 'text')}, ${value('placerZip', 'text')},
      ${value('placerDoor', 'text')}, ${value('checkFirstPurchase', 'boolean')},
      ${value('countUsesOf', 'uuid')}) as o`;
}

/** What the order's statement raised as a refusal, if it did (else the error is another). */
function placementRefusal(
  error: unknown,
  claims: readonly ClaimPart<Db>[],
): PlacementRefusal | null {
  const raised = raisedRefusal(error);
  if (raised?.reason === 'too_many_pending') {
    const [who, openOrderId] = raised.detail.split(':');
    return {
      reason: 'too_many_pending',
      browser: who === 'browser',
      openOrderId: openOrderId || null,
    };
  }
  if (raised?.reason === 'first_purchase' || raised?.reason === 'used_by_shopper') {
    return { reason: raised.reason };
  }
  const claim = raised?.reason === 'claim' ? claims[Number(raised.detail)] : undefined;
  return claim ? { reason: 'claim', claim } : null;
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

/**
 * A house number as compared: without spaces, in capitals ('12 a' is '12A'), as migration 0040
 * compares the orders' numbers; null when it has no digit ('S/N', 'km 3' aside), since it then
 * names no single door on its CEP.
 */
function houseNumber(number: string): string | null {
  const compact = number.replace(/\s+/g, '').toUpperCase();
  return /\d/.test(compact) ? compact : null;
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
  now = new Date(),
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
        // Over by the clock that set `until`, the caller's, not the database's.
        or(isNull(orders.labelLeaseUntil), lt(orders.labelLeaseUntil, now)),
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
