import type { Db } from '~/db/database.server';
import { canonicalOrigin } from '~/lib/canonical-origin';
import type { Env } from '~/lib/env.server';
import { logger } from '~/lib/logger.server';
import { productPath } from '~/modules/catalog';
import { getRestockAlert, takeRestockAlerts } from '~/modules/catalog/index.server';
import { enqueue, type OutboxHandler } from '~/modules/jobs/index.server';
import { restockEmail } from '~/modules/notifications';
import { createMailer } from '~/modules/notifications/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';

/** The outbox topic of the 'Chegou: …' e-mail, one row per request. */
export const RESTOCK_TOPIC = 'email.restock';

export interface RestockMailPayload {
  requestId: string;
}

/**
 * Call in the transaction that wrote these products' stock (admin save, CSV import, stock put
 * back by a cancelled order): the open 'Avise-me quando chegar' requests of those now in stock
 * are closed, and each gets its e-mail queued in the outbox, so a rollback sends nothing and a
 * commit sends each e-mail once (with the outbox's retries). Answers how many were queued.
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

function requestIdOf(payload: unknown): string {
  const requestId = (payload as { requestId?: unknown } | null)?.requestId;
  if (typeof requestId !== 'string') throw new Error('Outbox payload without a request id');
  return requestId;
}

/** The background worker's handler for RESTOCK_TOPIC (see startBackgroundJobs). */
export function restockHandlers({
  env,
  db,
  settings,
}: {
  env: Env;
  db: Db;
  settings: SettingsStore;
}): Record<string, OutboxHandler> {
  return {
    [RESTOCK_TOPIC]: async (payload) => {
      const requestId = requestIdOf(payload);
      const alert = await getRestockAlert(db, requestId);
      // The product was deleted since (its requests with it): nothing to announce.
      if (!alert) {
        logger.info({ requestId }, 'Restock request gone before its e-mail ran; skipped');
        return;
      }
      const store = await settings.get();
      // The order e-mails' rule: PUBLIC_URL, else canonical_url's origin.
      const origin =
        env.PUBLIC_URL ?? canonicalOrigin(store.canonical_url) ?? `http://localhost:${env.PORT}`;
      const message = restockEmail(
        {
          email: alert.email,
          productName: alert.product.name,
          productUrl: `${origin}${productPath(alert.product)}`,
        },
        {
          name: store.store_name,
          contactEmail: store.contact_email || undefined,
          contactPhone: store.contact_phone || undefined,
          timeZone: store.timezone,
        },
      );
      const mailer = createMailer({
        smtpUrl: env.SMTP_URL,
        from: env.SMTP_FROM,
        storeName: store.store_name,
        dataDir: env.DATA_DIR,
      });
      await mailer.send({ to: alert.email, ...message });
    },
  };
}
