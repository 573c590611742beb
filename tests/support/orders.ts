import { randomUUID } from 'node:crypto';

import type { Db } from '~/db/database.server';
import { orders } from '~/db/schema';
import type { OrderStatus } from '~/modules/orders';
import { insertOrder } from '~/modules/orders/index.server';
import type { OrderShipping } from '~/modules/shipping';

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

type NewOrder = Parameters<typeof insertOrder>[1];

/** The order insertOrder wrote; it throws when the statement refused it. */
export async function writtenOrder(...args: Parameters<typeof insertOrder>) {
  const written = await insertOrder(...args);
  if (!written.ok) throw new Error(`The order was refused: ${written.refusal.reason}`);
  return written.order;
}

/** A carrier's service as an order stores it: Melhor Envio's SEDEX, three business days. */
export const SEDEX_SHIPPING: OrderShipping = {
  provider: 'melhorenvio',
  serviceId: '2',
  carrier: 'Correios',
  service: 'SEDEX',
  businessDays: 3,
  approximate: false,
};

/**
 * An order as checkout hands it to insertOrder: Maria da Silva of Avenida Paulista (at `email`
 * when given), one R$ 100,00 headphone unless `lines` say otherwise, the subtotal and total
 * theirs, paid by PIX within the hour; `overrides` change the rest.
 */
export function newOrder(overrides: Partial<NewOrder> & { email?: string } = {}): NewOrder {
  const { email = 'maria@example.com', ...rest } = overrides;
  const lines = rest.lines ?? [
    {
      productId: null,
      variantId: null,
      sku: null,
      options: [],
      name: 'Fone Bluetooth',
      unitPriceCents: 10_000,
      quantity: 1,
      totalCents: 10_000,
      imageUrl: null,
    },
  ];
  const subtotalCents = lines.reduce((sum, line) => sum + line.totalCents, 0);
  return {
    idempotencyKey: randomUUID(),
    orderToken: randomUUID(),
    clientAddress: '203.0.113.7',
    customer: { name: 'Maria da Silva', email, phone: '11987654321', cpf: '52998224725' },
    address: {
      zipCode: '01310100',
      street: 'Avenida Paulista',
      number: '1000',
      complement: null,
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
    },
    paymentMethod: 'pix',
    lines,
    subtotalCents,
    shippingCents: 0,
    shipping: null,
    adjustments: [],
    totalCents: subtotalCents,
    trackingParameters: {},
    expiresAt: new Date(Date.now() + 3_600_000),
    placedNote: 'Pedido realizado na loja.',
    ...rest,
  };
}
