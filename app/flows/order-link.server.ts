import type { Db } from '~/db/database.server';
import { findOrderForContact, type OrderLookup } from '~/modules/orders/index.server';

import { mailOrder, ORDER_TOPICS } from './order-events.server';

/**
 * 'Encontrar meu pedido': when an order has this number and was placed with this e-mail or CPF,
 * its link (the one its e-mails carry) is queued to the e-mail on file, in the same transaction
 * as the look-up. Answers whether one was queued, which the page never tells: it says the same
 * either way.
 */
export function sendOrderLink(db: Db, lookup: OrderLookup): Promise<boolean> {
  return db.transaction(async (tx) => {
    const orderId = await findOrderForContact(tx, lookup);
    if (!orderId) return false;
    await mailOrder(tx, ORDER_TOPICS.orderLink, orderId);
    return true;
  });
}
