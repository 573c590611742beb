import type { Connections, ConnectionsStore } from '~/modules/connections/index.server';
import {
  sendTestEmail,
  type MailSending,
  type MailTestResult,
} from '~/modules/notifications/index.server';
import type { StoreSettings } from '~/modules/settings';

/** The settings an e-mail names the store with. */
export type MailIdentitySettings = Pick<
  StoreSettings,
  'store_name' | 'contact_email' | 'contact_phone' | 'timezone'
>;

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
    store: {
      name: settings.store_name,
      contactEmail: settings.contact_email || undefined,
      contactPhone: settings.contact_phone || undefined,
      timeZone: settings.timezone,
    },
  });
}
