import type { Connections, ConnectionsStore } from '~/modules/connections/index.server';
import type { EmailStore } from '~/modules/notifications';
import {
  createMailer,
  sendTestEmail,
  type MailMessage,
  type MailSending,
  type MailTestResult,
} from '~/modules/notifications/index.server';
import type { StoreSettings } from '~/modules/settings';

/** The settings an e-mail names the store with. */
export type MailIdentitySettings = Pick<
  StoreSettings,
  'store_name' | 'contact_email' | 'contact_phone' | 'timezone'
>;

/** What an e-mail names the store with, from its settings. */
export function emailStoreOf(settings: MailIdentitySettings): EmailStore {
  return {
    name: settings.store_name,
    contactEmail: settings.contact_email || undefined,
    contactPhone: settings.contact_phone || undefined,
    timeZone: settings.timezone,
  };
}

/**
 * One message as every e-mail of the store goes: through the SMTP server in force when it is
 * sent, else to an .eml file in the data folder.
 */
export async function sendStoreMail(
  options: { dataDir: string; storeName: string; mailSending: () => Promise<MailSending> },
  message: MailMessage,
): Promise<void> {
  const mailer = createMailer({
    ...(await options.mailSending()),
    storeName: options.storeName,
    dataDir: options.dataDir,
  });
  await mailer.send(message);
}

/** The SMTP server and sender of these connections: SMTP_URL and SMTP_FROM when set, else the admin's. */
export function mailSendingOf(values: Connections['values']): MailSending {
  return { smtpUrl: values.smtp_url, from: values.smtp_from };
}

/**
 * What e-mails go out with, read for each message: a server saved at /admin/payments on any
 * instance is used by the next message of every instance.
 */
export function currentMailSending(connections: ConnectionsStore): () => Promise<MailSending> {
  return async () => mailSendingOf((await connections.get()).values);
}

/** A test message through `sending` to staff's own address; pt-BR words for what failed. */
export function testMailSending(options: {
  sending: MailSending;
  to: string;
  settings: MailIdentitySettings;
}): Promise<MailTestResult> {
  const { settings } = options;
  return sendTestEmail({
    sending: options.sending,
    to: options.to,
    store: emailStoreOf(settings),
  });
}
