import { logger } from '~/lib/logger.server';
import type { ConnectionsStore } from '~/modules/connections/index.server';
import type { Db } from '~/db/database.server';
import { ERP_MESSAGES, type ErpConnectionState } from '~/modules/erp';
import type { IntegrationsForm } from '~/modules/erp/index.admin';
import {
  beginAuthorization,
  connectionState,
  ErpError,
  saveAuthorization,
  takeAuthorizationState,
} from '~/modules/erp/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';

import type { ErpAccess } from './erp-orders.server';
import { saveConnections, type SaveConnectionsResult } from './save-connections.server';

// /admin/integrations: the Bling application's credentials (stored like every secret) and the
// OAuth connection itself, begun here and finished at the callback with its state checked.

export const BLING_CALLBACK_PATH = '/admin/integrations/bling/callback';

interface IntegrationsScope {
  db: Db;
  connections: ConnectionsStore;
  settings: Pick<SettingsStore, 'get'>;
  erp(): Promise<ErpAccess | null>;
  mercadoPagoApiUrl: string;
  melhorEnvioApiUrl: string;
  melhorEnvioUserAgent: string | null;
}

/** The screen: the client id, where each credential comes from, and the connection's state. */
export async function integrationsScreen(scope: IntegrationsScope) {
  const [connections, access] = await Promise.all([scope.connections.get(), scope.erp()]);
  const state: ErpConnectionState = access
    ? await connectionState(scope.db, 'bling')
    : { state: 'not-configured' };
  return {
    clientId: connections.values.bling_client_id ?? '',
    sources: {
      bling_client_id: connections.sources.bling_client_id,
      bling_client_secret: connections.sources.bling_client_secret,
    },
    canStoreSecrets: connections.canStoreSecrets,
    connection: state,
  };
}

/** Saves or removes the application's client id and secret, as /admin/payments saves its own. */
export function saveBlingCredentials(
  scope: IntegrationsScope,
  form: IntegrationsForm,
  admin: { email: string },
): Promise<SaveConnectionsResult> {
  return scope.settings.get().then((settings) =>
    saveConnections({
      store: scope.connections,
      form:
        form.intent === 'remove'
          ? { intent: 'save', remove: form.remove }
          : {
              intent: 'save',
              bling_client_id: form.bling_client_id,
              bling_client_secret: form.bling_client_secret,
            },
      mercadoPagoApiUrl: scope.mercadoPagoApiUrl,
      melhorEnvio: { apiUrl: scope.melhorEnvioApiUrl, userAgent: scope.melhorEnvioUserAgent },
      admin,
      settings,
    }),
  );
}

/** 'Conectar ao Bling': where staff go to authorize the store, with a state only this store knows. */
export async function startBlingConnection(
  scope: Pick<IntegrationsScope, 'db' | 'erp'>,
  now: Date,
): Promise<{ ok: true; url: string } | { ok: false; error: string }> {
  const access = await scope.erp();
  if (!access) return { ok: false, error: ERP_MESSAGES.notConfigured };
  const state = await beginAuthorization(scope.db, 'bling', now);
  return { ok: true, url: access.erp.authorizeUrl(state) };
}

/**
 * Bling sent staff back: the state must be the one this store issued (single use, 15 minutes),
 * then the code is exchanged for the tokens, which are stored sealed.
 */
export async function finishBlingConnection(
  scope: Pick<IntegrationsScope, 'db' | 'erp'>,
  query: URLSearchParams,
  now: Date,
): Promise<{ ok: true; message: string } | { ok: false; error: string }> {
  const state = query.get('state') ?? '';
  const code = query.get('code') ?? '';
  if (
    !state ||
    state.length > 200 ||
    !(await takeAuthorizationState(scope.db, 'bling', state, now))
  ) {
    return { ok: false, error: ERP_MESSAGES.badState };
  }
  if (query.has('error') || !code || code.length > 500) {
    return { ok: false, error: ERP_MESSAGES.denied };
  }
  const access = await scope.erp();
  if (!access) return { ok: false, error: ERP_MESSAGES.notConfigured };
  try {
    const tokens = await access.erp.exchangeCode(code);
    await saveAuthorization(scope.db, access.vault, 'bling', tokens, now);
  } catch (error) {
    if (!(error instanceof ErpError)) throw error;
    logger.warn({ failure: error.failure }, 'Bling authorization code not exchanged');
    return { ok: false, error: ERP_MESSAGES.exchangeFailed };
  }
  logger.info('Bling connected');
  return { ok: true, message: ERP_MESSAGES.connectedToast };
}
