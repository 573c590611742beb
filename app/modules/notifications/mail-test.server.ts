import { logger } from '~/lib/logger.server';

import { mailTestEmail, type EmailStore } from './emails';
import { smtpMailer, SmtpError, type MailSending } from './mailer.server';

/** What staff read after a test of the e-mail sending (never the password nor the URL). */
export const MAIL_TEST_MESSAGES = {
  sent: (email: string) => `E-mail de teste enviado para ${email}.`,
  noServer:
    'Nenhum servidor de e-mail configurado: os e-mails ficam guardados como arquivos no servidor. ' +
    'Informe o servidor de e-mail (SMTP) e salve antes de testar.',
  login: 'O servidor de e-mail recusou o usuário ou a senha.',
  connection: (server: string) => `Não foi possível conectar ao servidor de e-mail ${server}.`,
  other:
    'O servidor de e-mail não aceitou o e-mail de teste. Confira o endereço do servidor, a porta ' +
    'e o e-mail remetente.',
} as const;

export type MailTestResult = { ok: true } | { ok: false; error: string };

/** Why a message did not go, in pt-BR, as staff can act on it. */
export function mailFailureMessage(error: unknown): string {
  if (!(error instanceof SmtpError)) return MAIL_TEST_MESSAGES.other;
  if (error.failure === 'login') return MAIL_TEST_MESSAGES.login;
  if (error.failure === 'connection') return MAIL_TEST_MESSAGES.connection(error.server);
  return MAIL_TEST_MESSAGES.other;
}

/**
 * A short message to `to` through the SMTP server of `sending`: proves that the server answers,
 * takes the sign-in and accepts the sender, or says in pt-BR which of them failed. Without a
 * server it sends nothing: a file on the server proves nothing to staff.
 */
export async function sendTestEmail(options: {
  sending: MailSending;
  to: string;
  store: EmailStore;
}): Promise<MailTestResult> {
  const { sending, to, store } = options;
  if (!sending.smtpUrl) return { ok: false, error: MAIL_TEST_MESSAGES.noServer };
  const mailer = smtpMailer(sending.smtpUrl, {
    name: store.name,
    address: sending.from ?? 'loja@localhost',
  });
  try {
    await mailer.send({ to, ...mailTestEmail({ email: to }, store) });
  } catch (error) {
    // The SmtpError's message has the password masked; the server's answer helps whoever installed the store.
    logger.warn({ err: error }, 'Test e-mail not sent');
    return { ok: false, error: mailFailureMessage(error) };
  }
  return { ok: true };
}
