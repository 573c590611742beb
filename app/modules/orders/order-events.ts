import type { OrderEventKind, OrderStatus } from './schema';

/** One line of an order's timeline, as the admin shows it. */
export interface OrderEvent {
  id: number;
  kind: OrderEventKind;
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus | null;
  actor: string;
  note: string | null;
  createdAt: Date;
}
