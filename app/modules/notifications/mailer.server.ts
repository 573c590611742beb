import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import nodemailer from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';

import { logger } from '~/lib/logger.server';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface SentMail {
  delivered: 'smtp' | 'file';
  /** The .eml file written, when there is no SMTP server. */
  location?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

export interface MailerOptions {
  /** smtp://user:pass@host:587 or smtps://…; without it, messages are written to files. */
  smtpUrl?: string;
  from?: string;
  storeName: string;
  /** Messages go to `<dataDir>/mail` when there is no SMTP server. */
  dataDir: string;
}

const SMTP_TIMEOUT_MS = 10_000;

export function createMailer({ smtpUrl, from, storeName, dataDir }: MailerOptions): Mailer {
  const sender = { name: storeName, address: from ?? 'loja@localhost' };

  if (smtpUrl) {
    const transport = nodemailer.createTransport({
      ...parseConnectionUrl(smtpUrl),
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: 3 * SMTP_TIMEOUT_MS,
    });
    return {
      async send(message) {
        try {
          await transport.sendMail({ ...message, from: sender });
        } catch (error) {
          throw smtpError(error, smtpUrl);
        }
        return { delivered: 'smtp' };
      },
    };
  }

  // Without a server the store still works: each message becomes a file any mail program opens.
  const fileOptions = { streamTransport: true, buffer: true, newline: 'unix' } as const;
  // Given twice: nodemailer takes `newline` from the message's defaults, the transport only logs it.
  const transport = nodemailer.createTransport(fileOptions, fileOptions);
  const folder = join(dataDir, 'mail');
  return {
    async send(message) {
      const { message: raw } = await transport.sendMail({ ...message, from: sender });
      // The messages hold shoppers' personal data and order keys: readable by the server's user only.
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await chmod(folder, 0o700);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const location = join(folder, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(location, raw, { mode: 0o600, flag: 'wx' });
      logger.info({ location, subject: message.subject }, 'E-mail written to a file (no SMTP_URL)');
      return { delivered: 'file', location };
    },
  };
}

/** The SMTP failure naming the server, with its password masked wherever it might show. */
function smtpError(error: unknown, smtpUrl: string): Error {
  const secrets = [smtpUrl, ...passwordForms(smtpUrl)];
  const reason = error instanceof Error ? error.message : String(error);
  const scrubbed = secrets.reduce((text, secret) => text.split(secret).join('***'), reason);
  return new Error(`Could not send e-mail through ${maskedUrl(smtpUrl)}: ${scrubbed}`);
}

/** The password as written in the URL and as sent to the server. */
function passwordForms(smtpUrl: string): string[] {
  try {
    const { password } = new URL(smtpUrl);
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}

function maskedUrl(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    if (url.password) url.password = '***';
    url.search = '';
    return url.toString();
  } catch {
    return 'the SMTP server';
  }
}
