import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import type { DayRange } from '~/lib/periods';
import { productCounts } from '~/modules/catalog/index.server';
import type { ConnectionsStore } from '~/modules/connections/index.server';
import { connectionState, erpAlerts } from '~/modules/erp/index.server';
import { salesByDay, salesMetrics } from '~/modules/orders/index.admin.server';
import type { PaymentProvider } from '~/modules/payments';
import { recoveredSales } from '~/modules/recovery/index.admin.server';
import type { StoreSettings } from '~/modules/settings';
import type { SettingsStore } from '~/modules/settings/index.server';
import type { ShippingQuoter } from '~/modules/shipping/index.server';

import { goLive } from './go-live.server';
import { storeReadiness } from './store-readiness.server';

/** What the dashboard needs of the request's context. */
interface DashboardScope {
  db: Db;
  settings: Pick<SettingsStore, 'mode' | 'forget'>;
  connections: Pick<ConnectionsStore, 'get'>;
  payments(): Promise<PaymentProvider | null>;
  shipping(): Promise<ShippingQuoter | null>;
  publicUrl: string | null;
}

/** A period the dashboard shows, and the one of equal length it is compared with. */
interface ComparedRange {
  range: DayRange;
  previous: DayRange;
}

/**
 * The dashboard of the period asked (and the month to date, in the store's time zone): the
 * orders' figures and sales by day, the catalogue's size and what it gained, the revenue of
 * orders recovered from abandoned checkouts, and for a live store what it still lacks before a
 * real sale ('Falta para vender').
 */
export async function loadDashboard(
  scope: DashboardScope,
  settings: StoreSettings,
  periods: { period: ComparedRange; month: ComparedRange },
) {
  const { period, month } = periods;
  const timeZone = settings.timezone;
  const [
    metrics,
    days,
    products,
    mode,
    connections,
    provider,
    carrier,
    recovered,
    before,
    erp,
    bling,
  ] = await Promise.all([
    salesMetrics(scope.db, { period, month, timeZone }),
    salesByDay(scope.db, period.range, timeZone),
    productCounts(scope.db, period.range, timeZone),
    scope.settings.mode(),
    scope.connections.get(),
    scope.payments(),
    scope.shipping(),
    recoveredSales(scope.db, period.range, timeZone),
    recoveredSales(scope.db, period.previous, timeZone),
    erpAlerts(scope.db),
    connectionState(scope.db, 'bling'),
  ]);
  const readiness = await storeReadiness(scope.db, {
    mode,
    settings,
    connections,
    provider,
    publicUrl: scope.publicUrl,
    carriers: carrier !== null,
  });
  // Orders placed after a recovery link restored their cart (abandoned checkouts).
  const recovery = { current: recovered.cents, previous: before.cents };
  return {
    metrics,
    days,
    products,
    recovery,
    demo: mode === 'demo',
    readiness,
    // Bling's word that staff must act on: a revoked authorization, rejected notes, refused orders.
    invoices: { revoked: bling.state === 'revoked', ...erp },
  };
}

export const GO_LIVE_MESSAGES = {
  failed: 'Erro ao começar a loja real',
  done: 'Loja real começada: os dados de exemplo foram excluídos.',
  alreadyLive: 'A loja já é real: não há dados de exemplo a excluir.',
} as const;

/**
 * 'Começar loja real' on the dashboard: the demo store becomes live, for good (goLive), and this
 * instance's next page does not wait for the notification the others hear. The answer is what
 * staff read, with the status it goes with when nothing was done.
 */
export async function goLiveFromDashboard(
  scope: Pick<DashboardScope, 'db' | 'settings'>,
): Promise<{ ok: true; message: string } | { ok: false; status: 409 | 503; message: string }> {
  let result;
  try {
    result = await goLive(scope.db);
  } catch (error) {
    logger.error({ err: error }, 'Could not make the store live');
    return {
      ok: false,
      status: 503,
      message: `${GO_LIVE_MESSAGES.failed}. Nada foi excluído: tente novamente em instantes.`,
    };
  }
  scope.settings.forget();
  if (!result.ok) return { ok: false, status: 409, message: GO_LIVE_MESSAGES.alreadyLive };
  logger.info({ deleted: result.deleted }, 'Demo store made live');
  return { ok: true, message: GO_LIVE_MESSAGES.done };
}
