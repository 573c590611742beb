import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { ORDER_LOOKUP_MESSAGES } from '~/modules/orders';
import {
  findOrderForContact,
  orderContactKey,
  type OrderLookup,
  mailOrder,
  ORDER_TOPICS,
} from '~/modules/orders/index.server';
import {
  ANY_ADDRESS,
  hitRateLimit,
  RATE_LIMITS,
  waitText,
} from '~/modules/rate-limits/index.server';

/**
 * Counts an 'Encontrar meu pedido' from this client address (RATE_LIMITS.orderLookup), before
 * anything is read. Null while allowed; past the limit, what the page tells and how long to wait.
 */
export async function countOrderLookup(
  db: Db,
  clientIp: string,
): Promise<{ message: string; retryAfterSeconds: number } | null> {
  const verdict = await hitRateLimit(db, RATE_LIMITS.orderLookup, { address: clientIp });
  if (verdict.allowed) return null;
  const { retryAfterSeconds } = verdict;
  return { message: ORDER_LOOKUP_MESSAGES.busy(waitText(retryAfterSeconds)), retryAfterSeconds };
}

/**
 * 'Encontrar meu pedido': when an order has this number and was placed with this e-mail or CPF,
 * its link (the one its e-mails carry) is queued to the e-mail on file, in the same transaction
 * as the look-up. Answers whether one was queued, which the page never tells: it says the same
 * either way.
 *
 * Only a match counts against its e-mail or CPF (RATE_LIMITS.orderLookupForContact, from any
 * address), and past the limit nothing more is queued that hour. The limit keeps the owner's
 * inbox from being flooded; counting guesses that matched nothing would let a stranger spend it
 * and lock the owner out. Spending it takes the order's number and contact, and each spend puts
 * a working link in the owner's inbox: whoever spent it, the owner holds a way into the order.
 */
export function sendOrderLink(db: Db, lookup: OrderLookup): Promise<boolean> {
  return db.transaction(async (tx) => {
    const orderId = await findOrderForContact(tx, lookup);
    if (!orderId) return false;
    const forContact = await hitRateLimit(tx, RATE_LIMITS.orderLookupForContact, {
      address: ANY_ADDRESS,
      account: orderContactKey(lookup.contact),
    });
    if (!forContact.allowed) {
      logger.warn({ orderId }, 'Order link not sent: too many for this e-mail or CPF this hour');
      return false;
    }
    await mailOrder(tx, ORDER_TOPICS.orderLink, orderId);
    return true;
  });
}
