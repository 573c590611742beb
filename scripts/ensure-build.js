// `npm start` serves the production build; this makes it first when it is missing or older than
// the sources, so a fresh clone (or a pull) never serves a stale store.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const buildDirectory = process.env.VITRINE_BUILD_DIR || 'build';
const marker = resolve(root, buildDirectory, 'server/index.js');
const sources = [
  'app',
  'server',
  'public',
  'drizzle',
  'vite.config.ts',
  'react-router.config.ts',
  'package-lock.json',
];

/** @param {string} path @returns {number} */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (latest, name) => Math.max(latest, newest(join(path, name))),
    stat.mtimeMs,
  );
}

const builtAt = existsSync(marker) ? statSync(marker).mtimeMs : 0;
const changedAt = Math.max(...sources.map((source) => newest(join(root, source))));
if (builtAt < changedAt) {
  console.log(
    builtAt ? 'O código mudou desde o último build; gerando de novo…' : 'Ainda sem build; gerando…',
  );
  const started = Date.now();
  // Test runners set NODE_ENV=test, which would build React's development bundles. The build's
  // own output (a line per asset, and React Router's deprecation notices about Vite options)
  // is kept back unless it fails, so the store's first lines are its own.
  const result = spawnSync('npx', ['react-router', 'build'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    console.error('O build falhou; a saída dele está acima.');
    process.exit(result.status ?? 1);
  }
  console.log(`Build pronto em ${Math.round((Date.now() - started) / 1000)} s.`);
}
