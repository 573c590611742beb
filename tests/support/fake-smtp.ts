import { createServer, type AddressInfo, type Socket } from 'node:net';

/** One message as the fake SMTP server received it. */
export interface ReceivedMail {
  /** The AUTH PLAIN credentials the client sent, decoded ('\0user\0password'), if any. */
  auth?: string;
  /** The MAIL FROM address. */
  from: string;
  /** The RCPT TO addresses, lower case. */
  to: string[];
  subject: string;
  /** The whole message with quoted-printable undone (soft line breaks, =XX bytes). */
  text: string;
  /** The whole message as it came. */
  raw: string;
}

export interface FakeSmtpServer {
  /** For SMTP_URL: smtp://127.0.0.1:<port>, no TLS. */
  url: string;
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** Quoted-printable as nodemailer writes it, undone (UTF-8 bytes included). */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-F]{2}/.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The Subject header, decoded from its =?UTF-8?Q?…?= or =?UTF-8?B?…?= words. */
function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_word, encoding: string, value: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(value, 'base64').toString('utf8')
        : decodeQuotedPrintable(value.replace(/_/g, ' ')),
    );
}

/**
 * Just enough of an SMTP server on 127.0.0.1 for the store's mailer (nodemailer): EHLO, AUTH
 * PLAIN, MAIL, RCPT, DATA, QUIT, no TLS. It keeps every message it receives. `refuseAuth`
 * refuses every sign-in, echoing the credentials as a careless server might.
 */
export async function startFakeSmtpServer({ refuseAuth = false } = {}): Promise<FakeSmtpServer> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A sender that vanished mid-conversation (an instance killed by a test) resets its
    // connection: that is its leaving, not the fake's error.
    socket.on('error', () => socket.destroy());
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let auth: string | undefined;
    let from = '';
    let to: string[] = [];
    let buffer = '';
    let inData = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        const end = buffer.indexOf(inData ? '\r\n.\r\n' : '\r\n');
        if (end < 0) return;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (inData ? 5 : 2));
        if (inData) {
          inData = false;
          const raw = line.replace(/^\.\./gm, '.');
          mails.push({
            auth,
            from,
            to,
            subject: subjectOf(raw),
            text: decodeQuotedPrintable(raw),
            raw,
          });
          to = [];
          reply('250 2.0.0 Queued');
          continue;
        }
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') {
          reply('250-fake.test');
          reply('250 AUTH PLAIN');
        } else if (verb === 'AUTH') {
          auth = Buffer.from(line.split(' ')[2] ?? '', 'base64').toString();
          reply(refuseAuth ? `535 5.7.8 Bad credentials: ${auth}` : '235 2.7.0 OK');
        } else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 OK');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1]?.toLowerCase() ?? '');
          reply('250 2.1.5 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
        } else reply('250 OK');
      }
    });
    reply('220 fake.test ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
