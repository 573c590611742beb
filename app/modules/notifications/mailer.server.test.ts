import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { logger } from '~/lib/logger.server';

import { startFakeSmtpServer, type FakeSmtpServer } from '../../../tests/support/fake-smtp';

import { createMailer, SmtpError } from './mailer.server';

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

const servers: FakeSmtpServer[] = [];
async function fakeSmtp(options?: { refuseAuth?: boolean }): Promise<FakeSmtpServer> {
  const server = await startFakeSmtpServer(options);
  servers.push(server);
  return server;
}
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vitrine-mail-'));
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
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
    const { port, mails } = await fakeSmtp();
    const mailer = createMailer({
      smtpUrl: smtpUrl(port),
      from: 'pedidos@loja.test',
      storeName: 'Loja Exemplo',
      dataDir,
    });

    expect(await mailer.send(message)).toEqual({ delivered: 'smtp' });

    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.auth).toBe(`\0loja@exemplo.com\0${PASSWORD}`);
    expect(mail!.from).toBe('pedidos@loja.test');
    expect(mail!.to).toEqual(['ana@example.com']);
    expect(mail!.raw).toContain('Subject: Recebemos seu pedido #0000ABCD');
    expect(mail!.raw).toContain('From: Loja Exemplo <pedidos@loja.test>');
    expect(mail!.raw).toContain('To: ana@example.com');
    expect(mail!.raw).toContain('Seu pedido chegou.');
    expect(mail!.raw).toContain('<p>Seu pedido <strong>chegou</strong>.</p>');
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('throws without the password when the server cannot be reached', async () => {
    const { port } = await fakeSmtp();
    await servers.pop()!.close();
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
    expect(error).toBeInstanceOf(SmtpError);
    expect(error).toMatchObject({ failure: 'login', server: `127.0.0.1:${port}` });
  });

  it('masks the password as AUTH sends it (base64) when the server quotes it back', async () => {
    // A server that refuses the sign-in quoting the AUTH PLAIN argument as it came.
    const sockets = new Set<Socket>();
    const quoting = createServer((socket) => {
      sockets.add(socket);
      socket.setEncoding('utf8');
      socket.on('error', () => socket.destroy());
      socket.on('data', (chunk: string) => {
        for (const line of chunk.split('\r\n').filter(Boolean)) {
          const [verb = '', , argument = ''] = line.split(' ');
          if (/^EHLO$/i.test(verb)) socket.write('250-quoting.test\r\n250 AUTH PLAIN\r\n');
          else if (/^AUTH$/i.test(verb)) socket.write(`535 5.7.8 Refused ${argument}\r\n`);
          else socket.write('250 OK\r\n');
        }
      });
      socket.write('220 quoting.test ESMTP\r\n');
    });
    await new Promise<void>((resolve) => quoting.listen(0, '127.0.0.1', resolve));
    const { port } = quoting.address() as AddressInfo;
    const mailer = createMailer({ smtpUrl: smtpUrl(port), storeName: 'Loja', dataDir });

    const error = await mailer.send(message).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => quoting.close(resolve));

    const plainArgument = Buffer.from(`\0loja@exemplo.com\0${PASSWORD}`).toString('base64');
    expect(error?.message).toContain('535 5.7.8 Refused ***');
    expect(error?.message).not.toContain(plainArgument);
    expect(error).toMatchObject({ failure: 'login' });
  });

  it('tells a server that cannot be reached from one that refuses the sign-in', async () => {
    const { port } = await fakeSmtp();
    await servers.pop()!.close();
    const mailer = createMailer({ smtpUrl: smtpUrl(port), storeName: 'Loja', dataDir });

    const error = await mailer.send(message).catch((e: unknown) => e);

    expect(error).toMatchObject({ failure: 'connection', server: `127.0.0.1:${port}` });
  });
});
