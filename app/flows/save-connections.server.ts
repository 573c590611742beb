import { createSecureContext } from 'node:tls';

import { CONNECTION_FIELDS, isSecretField, type ConnectionField } from '~/modules/connections';
import {
  connectionsView,
  type Connections,
  type ConnectionsStore,
} from '~/modules/connections/index.server';
import { CONNECTIONS_MESSAGES, type ConnectionsSaveForm } from '~/modules/connections/index.admin';
import { MAIL_TEST_MESSAGES } from '~/modules/notifications/index.server';
import type { PaymentProvider } from '~/modules/payments';
import {
  checkMercadoPagoAccount,
  isPixApiProvider,
  isPixConfigured,
  pixApiTlsFromUpload,
} from '~/modules/payments/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';
import {
  checkMelhorEnvioAccount,
  MELHOR_ENVIO_ACCOUNT_MESSAGES,
  storeUserAgent,
} from '~/modules/shipping/index.server';

import { mailSendingOf, testMailSending, type MailIdentitySettings } from './mail-sending.server';

/** What the connections screen needs of the request's context. */
interface ScreenScope {
  connections: Pick<ConnectionsStore, 'get'>;
  payments(): Promise<PaymentProvider | null>;
  settings: Pick<SettingsStore, 'get'>;
}

/**
 * The connections screen: the plain values and where each field comes from (a secret's value
 * never leaves the server), the payment provider in force, and whether own-key PIX has what it
 * needs.
 */
export async function connectionsScreen(scope: ScreenScope) {
  const [connections, provider, settings] = await Promise.all([
    scope.connections.get(),
    scope.payments(),
    scope.settings.get(),
  ]);
  // The address the bank calls now, asked of the bank itself (staff see what it really has).
  const webhook = isPixApiProvider(provider) ? await provider.webhook() : null;
  return {
    connections: connectionsView(connections),
    provider: provider ? { name: provider.name, accepts: provider.accepts } : null,
    pixReady: isPixConfigured(settings),
    pixApiWebhook: webhook
      ? webhook.ok
        ? { registered: webhook.value }
        : { error: webhook.error }
      : null,
  };
}

/**
 * 'Testar conexão' (a token, then the bank's charges of the last hour) and 'Cadastrar webhook'
 * (`PUT /webhook/{chave}` to this store) for the API Pix in force.
 */
export async function pixApiAdminCheck(
  scope: Pick<ScreenScope, 'payments'>,
  intent: 'pix-api-test' | 'pix-api-webhook',
): Promise<{ ok: true; message: string } | { ok: false; error: string }> {
  const provider = await scope.payments();
  if (!isPixApiProvider(provider)) return { ok: false, error: CONNECTIONS_MESSAGES.pixApiInactive };
  if (intent === 'pix-api-test') {
    const tested = await provider.testConnection();
    return tested.ok
      ? { ok: true, message: CONNECTIONS_MESSAGES.pixApiWorks(tested.value.charges) }
      : tested;
  }
  const registered = await provider.registerWebhook();
  return registered.ok
    ? { ok: true, message: CONNECTIONS_MESSAGES.pixApiWebhook(registered.value) }
    : registered;
}

/** 'Enviar e-mail de teste': a message to staff's own address through the sending in force. */
export async function sendStaffTestEmail(
  scope: Pick<ScreenScope, 'connections' | 'settings'>,
  to: string,
): Promise<{ ok: true; message: string } | { ok: false; error: string }> {
  const [connections, settings] = await Promise.all([
    scope.connections.get(),
    scope.settings.get(),
  ]);
  const sent = await testMailSending({ sending: mailSendingOf(connections.values), to, settings });
  return sent.ok ? { ok: true, message: MAIL_TEST_MESSAGES.sent(to) } : sent;
}

/** What staff read once the connections are saved, and where the test e-mail went, if one did. */
export function connectionsSavedText(saved: { mailTestedTo?: string }): string {
  return saved.mailTestedTo
    ? `${CONNECTIONS_MESSAGES.saved} ${MAIL_TEST_MESSAGES.sent(saved.mailTestedTo)}`
    : CONNECTIONS_MESSAGES.saved;
}

export type SaveConnectionsResult =
  | {
      ok: true;
      changed: ConnectionField[];
      /** Where the test e-mail went, when new e-mail settings were tested before saving. */
      mailTestedTo?: string;
    }
  | { ok: false; error: string; fieldErrors: Record<string, string> };

type Change = Partial<Record<ConnectionField, string | null>>;

/** The form with its fields as text: the certificate uploaded, in base64. */
type TextForm = Partial<Record<ConnectionField, string>> & Pick<ConnectionsSaveForm, 'remove'>;

/** What the form asks to change, leaving alone what the environment sets and blank secrets. */
function requestedChange(
  form: TextForm,
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

/** Whether an uploaded certificate opens (with its password): a certificate and its key. */
function usableCertificate(base64: string, password: string | undefined): boolean {
  try {
    const tls = pixApiTlsFromUpload(base64, password);
    createSecureContext(tls);
    return (
      tls.pfx !== undefined ||
      (String(tls.cert).includes('CERTIFICATE') && String(tls.key).includes('PRIVATE KEY'))
    );
  } catch {
    return false;
  }
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
 * chosen without what it needs, a token the service refuses, or an e-mail server that does not
 * deliver a test message to the admin saving, is said beside its field and nothing is saved.
 * Every instance then hears the change and uses it on its next request.
 */
export async function saveConnections(options: {
  store: ConnectionsStore;
  form: ConnectionsSaveForm;
  mercadoPagoApiUrl: string;
  /** MELHOR_ENVIO_API_URL, and MELHOR_ENVIO_USER_AGENT (null: the store names itself). */
  melhorEnvio: { apiUrl: string; userAgent: string | null };
  /** Who saves: new e-mail settings are tested with a message to this address. */
  admin: { email: string };
  settings: MailIdentitySettings & { pix_key: string };
}): Promise<SaveConnectionsResult> {
  const current = await options.store.get();
  const upload = options.form.pix_api_certificate;
  const certificate =
    upload && upload.size > 0 ? Buffer.from(await upload.arrayBuffer()).toString('base64') : '';
  const { change, fieldErrors } = requestedChange(
    { ...options.form, pix_api_certificate: certificate },
    current,
  );
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
  if (next.payment_provider === 'pix-api' && !options.form.remove) {
    const missing = (
      [
        'pix_api_url',
        'pix_api_token_url',
        'pix_api_client_id',
        'pix_api_client_secret',
        'pix_api_certificate',
      ] as const
    ).filter((name) => !next[name]);
    for (const name of missing) fieldErrors[name] ??= CONNECTIONS_MESSAGES.pixApiMissing;
    if (!options.settings.pix_key)
      fieldErrors.payment_provider ??= CONNECTIONS_MESSAGES.pixApiNoKey;
  }
  if (
    touched('pix_api_certificate', 'pix_api_certificate_password') &&
    current.sources.pix_api_certificate !== 'env' &&
    next.pix_api_certificate &&
    !usableCertificate(next.pix_api_certificate, next.pix_api_certificate_password)
  ) {
    fieldErrors.pix_api_certificate ??= CONNECTIONS_MESSAGES.pixApiCertificate;
  }
  const mailTested =
    !options.form.remove && next.smtp_url !== undefined && touched('smtp_url', 'smtp_from');
  if (Object.keys(fieldErrors).length === 0) {
    // Each service is asked once, all at once: staff wait for the slowest, not for the sum.
    const checks: Promise<void>[] = [];
    if (
      next.mercadopago_access_token &&
      touched('mercadopago_access_token', 'payment_provider') &&
      (next.payment_provider === 'mercadopago' || touched('mercadopago_access_token'))
    ) {
      const accessToken = next.mercadopago_access_token;
      checks.push(
        checkMercadoPagoAccount({ apiUrl: options.mercadoPagoApiUrl, accessToken }).then(
          (account) => {
            if (!account.ok) fieldErrors.mercadopago_access_token = account.error;
          },
        ),
      );
    }
    if (next.melhor_envio_token && touched('melhor_envio_token')) {
      const token = next.melhor_envio_token;
      const userAgent =
        options.melhorEnvio.userAgent ??
        (options.settings.contact_email ? storeUserAgent(options.settings) : null);
      if (userAgent === null) {
        fieldErrors.melhor_envio_token = MELHOR_ENVIO_ACCOUNT_MESSAGES.noContact;
      } else {
        checks.push(
          checkMelhorEnvioAccount({ apiUrl: options.melhorEnvio.apiUrl, token, userAgent }).then(
            (account) => {
              if (!account.ok) fieldErrors.melhor_envio_token = account.error;
            },
          ),
        );
      }
    }
    if (mailTested) {
      checks.push(
        testMailSending({
          sending: mailSendingOf(next),
          to: options.admin.email,
          settings: options.settings,
        }).then((sent) => {
          // Beside the field staff changed: the server's when it is new, else the sender's.
          if (!sent.ok) fieldErrors[touched('smtp_url') ? 'smtp_url' : 'smtp_from'] = sent.error;
        }),
      );
    }
    await Promise.all(checks);
  }

  const failed = Object.values(fieldErrors)[0];
  if (failed !== undefined) {
    return { ok: false, error: `${CONNECTIONS_MESSAGES.notSaved}: ${failed}`, fieldErrors };
  }
  if (Object.keys(change).length) await options.store.write(change);
  const changed = Object.keys(change) as ConnectionField[];
  return mailTested
    ? { ok: true, changed, mailTestedTo: options.admin.email }
    : { ok: true, changed };
}
