import type { Db } from '~/db/database.server';
import { canonicalOrigin } from '~/lib/canonical-origin';
import type { Env } from '~/lib/env.server';
import { logger } from '~/lib/logger.server';
import {
  RESTOCK_CONFIRM_PARAM,
  RESTOCK_CONFIRM_PATH,
  variantLabel,
  variantPath,
} from '~/modules/catalog';
import {
  alertRestocked,
  confirmRestockRequest,
  getRestockAlert,
  issueRestockConfirmation,
  requestRestockAlert,
  RESTOCK_CONFIRM_TOPIC,
  RESTOCK_TOPIC,
  type PendingRestockRequest,
  type RestockMailPayload,
  type RestockRequestResult,
} from '~/modules/catalog/index.server';
import { enqueue, type OutboxHandler } from '~/modules/jobs/index.server';
import { restockConfirmEmail, restockEmail } from '~/modules/notifications';
import { type MailSending } from '~/modules/notifications/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';

import { emailStoreOf, sendStoreMail } from './mail-sending.server';

/**
 * 'Avise-me quando chegar' on a sold-out variant's page: the request is kept unconfirmed and, in
 * the same transaction, its confirmation e-mail queued, unless one went out less than
 * RESTOCK_RESEND_AFTER_MS ago (asking again and again sends nothing more).
 */
export function askForRestockAlert(
  db: Db,
  input: { productId?: string; variantId?: string; email: string },
): Promise<RestockRequestResult> {
  return db.transaction(async (tx) => {
    const result = await requestRestockAlert(tx, input);
    if (result.ok && result.confirmationDue) {
      const payload: RestockMailPayload = { requestId: result.confirmationDue };
      await enqueue(tx, RESTOCK_CONFIRM_TOPIC, payload);
    }
    return result;
  });
}

/**
 * The 'Confirmar' button of the confirmation page: the request is confirmed and, should its
 * product be back in stock already, its restock e-mail queued in the same transaction. Null for
 * an unknown, expired or closed token.
 */
export function confirmRestockAlert(db: Db, token: string): Promise<PendingRestockRequest | null> {
  return db.transaction(async (tx) => {
    const confirmed = await confirmRestockRequest(tx, token);
    if (confirmed) await alertRestocked(tx, [confirmed.productId]);
    return confirmed;
  });
}

function requestIdOf(payload: unknown): string {
  const requestId = (payload as { requestId?: unknown } | null)?.requestId;
  if (typeof requestId !== 'string') throw new Error('Outbox payload without a request id');
  return requestId;
}

/** The background worker's handlers for RESTOCK_TOPIC and RESTOCK_CONFIRM_TOPIC. */
export function restockHandlers({
  env,
  db,
  settings,
  mailSending,
}: {
  env: Env;
  db: Db;
  settings: SettingsStore;
  /** The SMTP server and sender in force, read for every message. */
  mailSending: () => Promise<MailSending>;
}): Record<string, OutboxHandler> {
  const send = async (
    to: string,
    render: (
      origin: string,
      store: Parameters<typeof restockEmail>[1],
    ) => ReturnType<typeof restockEmail>,
  ) => {
    const store = await settings.get();
    // The order e-mails' rule: PUBLIC_URL, else canonical_url's origin.
    const origin =
      env.PUBLIC_URL ?? canonicalOrigin(store.canonical_url) ?? `http://localhost:${env.PORT}`;
    const message = render(origin, emailStoreOf(store));
    await sendStoreMail(
      { dataDir: env.DATA_DIR, storeName: store.store_name, mailSending },
      { to, ...message },
    );
  };

  return {
    [RESTOCK_TOPIC]: async (payload) => {
      const requestId = requestIdOf(payload);
      const alert = await getRestockAlert(db, requestId);
      // The product was deleted since (its requests with it): nothing to announce.
      if (!alert) {
        logger.info({ requestId }, 'Restock request gone before its e-mail ran; skipped');
        return;
      }
      await send(alert.email, (origin, store) =>
        restockEmail(
          {
            email: alert.email,
            productName: variantLabel(alert.product),
            productUrl: `${origin}${variantPath(alert.product)}`,
          },
          store,
        ),
      );
    },
    [RESTOCK_CONFIRM_TOPIC]: async (payload) => {
      const requestId = requestIdOf(payload);
      // A retry makes a new token: the e-mail that goes out is the one whose link works.
      const confirmation = await issueRestockConfirmation(db, requestId);
      if (!confirmation) {
        logger.info(
          { requestId },
          'Restock request confirmed or gone before its e-mail ran; skipped',
        );
        return;
      }
      const query = new URLSearchParams({ [RESTOCK_CONFIRM_PARAM]: confirmation.token });
      await send(confirmation.email, (origin, store) =>
        restockConfirmEmail(
          {
            email: confirmation.email,
            productName: variantLabel(confirmation.product),
            confirmUrl: `${origin}${RESTOCK_CONFIRM_PATH}?${query}`,
          },
          store,
        ),
      );
    },
  };
}
