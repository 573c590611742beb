import type { Db } from '~/db/database.server';
import { enqueue } from '~/modules/jobs/index.server';

import { takeRestockAlerts } from './restock.server';

/** The outbox topic of the 'Chegou: …' e-mail, one row per request. */
export const RESTOCK_TOPIC = 'email.restock';
/** The outbox topic of the 'Confirme o aviso: …' e-mail, one row per e-mail due. */
export const RESTOCK_CONFIRM_TOPIC = 'email.restock-confirm';

/** Both topics' payload: the request's id (the confirmation's token is made when it is sent). */
export interface RestockMailPayload {
  requestId: string;
}

/**
 * Call in the transaction that wrote these products' stock (admin save, CSV import, stock put
 * back by a cancelled order) or confirmed a request: the open, confirmed 'Avise-me quando
 * chegar' requests of those now in stock are closed, and each gets its e-mail queued in the
 * outbox, so a rollback sends nothing and a commit sends each e-mail once (with the outbox's
 * retries). Answers how many were queued.
 */
export async function alertRestocked(tx: Db, productIds: readonly string[]): Promise<number> {
  if (productIds.length === 0) return 0;
  const alerts = await takeRestockAlerts(tx, productIds);
  for (const alert of alerts) {
    const payload: RestockMailPayload = { requestId: alert.requestId };
    await enqueue(tx, RESTOCK_TOPIC, payload);
  }
  return alerts.length;
}
