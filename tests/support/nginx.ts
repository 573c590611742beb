// Debian's nginx in front of test servers, running the site the repository ships
// (docs/deploy/nginx/vitrine.conf) with only what an operator changes: the listening addresses,
// the certificate, the build's folder and the instances. TLS with a certificate made for the run.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpsRequest } from 'node:https';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { freePort } from './ports';
import { until } from './until';

const NGINX = '/usr/sbin/nginx';
const ROOT = resolve(import.meta.dirname, '../..');
export const SITE_FILE = join(ROOT, 'docs/deploy/nginx/vitrine.conf');

export interface Nginx {
  /** https://127.0.0.1:<port>, the store's address. */
  url: string;
  /** http://127.0.0.1:<port>, the site's plain-http server. */
  httpUrl: string;
  /** fetch() that trusts the run's certificate. */
  fetch: typeof fetch;
  /** What nginx wrote to its error log so far. */
  errors(): Promise<string>;
  stop(): Promise<void>;
}

/** `text` with `from` replaced, failing if the site no longer reads as this code expects. */
function change(text: string, from: string | RegExp, to: string, times: number): string {
  const found = text.split(from).length - 1;
  if (found !== times) {
    throw new Error(`${SITE_FILE}: expected ${times} of ${String(from)}, found ${found}`);
  }
  return text.split(from).join(to);
}

/**
 * Starts nginx with the shipped site in front of two `instances` (http://127.0.0.1:<port>),
 * serving `/assets/` from `clientDir` (default: the build's client folder the servers run). `http` adds directives to the
 * test's own `http {}` block (headers the test reads, say).
 */
export async function startNginx(options: {
  instances: [string, string];
  clientDir?: string;
  http?: string;
}): Promise<Nginx> {
  const clientDir =
    options.clientDir ?? resolve(ROOT, process.env.VITRINE_BUILD_DIR || 'build', 'client');
  if (!existsSync(NGINX)) {
    throw new Error('nginx is missing: apt-get install nginx libnginx-mod-http-brotli-static');
  }
  const folder = await mkdtemp(join(tmpdir(), 'vitrine-nginx-'));
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    join(folder, 'key.pem'),
    '-out',
    join(folder, 'cert.pem'),
  ]);
  const ca = await readFile(join(folder, 'cert.pem'), 'utf8');

  let site = await readFile(SITE_FILE, 'utf8');
  // The two instances' addresses, each server line as shipped.
  options.instances.forEach((instance, i) => {
    site = change(site, `server 127.0.0.1:${3001 + i} `, `server ${new URL(instance).host} `, 1);
  });
  site = change(site, /^ *listen \[::\]:\d+.*\n/gm, '', 2);
  site = change(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`, 1);
  site = change(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`, 1);
  site = change(
    site,
    '/etc/letsencrypt/live/loja.example.com.br/fullchain.pem',
    join(folder, 'cert.pem'),
    1,
  );
  site = change(
    site,
    '/etc/letsencrypt/live/loja.example.com.br/privkey.pem',
    join(folder, 'key.pem'),
    1,
  );
  site = change(site, 'root /opt/vitrine/build/client;', `root ${clientDir};`, 1);
  site = change(site, 'root /var/www/html;', `root ${folder};`, 1);
  await writeFile(join(folder, 'site.conf'), site);
  // What Debian's /etc/nginx/nginx.conf gives a site, in a folder of the test's own.
  await writeFile(
    join(folder, 'nginx.conf'),
    [
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'worker_processes 1;',
      `pid ${join(folder, 'nginx.pid')};`,
      `error_log ${join(folder, 'error.log')} warn;`,
      // Debian loads it from modules-enabled, relative to its own prefix.
      'load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;',
      'events { worker_connections 1024; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      '  default_type application/octet-stream;',
      '  sendfile on;',
      '  access_log off;',
      options.http ?? '',
      `  include ${join(folder, 'site.conf')};`,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', folder, '-c', join(folder, 'nginx.conf'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let ended = false;
  void exited.then(() => (ended = true));
  await until(async () => {
    if (ended) throw new Error(`nginx did not start:\n${output}`);
    return (await listening(httpsPort)) ? true : undefined;
  }, 'nginx listening');
  const agent = new Agent({ keepAlive: true, ca });
  const errors = () => readFile(join(folder, 'error.log'), 'utf8').catch(() => '');
  return {
    url: `https://127.0.0.1:${httpsPort}`,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    fetch: tlsFetch(agent),
    errors,
    async stop() {
      agent.destroy();
      if (!ended) {
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(folder, { recursive: true, force: true });
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      answer(true);
    });
    socket.once('error', () => answer(false));
  });
}

/**
 * fetch() over node:https with the run's certificate as the one authority: Node's own fetch takes
 * no certificate. Connections are kept, as a browser's; redirects are never followed (the Visitor
 * asks for that anyway).
 */
function tlsFetch(agent: Agent): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((answer, reject) => {
      const outgoing = httpsRequest(
        request.url,
        { method: request.method, headers, agent },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const responseHeaders = new Headers();
            for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
              responseHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
            }
            const status = incoming.statusCode!;
            const empty = status === 204 || status === 304 || request.method === 'HEAD';
            answer(
              new Response(empty ? null : Buffer.concat(chunks), {
                status,
                headers: responseHeaders,
              }),
            );
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}
