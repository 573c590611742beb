import type { Db } from '~/db/database.server';
import { orders } from '~/db/schema';
import type { OrderStatus } from '~/modules/orders';

interface OrderRowOptions {
  /** The order's total (and subtotal: no shipping cost). */
  cents: number;
  /** The table's default, pending, when left out. */
  status?: OrderStatus;
  /** Now when left out. */
  createdAt?: Date;
  orderToken?: string;
}

/**
 * An order written straight into the table, as if placed at `createdAt`: no items, no stock
 * taken, no payment; the customer is Maria da Silva of Avenida Paulista.
 */
export async function insertOrderRow(db: Db, options: OrderRowOptions) {
  const [order] = await db
    .insert(orders)
    .values({
      customerName: 'Maria da Silva',
      customerEmail: 'maria@example.com',
      customerPhone: '11987654321',
      customerCpf: '52998224725',
      shippingZip: '01310100',
      shippingStreet: 'Avenida Paulista',
      shippingNumber: '1000',
      shippingNeighborhood: 'Bela Vista',
      shippingCity: 'São Paulo',
      shippingState: 'SP',
      subtotalCents: options.cents,
      totalAmountCents: options.cents,
      status: options.status,
      orderToken: options.orderToken ?? 'token-do-navegador',
      createdAt: options.createdAt,
    })
    .returning();
  return order!;
}
