import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Db } from '~/db/database.server';
import type { StoreMode } from '~/modules/settings';

import { prepareStoreFolder } from './store';

const ROOT = new URL('../../', import.meta.url).pathname;

export interface ServerProcess {
  child: ChildProcess;
  /** Everything the server printed so far (JSON log lines). */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

export interface TestServer extends ServerProcess {
  url: string;
  dataDir: string;
  /** Sends a signal (SIGTERM by default) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServerOptions {
  /** Extra environment; DATABASE_URL here switches to PostgreSQL. */
  env?: Record<string, string>;
  /** Reuse a data folder; by default each server gets a fresh one. */
  dataDir?: string;
  /**
   * Start from a folder prepared with the sample store, these settings and whatever `prepare`
   * writes (see prepareStoreFolder); otherwise the server seeds a fresh folder itself.
   */
  settings?: Record<string, unknown>;
  prepare?: (db: Db) => Promise<void>;
  /** 'live': the prepared sample store is live rather than a demo (see prepareStoreFolder). */
  mode?: StoreMode;
  /**
   * An empty folder, which the server migrates and seeds itself as on a store's very first start.
   * Otherwise a fresh folder is a copy of the run's sample store (see prepareStoreFolder): the
   * same tables and rows, made once instead of by every server.
   */
  firstStart?: boolean;
}

/** How long a server may take to listen; the e2e hooks that start servers allow for it. */
export const START_BUDGET_MS = 150_000;

// A server still running when its test file ends (a hook that timed out before it could stop it)
// would go on loading the machine for the next files.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills the servers still running (the e2e setup file's, after each file's own hooks). */
export async function stopServersLeftRunning(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return exited;
    }),
  );
}

/** Runs the production build (`node server/main.js`) as a separate process, as `npm start` does. */
export function spawnServer(options: ServerOptions & { dataDir: string }): ServerProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'info',
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    ...options.env,
  };
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['server/main.js'], { cwd: ROOT, env });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

/** Starts a server on a free port with a fresh database folder and waits until it listens. */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const ownDataDir = !options.dataDir;
  // On PostgreSQL the folder holds only uploads: an embedded store in it would be no one's.
  const onPostgres = !!options.env?.DATABASE_URL && !options.settings && !options.prepare;
  const dataDir =
    options.dataDir ??
    (options.firstStart || onPostgres
      ? await mkdtemp(join(tmpdir(), 'vitrine-e2e-'))
      : await prepareStoreFolder(options.settings ?? {}, options.prepare, options.mode));
  const server = spawnServer({ ...options, dataDir });
  const port = await new Promise<number>((resolve, reject) => {
    // A start's budget: under the CPU burner at load 17–30 a server took over 60 s to listen
    // (its database ready after 29 s). A server that gives up is stopped, not left running.
    const timer = setTimeout(() => {
      server.child.kill('SIGKILL');
      reject(new Error(`Server did not start:\n${server.output()}`));
    }, START_BUDGET_MS);
    const check = () => {
      const match = /"port":(\d+)[^\n]*Vitrine no ar em/.exec(server.output());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    server.child.stdout?.on('data', check);
    server.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`Server exited with code ${code}:\n${server.output()}`));
    });
  });
  return {
    ...server,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    async stop(signal = 'SIGTERM') {
      if (server.child.exitCode === null) server.child.kill(signal);
      const code = await server.exited;
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
