import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { claimRecurringRun } from '~/modules/jobs/index.server';
import type { OrderEventOptions } from '~/modules/orders/index.server';
import type { PaymentProvider } from '~/modules/payments';
import { isPixApiProvider, type PixApiProvider } from '~/modules/payments/index.server';

import { applyPaymentReport, type StatusOutcome } from './order-changes.server';

/** The recurring run's name in the database (recurring_runs). */
const PIX_API_RECONCILIATION = 'pix-api-reconciliation';

/**
 * Re-reads each charge from the bank (`GET /cob/{txid}`) and applies what it says to its order,
 * once: what a webhook, and the reconciliation, name is only a hint. `failed`: charges the bank
 * did not answer for, to be asked again (the bank retries its webhook; the job runs again).
 */
export async function settlePixCharges(
  db: Db,
  provider: PixApiProvider,
  txids: readonly string[],
  events: OrderEventOptions,
): Promise<{ outcomes: StatusOutcome[]; failed: number }> {
  const outcomes: StatusOutcome[] = [];
  let failed = 0;
  for (const txid of txids) {
    const answer = await provider.status(txid);
    if (!answer.ok) {
      logger.warn({ txid, error: answer.error }, 'API Pix: could not read a charge');
      failed += 1;
      continue;
    }
    const report = answer.value;
    if (!report.orderId) continue;
    outcomes.push(
      await applyPaymentReport(
        db,
        { orderId: report.orderId, provider: provider.name, report },
        events,
      ),
    );
  }
  return { outcomes, failed };
}

/**
 * The reconciliation: every `intervalMs`, one instance of the store (the database decides which)
 * lists the PIX received over the last two intervals and settles their charges, so a webhook that
 * never came leaves no paid order pending for longer than an interval. Answers the orders it
 * changed, or null when it was not this instance's turn.
 */
export async function reconcilePixPayments(
  db: Db,
  provider: PaymentProvider | null,
  events: OrderEventOptions,
  options: { intervalMs: number; now?: Date },
): Promise<number | null> {
  if (!isPixApiProvider(provider)) return null;
  const now = options.now ?? new Date();
  if (!(await claimRecurringRun(db, PIX_API_RECONCILIATION, options.intervalMs, now))) return null;
  // Two intervals and a margin back: a run that failed or came late leaves no gap.
  const since = new Date(now.getTime() - 2 * options.intervalMs - 60_000);
  const received = await provider.received(since, now);
  if (!received.ok) {
    logger.warn({ error: received.error }, 'API Pix reconciliation: could not list received PIX');
    return 0;
  }
  const { outcomes } = await settlePixCharges(db, provider, received.value, events);
  return outcomes.filter((outcome) => outcome !== 'unchanged').length;
}

/**
 * Tells the bank where to call (`PUT /webhook/{chave}`): at start and from the admin. Answers
 * the address registered, or null when the provider is not the API Pix.
 */
export async function registerPixWebhook(
  provider: PaymentProvider | null,
): Promise<{ ok: true; url: string } | { ok: false; error: string } | null> {
  if (!isPixApiProvider(provider)) return null;
  const registered = await provider.registerWebhook();
  if (!registered.ok) {
    logger.warn({ error: registered.error }, 'API Pix: the webhook was not registered');
    return registered;
  }
  logger.info({ url: registered.value }, 'API Pix webhook registered');
  return { ok: true, url: registered.value };
}
