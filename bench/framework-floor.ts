// npx tsx bench/framework-floor.ts — what our stack costs before any of the store's own work.
//
// Writes a React Router app of a few lines into a temporary folder (the same react-router,
// react-dom, express and compression as the store, from its node_modules; a root with Meta,
// Links, Scripts and ScrollRestoration; one page whose loader gives a key for its form; one action
// that reads the form and answers 303), builds it, serves it with express as server/app.ts serves
// the store (the page read whole, then one write), and measures the server's CPU per request, as
// bench/request-cost.ts does for the store. A purchase in bench/checkout.ts is one page and two
// actions, so their sum is the least any purchase can cost on this stack and machine; the rest
// of a purchase's CPU is ours. Two more pages weigh React Router's <Link>: forty links, then the
// same forty as plain <a>.
// CONNECTIONS (default 10), DURATION seconds per kind (default 6).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { freePort } from '../tests/support/ports';

import { positiveInteger } from './options';
import { benchFetch, loadAverage, printTable, procCpuSeconds, ROOT, runLoad } from './support';

const DURATION_MS = positiveInteger('DURATION', 6) * 1000;
const CONNECTIONS = positiveInteger('CONNECTIONS', 10);

const LIST = `const categories = Array.from({ length: 40 }, (_, at) => ({ slug: 'categoria-' + at, name: 'Categoria ' + at }));`;

const FILES: Record<string, string> = {
  'package.json': '{ "private": true, "type": "module" }',
  'react-router.config.ts': 'export default { ssr: true };',
  'vite.config.ts': `import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
export default defineConfig({ plugins: [reactRouter()] });`,
  'app/root.tsx': `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
export function Layout({ children }: { children: React.ReactNode }) {
  return (<html lang="pt-BR"><head><meta charSet="utf-8" /><Meta /><Links /></head>
    <body>{children}<ScrollRestoration /><Scripts /></body></html>);
}
export default function App() { return <Outlet />; }`,
  'app/routes.ts': `import { index, route } from '@react-router/dev/routes';
export default [index('routes/page.tsx'), route('links', 'routes/links.tsx'),
  route('anchors', 'routes/anchors.tsx'), route('go', 'routes/go.tsx')];`,
  'app/routes/page.tsx': `import { Form, useLoaderData } from 'react-router';
export function loader() { return { key: crypto.randomUUID() }; }
export default function Page() {
  const { key } = useLoaderData<typeof loader>();
  return (<main><h1>Finalizar</h1><Form method="post" action="/go">
    <input type="hidden" name="key" value={key} />
    <label>E-mail <input name="email" /></label><button>Comprar</button></Form></main>);
}`,
  'app/routes/links.tsx': `import { Link } from 'react-router';
${LIST}
export default function Links() {
  return <nav><ul>{categories.map((c) => <li key={c.slug}><Link to={'/products?categoria=' + c.slug}>{c.name}</Link></li>)}</ul></nav>;
}`,
  'app/routes/anchors.tsx': `${LIST}
export default function Anchors() {
  return <nav><ul>{categories.map((c) => <li key={c.slug}><a href={'/products?categoria=' + c.slug}>{c.name}</a></li>)}</ul></nav>;
}`,
  'app/routes/go.tsx': `import { redirect } from 'react-router';
export async function action({ request }: { request: Request }) {
  const form = await request.formData();
  return redirect('/?key=' + encodeURIComponent(String(form.get('key'))), 303);
}
export default function Go() { return null; }`,
  'app/entry.server.tsx': `import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext } from 'react-router';
export default function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const collector = new Writable({
      write(chunk: Buffer, _encoding, done) { chunks.push(chunk); done(); },
      final(done) {
        headers.set('Content-Type', 'text/html; charset=utf-8');
        resolve(new Response(Buffer.concat(chunks), { status, headers }));
        done();
      },
    });
    const { pipe } = renderToPipeableStream(<ServerRouter context={context} url={request.url} />,
      { onAllReady() { pipe(collector); }, onShellError: reject });
  });
}`,
  'server.mjs': `import { Readable } from 'node:stream';
import compression from 'compression';
import express from 'express';
import { createRequestHandler } from 'react-router';
const handle = createRequestHandler(await import('./build/server/index.js'), 'production');
const app = express();
app.use(compression());
app.get('/healthz', (_req, res) => res.json({ ok: true }));
app.all('/{*path}', async (req, res) => {
  const headers = new Headers();
  for (let at = 0; at < req.rawHeaders.length; at += 2) headers.append(req.rawHeaders[at], req.rawHeaders[at + 1]);
  const body = req.method === 'GET' || req.method === 'HEAD' ? {} : { body: Readable.toWeb(req), duplex: 'half' };
  const response = await handle(new Request('http://' + req.headers.host + req.originalUrl, { method: req.method, headers, ...body }));
  res.status(response.status);
  response.headers.forEach((value, name) => res.append(name, value));
  res.end(Buffer.from(await response.arrayBuffer()));
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));`,
};

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
}

const folder = await mkdtemp(join(tmpdir(), 'vitrine-floor-'));
let server: ReturnType<typeof run> | undefined;
try {
  for (const [name, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(folder, name)), { recursive: true });
    await writeFile(join(folder, name), text);
  }
  await symlink(join(ROOT, 'node_modules'), join(folder, 'node_modules'));
  const build = run(join(ROOT, 'node_modules/.bin/react-router'), ['build'], folder);
  const failed: Buffer[] = [];
  build.stderr.on('data', (chunk: Buffer) => failed.push(chunk));
  const code = await new Promise((resolve) => build.on('exit', resolve));
  if (code !== 0) throw new Error(`the app did not build:\n${Buffer.concat(failed)}`);

  const port = await freePort();
  const started = run(process.execPath, ['server.mjs'], folder, {
    NODE_ENV: 'production',
    PORT: String(port),
  });
  server = started;
  await new Promise<void>((resolve, reject) => {
    started.stdout.on('data', () => resolve());
    started.on('exit', (exit) => reject(new Error(`the server stopped (${exit})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const expect = (status: number, wanted: number, what: string) => {
    if (status !== wanted) throw new Error(`${what} answered ${status}`);
  };
  const get = (path: string) => async () =>
    expect((await benchFetch(`${base}${path}`)).status, 200, path);
  const kinds: [string, () => Promise<void>][] = [
    ['GET /healthz (express and compression)', get('/healthz')],
    ['GET / (a page with a form)', get('/')],
    [
      'POST /go (an action answering 303)',
      async () => {
        const answer = await benchFetch(`${base}/go`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
          body: 'key=1&email=maria%40example.com',
        });
        expect(answer.status, 303, '/go');
      },
    ],
    ['GET /links (40 <Link>)', get('/links')],
    ['GET /anchors (the same 40 as <a>)', get('/anchors')],
  ];
  const stat = [`/proc/${started.pid}/stat`];
  const rows: string[][] = [];
  const perRequest: Record<string, number> = {};
  for (const [kind, task] of kinds) {
    await runLoad(CONNECTIONS, Math.min(DURATION_MS, 1500), async () => task);
    const before = await procCpuSeconds(stat);
    const tally = await runLoad(CONNECTIONS, DURATION_MS, async () => task);
    const after = await procCpuSeconds(stat);
    for (const [reason, n] of tally.failures) console.error(`${kind}: ${n} × ${reason}`);
    perRequest[kind] = (1000 * (after - before)) / Math.max(1, tally.done);
    rows.push([kind, (tally.done / tally.seconds).toFixed(1), perRequest[kind].toFixed(2)]);
  }
  const [, page, action] = kinds.map(([kind]) => perRequest[kind]!);
  rows.push(['a purchase’s least: one page and two actions', '', (page! + 2 * action!).toFixed(2)]);
  console.log(
    `\nThe bare stack: ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per kind; ` +
      `load average now ${loadAverage()}.\n`,
  );
  printTable(['Request', 'per s', 'server CPU per request (ms)'], rows);
} finally {
  server?.kill();
  await rm(folder, { recursive: true, force: true });
}
