import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { logger } from '~/lib/logger.server';

import { createMailer } from './mailer.server';

const message = {
  to: 'ana@example.com',
  subject: 'Recebemos seu pedido #0000ABCD',
  html: '<p>Seu pedido <strong>chegou</strong>.</p>',
  text: 'Seu pedido chegou.',
};

// Has characters a URL must percent-encode, to check both of its forms stay hidden.
const PASSWORD = 's3cr3t@pass';
const smtpUrl = (port: number) =>
  `smtp://loja%40exemplo.com:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;

interface SmtpSession {
  auth?: string;
  mailFrom?: string;
  rcptTo: string[];
  data?: string;
}

/**
 * Just enough of an SMTP server for nodemailer on 127.0.0.1: AUTH PLAIN (refused when asked,
 * echoing the credentials as a careless server might), one message, QUIT.
 */
async function fakeSmtp({ refuseAuth = false } = {}) {
  const sessions: SmtpSession[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const session: SmtpSession = { rcptTo: [] };
    sessions.push(session);
    const reply = (line: string) => socket.write(`${line}\r\n`);
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
          session.data = line;
          inData = false;
          reply('250 2.0.0 Queued');
          continue;
        }
        const [verb = '', ...rest] = line.split(' ');
        switch (verb.toUpperCase()) {
          case 'EHLO':
            reply('250-fake.test');
            reply('250 AUTH PLAIN');
            break;
          case 'AUTH':
            session.auth = Buffer.from(rest[1] ?? '', 'base64').toString();
            reply(refuseAuth ? `535 5.7.8 Bad credentials: ${session.auth}` : '235 2.7.0 OK');
            break;
          case 'MAIL':
            session.mailFrom = line;
            reply('250 2.1.0 OK');
            break;
          case 'RCPT':
            session.rcptTo.push(line);
            reply('250 2.1.5 OK');
            break;
          case 'DATA':
            inData = true;
            reply('354 End data with <CR><LF>.<CR><LF>');
            break;
          case 'QUIT':
            reply('221 2.0.0 Bye');
            socket.end();
            break;
          default:
            reply('250 OK');
        }
      }
    });
    reply('220 fake.test ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ server, sockets });
  return { port: (server.address() as AddressInfo).port, sessions };
}

const servers: { server: Server; sockets: Set<Socket> }[] = [];
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vitrine-mail-'));
});

afterEach(async () => {
  for (const { server, sockets } of servers.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
  await rm(dataDir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe('without SMTP', () => {
  it('writes the message as an .eml file in DATA_DIR/mail and logs where', async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => {});
    const mailer = createMailer({ storeName: 'Loja Exemplo', dataDir });

    const sent = await mailer.send(message);

    expect(sent.delivered).toBe('file');
    expect(await readdir(join(dataDir, 'mail'))).toEqual([sent.location!.split('/').pop()]);
    expect(sent.location).toMatch(/\/mail\/\d{4}-\d\d-\d\dT[\d-]+Z-[0-9a-f]{8}\.eml$/);
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ location: sent.location }),
      expect.any(String),
    );

    const eml = await readFile(sent.location!, 'utf8');
    const blank = eml.indexOf('\n\n');
    const headers = eml.slice(0, blank);
    const body = eml.slice(blank);
    expect(headers).toContain('Subject: Recebemos seu pedido #0000ABCD');
    expect(headers).toContain('To: ana@example.com');
    expect(headers).toContain('From: Loja Exemplo <loja@localhost>');
    expect(headers).toMatch(/Content-Type: multipart\/alternative/);
    expect(eml).not.toContain('\r\n');
    expect(body).toContain('Content-Type: text/plain; charset=utf-8');
    expect(body).toContain('Seu pedido chegou.');
    expect(body).toContain('Content-Type: text/html; charset=utf-8');
    expect(body).toContain('<p>Seu pedido <strong>chegou</strong>.</p>');
  });

  it('gives every message its own file, with the configured sender', async () => {
    vi.spyOn(logger, 'info').mockImplementation(() => {});
    const mailer = createMailer({
      storeName: 'Loja "Boa" & Cia',
      from: 'pedidos@loja.test',
      dataDir,
    });

    const first = await mailer.send(message);
    const second = await mailer.send(message);

    expect(first.location).not.toBe(second.location);
    expect(await readdir(join(dataDir, 'mail'))).toHaveLength(2);
    expect(await readFile(first.location!, 'utf8')).toContain(
      'From: "Loja \\"Boa\\" & Cia" <pedidos@loja.test>',
    );
  });
  it('keeps the files readable by the server’s user only, even in a folder made before', async () => {
    vi.spyOn(logger, 'info').mockImplementation(() => {});
    await mkdir(join(dataDir, 'mail'), { mode: 0o755 });
    await chmod(join(dataDir, 'mail'), 0o755);
    const mailer = createMailer({ storeName: 'Loja Exemplo', dataDir });

    const sent = await mailer.send(message);

    expect((await stat(join(dataDir, 'mail'))).mode & 0o777).toBe(0o700);
    expect((await stat(sent.location!)).mode & 0o777).toBe(0o600);
  });
});

describe('with SMTP', () => {
  it('sends the message to the server, signing in with the URL’s credentials', async () => {
    const { port, sessions } = await fakeSmtp();
    const mailer = createMailer({
      smtpUrl: smtpUrl(port),
      from: 'pedidos@loja.test',
      storeName: 'Loja Exemplo',
      dataDir,
    });

    expect(await mailer.send(message)).toEqual({ delivered: 'smtp' });

    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session!.auth).toBe(`\0loja@exemplo.com\0${PASSWORD}`);
    expect(session!.mailFrom).toBe('MAIL FROM:<pedidos@loja.test>');
    expect(session!.rcptTo).toEqual(['RCPT TO:<ana@example.com>']);
    expect(session!.data).toContain('Subject: Recebemos seu pedido #0000ABCD');
    expect(session!.data).toContain('From: Loja Exemplo <pedidos@loja.test>');
    expect(session!.data).toContain('To: ana@example.com');
    expect(session!.data).toContain('Seu pedido chegou.');
    expect(session!.data).toContain('<p>Seu pedido <strong>chegou</strong>.</p>');
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('throws without the password when the server cannot be reached', async () => {
    const { port } = await fakeSmtp();
    const { server, sockets } = servers.pop()!;
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    const mailer = createMailer({ smtpUrl: smtpUrl(port), storeName: 'Loja', dataDir });

    const error = await mailer.send(message).then(
      () => undefined,
      (e: unknown) => e as Error,
    );

    expect(error?.message).toContain(`smtp://loja%40exemplo.com:***@127.0.0.1:${port}`);
    expect(error?.message).toContain('ECONNREFUSED');
    expect(error?.message).not.toContain(PASSWORD);
    expect(error?.message).not.toContain(encodeURIComponent(PASSWORD));
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('s3cr3t');
  });

  it('throws without the password when the server refuses the sign-in, even if it echoes it', async () => {
    const { port } = await fakeSmtp({ refuseAuth: true });
    const mailer = createMailer({ smtpUrl: smtpUrl(port), storeName: 'Loja', dataDir });

    const error = await mailer.send(message).then(
      () => undefined,
      (e: unknown) => e as Error,
    );

    expect(error?.message).toMatch(/535 5\.7\.8 Bad credentials/);
    expect(error?.message).not.toContain('s3cr3t');
  });
});
