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
  /** Extra header lines, such as List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface SentMail {
  delivered: 'smtp' | 'file';
  /** The .eml file written, when there is no SMTP server. */
  location?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

/** The e-mail sending in force: the connections' SMTP server and sender. */
export interface MailSending {
  /** smtp://user:pass@host:587 or smtps://…; without it, messages are written to files. */
  smtpUrl?: string;
  from?: string;
}

export interface MailerOptions extends MailSending {
  storeName: string;
  /** Messages go to `<dataDir>/mail` when there is no SMTP server. */
  dataDir: string;
}

const SMTP_TIMEOUT_MS = 10_000;

/** What staff can do about an SMTP failure: fix the sign-in, the address, or something else. */
export type SmtpFailure = 'login' | 'connection' | 'other';

/** An SMTP failure, the password masked in its message; `server` is host:port only. */
export class SmtpError extends Error {
  constructor(
    message: string,
    readonly failure: SmtpFailure,
    readonly server: string,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
}

export function createMailer({ smtpUrl, from, storeName, dataDir }: MailerOptions): Mailer {
  const sender = { name: storeName, address: from ?? 'loja@localhost' };
  return smtpUrl ? smtpMailer(smtpUrl, sender) : fileMailer(dataDir, sender);
}

type Sender = { name: string; address: string };

/** Sends through the server of `smtpUrl`; a failure is an SmtpError. */
export function smtpMailer(smtpUrl: string, sender: Sender): Mailer {
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

/** Without a server the store still works: each message becomes a file any mail program opens. */
function fileMailer(dataDir: string, sender: Sender): Mailer {
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

/** nodemailer's codes for a server that could not be reached: refused, timed out, unknown name. */
const CONNECTION_CODES = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS']);

/** The SMTP failure naming the server, with its password masked wherever it might show. */
function smtpError(error: unknown, smtpUrl: string): SmtpError {
  // Longest first: a form that holds another is masked whole, not around it.
  const secrets = [smtpUrl, ...passwordForms(smtpUrl)].sort((a, b) => b.length - a.length);
  const reason = error instanceof Error ? error.message : String(error);
  const scrubbed = secrets.reduce((text, secret) => text.split(secret).join('***'), reason);
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const failure: SmtpFailure =
    code === 'EAUTH' || responseCode === 535
      ? 'login'
      : typeof code === 'string' && CONNECTION_CODES.has(code)
        ? 'connection'
        : 'other';
  return new SmtpError(
    `Could not send e-mail through ${maskedUrl(smtpUrl)}: ${scrubbed}`,
    failure,
    serverOf(smtpUrl),
  );
}

/**
 * The password as written in the URL, as sent to the server, and base64-encoded as AUTH PLAIN
 * and AUTH LOGIN send it (a server may quote what it refused).
 */
function passwordForms(smtpUrl: string): string[] {
  try {
    const { username, password } = new URL(smtpUrl);
    if (!password) return [];
    const plain = decodeURIComponent(password);
    const user = decodeURIComponent(username);
    return [
      password,
      plain,
      Buffer.from(plain).toString('base64'),
      Buffer.from(`\0${user}\0${plain}`).toString('base64'),
    ];
  } catch {
    return [];
  }
}

/** 'smtp.exemplo.com:587': where nodemailer connects, the port its default when the URL has none. */
function serverOf(smtpUrl: string): string {
  const { host = 'localhost', port, secure } = parseConnectionUrl(smtpUrl);
  const name = host.includes(':') ? `[${host}]` : host;
  return `${name}:${port ?? (secure ? 465 : 587)}`;
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
