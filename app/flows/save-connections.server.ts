import { CONNECTION_FIELDS, isSecretField, type ConnectionField } from '~/modules/connections';
import type { Connections, ConnectionsStore } from '~/modules/connections/index.server';
import { CONNECTIONS_MESSAGES, type ConnectionsSaveForm } from '~/modules/connections/index.admin';
import { checkMercadoPagoAccount } from '~/modules/payments/index.server';

export type SaveConnectionsResult =
  | { ok: true; changed: ConnectionField[] }
  | { ok: false; error: string; fieldErrors: Record<string, string> };

type Change = Partial<Record<ConnectionField, string | null>>;

/** What the form asks to change, leaving alone what the environment sets and blank secrets. */
function requestedChange(
  form: ConnectionsSaveForm,
  current: Connections,
): {
  change: Change;
  fieldErrors: Record<string, string>;
} {
  const change: Change = {};
  const fieldErrors: Record<string, string> = {};
  if (form.remove) {
    if (current.sources[form.remove] === 'env')
      fieldErrors[form.remove] = CONNECTIONS_MESSAGES.fromEnv;
    else change[form.remove] = null;
    return { change, fieldErrors };
  }
  for (const name of CONNECTION_FIELDS) {
    const sent = form[name];
    // Not sent (a disabled input: set by the environment), or a blank secret: kept as it is.
    if (sent === undefined || current.sources[name] === 'env') continue;
    if (isSecretField(name)) {
      if (sent === '') continue;
      if (!current.canStoreSecrets) fieldErrors[name] = CONNECTIONS_MESSAGES.noKey;
      else change[name] = sent;
    } else if (sent === '') {
      if (current.sources[name] === 'admin') change[name] = null;
    } else if (sent !== current.values[name]) {
      change[name] = sent;
    }
  }
  return { change, fieldErrors };
}

/** The values in force once the change is made (the environment's still win). */
function valuesAfter(current: Connections, change: Change): Connections['values'] {
  const next = { ...current.values };
  for (const [name, value] of Object.entries(change) as [ConnectionField, string | null][]) {
    if (current.sources[name] === 'env') continue;
    if (value === null) delete next[name];
    else next[name] = value;
  }
  return next;
}

/**
 * Saves what staff typed at /admin/payments, once what it connects to has answered: a provider
 * chosen without what it needs, or a token the service refuses, is said beside its field and
 * nothing is saved. Every instance then hears the change and uses it on its next request.
 */
export async function saveConnections(options: {
  store: ConnectionsStore;
  form: ConnectionsSaveForm;
  mercadoPagoApiUrl: string;
}): Promise<SaveConnectionsResult> {
  const current = await options.store.get();
  const { change, fieldErrors } = requestedChange(options.form, current);
  const next = valuesAfter(current, change);
  const touched = (...names: ConnectionField[]) => names.some((name) => name in change);

  if (next.payment_provider === 'mercadopago' && !options.form.remove) {
    if (!next.mercadopago_access_token) {
      fieldErrors.mercadopago_access_token ??= CONNECTIONS_MESSAGES.mercadoPagoToken;
    }
    if (!next.mercadopago_webhook_secret) {
      fieldErrors.mercadopago_webhook_secret ??= CONNECTIONS_MESSAGES.mercadoPagoSecret;
    }
  }
  if (next.payment_provider === 'gateway' && !options.form.remove) {
    if (!next.gateway_url) fieldErrors.gateway_url ??= CONNECTIONS_MESSAGES.gatewayMissing;
    if (!next.gateway_secret_key) {
      fieldErrors.gateway_secret_key ??= CONNECTIONS_MESSAGES.gatewayMissing;
    }
  }
  if (
    Object.keys(fieldErrors).length === 0 &&
    next.mercadopago_access_token &&
    touched('mercadopago_access_token', 'payment_provider') &&
    (next.payment_provider === 'mercadopago' || touched('mercadopago_access_token'))
  ) {
    const account = await checkMercadoPagoAccount({
      apiUrl: options.mercadoPagoApiUrl,
      accessToken: next.mercadopago_access_token,
    });
    if (!account.ok) fieldErrors.mercadopago_access_token = account.error;
  }

  const failed = Object.values(fieldErrors)[0];
  if (failed !== undefined) {
    return { ok: false, error: `${CONNECTIONS_MESSAGES.notSaved}: ${failed}`, fieldErrors };
  }
  if (Object.keys(change).length) await options.store.write(change);
  return { ok: true, changed: Object.keys(change) as ConnectionField[] };
}
