import { desc, eq } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { orderEvents, type OrderEventKind, type OrderStatus } from './schema';
import type { OrderEvent } from './order-events';

/** Who the timeline names for the changes the store makes itself. */
export const EVENT_ACTORS = {
  customer: 'Cliente',
  payment: 'Pagamento',
  system: 'Sistema',
} as const;

export interface NewOrderEvent {
  orderId: string;
  kind: OrderEventKind;
  fromStatus?: OrderStatus | null;
  toStatus?: OrderStatus | null;
  /** The admin who acted, when one did. */
  adminUserId?: string | null;
  /** Who, as the timeline shows it: the admin's name, 'Cliente', 'Pagamento' or 'Sistema'. */
  actor: string;
  note?: string | null;
}

/** Adds a line to the order's timeline; run it in the transaction of the change it records. */
export async function recordOrderEvent(db: Db, event: NewOrderEvent): Promise<void> {
  await db.insert(orderEvents).values({
    orderId: event.orderId,
    kind: event.kind,
    fromStatus: event.fromStatus ?? null,
    toStatus: event.toStatus ?? null,
    adminUserId: event.adminUserId ?? null,
    actor: event.actor,
    note: event.note ?? null,
  });
}

/**
 * The order's timeline, newest first as the admin shows it (ids grow with time, and break ties
 * within a second).
 */
export async function listOrderEvents(db: Db, orderId: string): Promise<OrderEvent[]> {
  return db
    .select({
      id: orderEvents.id,
      kind: orderEvents.kind,
      fromStatus: orderEvents.fromStatus,
      toStatus: orderEvents.toStatus,
      actor: orderEvents.actor,
      note: orderEvents.note,
      createdAt: orderEvents.createdAt,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(desc(orderEvents.id));
}
