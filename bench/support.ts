// What the benches that run the production server share: the build, the server, a scratch
// PostgreSQL database, and the figures and table they print.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

import { sql } from 'drizzle-orm';

import { openDatabase, type Db } from '~/db/database.server';
import { initializeStore } from '~/flows/seed-sample-store.server';

import { freePort } from '../tests/support/ports';
import { createDatabase, dropDatabase, uniqueDatabaseName } from '../tests/support/postgres';
import { Visitor } from '../tests/support/visitor';

export const ROOT = new URL('..', import.meta.url).pathname;
export const BUILD_DIR = process.env.VITRINE_BUILD_DIR || 'build-bench';

const keptAlive = new Agent({ keepAlive: true });

/** Bodies as a browser would take them: compressed, so the server's compression is measured. */
const decompressors: Record<string, (body: Buffer) => Buffer> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * A `fetch` for the benches' shoppers, on `node:http` with kept-alive connections. The client
 * shares the server's two cores, which a shopper's phone does not: with Node's own fetch it took
 * 3.4 ms of CPU per order in `bench/checkout.ts`, with this one 1.6–2.2 ms (docs/benchmarks.md). It takes
 * what Visitor sends (a URL, a method, headers, a text or form body), never follows redirects, and
 * asks for compressed bodies as a browser does.
 */
export const benchFetch: typeof fetch = (input, init = {}) =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const call = request(
      new URL(input instanceof Request ? input.url : input),
      { method: init.method ?? 'GET', headers, agent: keptAlive },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', reject);
        answer.on('end', () => {
          const status = answer.statusCode!;
          const received = new Headers();
          for (let at = 0; at < answer.rawHeaders.length; at += 2) {
            const name = answer.rawHeaders[at]!;
            // The body below is decompressed already.
            if (!/^content-(encoding|length)$/i.test(name)) {
              received.append(name, answer.rawHeaders[at + 1]!);
            }
          }
          const raw = Buffer.concat(chunks);
          const decompress = decompressors[answer.headers['content-encoding'] ?? ''];
          const body = [101, 204, 205, 304].includes(status)
            ? null
            : new Uint8Array(decompress ? decompress(raw) : raw);
          resolve(new Response(body, { status, headers: received }));
        });
      },
    );
    call.on('error', reject);
    call.end(init.body == null ? undefined : String(init.body));
  });

/** A new shopper of the benches: a Visitor whose requests go through benchFetch. */
export const benchShopper = (baseUrl: string) => new Visitor(baseUrl, { fetch: benchFetch });

/** Builds into BUILD_DIR unless a build newer than the sources is already there. */
export async function ensureBuilt(): Promise<void> {
  await run(process.execPath, ['scripts/ensure-build.js'], { VITRINE_BUILD_DIR: BUILD_DIR });
}

function run(command: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

/** A text[] literal for set-based statements. */
export const textArray = (values: string[]) =>
  sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;

export interface ScratchDatabase {
  url: string;
  /** A data folder next to it (the outbox writes its e-mails there). */
  dataDir: string;
  cleanUp(): Promise<void>;
}

/**
 * A new, empty database named after `prefix` on the PostgreSQL server at `serverUrl`, with a data
 * folder beside it; both dropped again by `cleanUp`.
 */
export async function emptyPostgres(
  serverUrl: string,
  prefix: string,
  announce?: (name: string) => void,
): Promise<ScratchDatabase> {
  const name = uniqueDatabaseName(prefix);
  announce?.(name);
  const url = await createDatabase(serverUrl, name);
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-bench-'));
  const cleanUp = async () => {
    await dropDatabase(serverUrl, name);
    await rm(dataDir, { recursive: true, force: true });
  };
  return { url, dataDir, cleanUp };
}

/**
 * A new database (emptyPostgres), migrated, with the sample store and what `fill` adds; dropped
 * again by `cleanUp` (or at once if `fill` fails).
 */
export async function scratchPostgres(
  serverUrl: string,
  prefix: string,
  fill: (db: Db) => Promise<void>,
  announce?: (name: string) => void,
): Promise<ScratchDatabase> {
  const scratch = await emptyPostgres(serverUrl, prefix, announce);
  try {
    const database = await openDatabase({ databaseUrl: scratch.url });
    try {
      await database.migrate();
      await initializeStore(database.db, { seed: true });
      await fill(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    await scratch.cleanUp();
    throw error;
  }
  return scratch;
}

export interface Server {
  url: string;
  /** The server process's id (its memory is in /proc/<pid>/status). */
  pid: number;
  stop(): Promise<void>;
}

/** A checkout of the app and the build folder (relative to it) its server runs from. */
export interface Checkout {
  root: string;
  buildDir: string;
}

/**
 * `node server/main.js` as in production, from this checkout's BUILD_DIR unless `checkout` names
 * another (an older commit, to compare with), with `env` on top of the bench's defaults (no
 * DATABASE_URL unless `env` has one); resolves once /healthz answers 200. `watch` sees everything
 * the server writes.
 */
export async function startServer(
  env: Record<string, string>,
  watch?: (text: string) => void,
  checkout: Checkout = { root: ROOT, buildDir: BUILD_DIR },
): Promise<Server> {
  const port = await freePort();
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    VITRINE_BUILD_DIR: checkout.buildDir,
    // As `npm start` runs it (ADR 020): the figures are the ones a store sees.
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    // No outside services: e-mails go to .eml files, no sales tracking.
    SMTP_URL: '',
    UTMIFY_API_TOKEN: '',
    ...env,
  };
  if (!env.DATABASE_URL) delete serverEnv.DATABASE_URL;
  // PROFILE_DIR: the server writes a V8 CPU profile there when it stops (`--cpu-prof`), and
  // beside it when each request began and ended (bench/request-spans.mjs).
  const profile = process.env.PROFILE_DIR
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${process.env.PROFILE_DIR}`,
        `--import=${join(ROOT, 'bench/request-spans.mjs')}`,
      ]
    : [];
  // SERVER_NODE_FLAGS: Node's own flags for the server (say --max-semi-space-size=64), to try one.
  const flags = (process.env.SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...profile, ...flags, 'server/main.js'], {
    cwd: checkout.root,
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Keep draining, or the server would block on a full pipe; keep the tail for errors.
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-20_000);
    watch?.(text);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (gone) throw new Error(`The server exited:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`The server did not answer /healthz within 60 s:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) console.error(`The server exited with ${code}:\n${output}`);
    },
  };
}

/**
 * CPU seconds (user + system) counted in /proc stat files, a process's (`/proc/PID/stat`) or a
 * thread's (`/proc/PID/task/TID/stat`); one gone since counts nothing.
 */
export async function procCpuSeconds(statFiles: string[]): Promise<number> {
  const ticksPerSecond = 100; // USER_HZ, the same on every Linux architecture Node runs on
  let ticks = 0;
  for (const file of statFiles) {
    try {
      const stat = await readFile(file, 'utf8');
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone.
    }
  }
  return ticks / ticksPerSecond;
}

/** The value below which `p` percent of `values` fall (0 for none). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A Markdown table: the first `left` columns left-aligned, the others right-aligned. */
export function printTable(header: string[], lines: string[][], left = 2): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  const format = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column < left ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  console.log(format(header));
  console.log(
    `|${widths.map((width, column) => (column < left ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`,
  );
  for (const line of lines) console.log(format(line));
}

/** What a load run did: tasks done in `seconds`, each one's latency (ms), failures by reason. */
export interface Tally {
  done: number;
  seconds: number;
  latencies: number[];
  failures: Map<string, number>;
}

/**
 * Runs `connections` loops of the task each `setUp` returns (once per loop: a shopper's own
 * state) until `durationMs` have passed; counts and times each run of it, and sorts failures by
 * their message.
 */
export async function runLoad(
  connections: number,
  durationMs: number,
  setUp: () => Promise<() => Promise<void>>,
): Promise<Tally> {
  const tally: Tally = { done: 0, seconds: 0, latencies: [], failures: new Map() };
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const task = await setUp();
      while (performance.now() < end) {
        const begin = performance.now();
        try {
          await task();
          tally.done += 1;
          tally.latencies.push(performance.now() - begin);
        } catch (error) {
          const reason = error instanceof Error ? error.message.slice(0, 200) : String(error);
          tally.failures.set(reason, (tally.failures.get(reason) ?? 0) + 1);
        }
      }
    }),
  );
  tally.seconds = (performance.now() - started) / 1000;
  return tally;
}

/** Runs measured in parts, as one. */
export function combineTallies(tallies: Tally[]): Tally {
  const failures = new Map<string, number>();
  for (const tally of tallies) {
    for (const [reason, n] of tally.failures) failures.set(reason, (failures.get(reason) ?? 0) + n);
  }
  return {
    done: tallies.reduce((sum, tally) => sum + tally.done, 0),
    seconds: tallies.reduce((sum, tally) => sum + tally.seconds, 0),
    latencies: tallies.flatMap((tally) => tally.latencies),
    failures,
  };
}

/** The machine's load averages (1, 5 and 15 minutes), for the report beside the figures. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

// A valid checkout form; the idempotency key comes from the page, and each shopper's e-mail,
// phone and house number from `shopperFields`.
const CUSTOMER = {
  customerName: 'Maria da Silva',
  zipCode: '01310100',
  street: 'Avenida Paulista',
  complement: 'Apto 12',
  neighborhood: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
  paymentMethod: 'pix',
};

/**
 * Who this shopper is: a sale day's shoppers share a product, not an e-mail, a phone or a door
 * (the checkout serialises the orders of one person, under a lock on each of those).
 */
export function shopperFields(shopper: Visitor) {
  const n = Number(shopper.cpf.replace(/\D/g, '').slice(0, 9));
  return {
    ...CUSTOMER,
    customerCpf: shopper.cpf,
    customerEmail: `cliente${n}@example.com`,
    customerPhone: `119${String(n).padStart(8, '0').slice(-8)}`,
    number: String(1 + (n % 99_999)),
  };
}
