import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

import type { PGlite, Results, Transaction } from '@electric-sql/pglite';

import { logger } from '~/lib/logger.server';

import { PREPARED_PER_CONNECTION } from './prepared-statements.server';

/**
 * PGlite in a thread of its own (ADR 049), as the rest of the app uses it: `query`, `exec` and
 * `transaction` as PGlite's, plus LISTEN, the folder's dump and close. Each call is a message to
 * server/pglite-worker.js and its answer; a transaction is opened there with `begin` (answered
 * once inside, as PGlite runs one at a time and queries outside it wait), its statements name
 * it, and `end` commits or rolls it back. Errors come back as data, their SQLSTATE `code` and
 * `constraint` kept (errors.server.ts reads them).
 */
export interface PgliteThread {
  query: PGlite['query'];
  exec: PGlite['exec'];
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(): Promise<Blob>;
  close(): Promise<void>;
  readonly closed: boolean;
}

/** While a transaction's statement runs, how often the thread is checked for having stopped. */
const THREAD_CHECK_MS = 1_000;

interface Answer {
  id?: number;
  op?: 'ready' | 'failed' | 'notify';
  ok?: boolean;
  result?: unknown;
  error?: Record<string, unknown>;
  channel?: string;
  payload?: string;
}

/** The worker's file, found from this module both in the sources and in the server build. */
function workerFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'server', 'pglite-worker.js');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Cannot find server/pglite-worker.js');
    dir = parent;
  }
}

function rebuildError(fields: Record<string, unknown> = {}): Error {
  const error = new Error(String(fields.message ?? 'PGlite failed'));
  Object.assign(error, fields);
  return error;
}

export async function openPgliteThread(options: {
  dataDir?: string;
  loadDataDir?: Blob;
  extensions: string[];
  textTypes: number[];
}): Promise<PgliteThread> {
  const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
  // A transaction's statements are answered on a port of their own, waited for with Atomics (see
  // `waitFor`).
  const { port1: syncPort, port2: workerSyncPort } = new MessageChannel();
  const syncFlag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(workerFile(), {
    workerData: {
      dataDir: options.dataDir,
      loadDataDir,
      extensions: options.extensions,
      textTypes: options.textTypes,
      preparedLimit: PREPARED_PER_CONNECTION,
      syncPort: workerSyncPort,
      syncFlag,
    },
    transferList: [workerSyncPort, ...(loadDataDir ? [loadDataDir] : [])],
  });
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  /** Who listens on each channel: the thread LISTENs once per channel, for all of them. */
  const channels = new Map<
    string,
    { handlers: Set<(payload: string) => void>; on: Promise<unknown> }
  >();
  let nextId = 1;
  let closed = false;
  let started = false;
  let gone: Error | undefined;

  // The thread keeps the process alive only while an answer is awaited: a script that opened the
  // database and is done exits as it did with PGlite on its own thread.
  worker.unref();
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return waiting;
  };

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (answer: Answer) => {
      if (answer.op === 'ready') return resolve();
      if (answer.op === 'failed') return reject(rebuildError(answer.error));
      if (answer.op === 'notify') {
        for (const onNotify of channels.get(answer.channel!)?.handlers ?? []) {
          onNotify(answer.payload ?? '');
        }
        return;
      }
      const waiting = settle(answer.id!);
      if (answer.ok) waiting?.resolve(answer.result);
      else waiting?.reject(rebuildError(answer.error));
    });
    worker.on('error', (error) => {
      gone = error;
      reject(error);
      for (const id of [...pending.keys()]) settle(id)?.reject(error);
    });
    worker.on('exit', (code) => {
      const unexpected = !closed;
      closed = true;
      gone ??= new Error(`The database thread stopped (exit code ${code})`);
      reject(gone);
      for (const id of [...pending.keys()]) settle(id)?.reject(gone);
      // A store without its database answers nothing: stopped, its supervisor starts it again
      // (as when the folder's lock is lost).
      if (unexpected && started) {
        logger.fatal({ err: gone }, 'The database thread stopped; stopping');
        process.exit(1);
      }
    });
  });

  const call = <T>(message: Record<string, unknown>): Promise<T> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
  };

  /**
   * A statement of an open transaction, waited for without letting this thread run anything else
   * meanwhile. PGlite runs one transaction at a time and every other statement waits for it: were
   * its statements answered as events, each would wait behind whatever page this thread renders
   * then, and the transaction, holding the whole database, would last as long as many renders.
   * Waited for here, it is as short as on one thread (ADR 049). Only a transaction's statements:
   * they never wait for another (this one holds the database), where a statement outside it may
   * wait for a transaction that itself waits for this thread.
   */
  const waitFor = <T>(message: Record<string, unknown>): Promise<T> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    Atomics.store(syncFlag, 0, 0);
    syncPort.postMessage({ ...message, id });
    // The flag says an answer came; the answer itself is taken by its id, so an answer that
    // came late to a call before this one (or a flag set before its message shows) is never
    // taken for this one's.
    for (;;) {
      if (Atomics.wait(syncFlag, 0, 0, THREAD_CHECK_MS) === 'timed-out' && worker.threadId === -1) {
        return Promise.reject(new Error('The database thread stopped'));
      }
      for (;;) {
        const answer = receiveMessageOnPort(syncPort)?.message as Answer | undefined;
        if (!answer) break;
        if (answer.id !== id) continue;
        return answer.ok
          ? Promise.resolve(answer.result as T)
          : Promise.reject(rebuildError(answer.error));
      }
      Atomics.store(syncFlag, 0, 0);
    }
  };

  const queryIn =
    (tx?: number) =>
    <T>(sql: string, params?: unknown[], queryOptions?: { rowMode?: 'array' | 'object' }) =>
      (tx === undefined ? call : waitFor)<Results<T>>({
        op: 'query',
        tx,
        sql,
        params,
        options: queryOptions?.rowMode ? { rowMode: queryOptions.rowMode } : undefined,
      });
  const execIn = (tx?: number) => (sql: string) =>
    (tx === undefined ? call : waitFor)<Results[]>({ op: 'exec', tx, sql });

  try {
    await ready;
    started = true;
  } catch (error) {
    closed = true;
    await worker.terminate();
    throw error;
  }

  return {
    query: queryIn() as PGlite['query'],
    exec: execIn() as PGlite['exec'],
    async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      const tx = await call<number>({ op: 'begin' });
      const handle = {
        query: queryIn(tx),
        exec: execIn(tx),
        sql: () => {
          throw new Error('Not used by the app: query instead');
        },
        async rollback() {
          throw new Error('Not used by the app: throw instead');
        },
        get closed() {
          return false;
        },
        listen: () => {
          throw new Error('LISTEN inside a transaction is not used by the app');
        },
      } as unknown as Transaction;
      let result: T;
      try {
        result = await work(handle);
      } catch (error) {
        await waitFor({ op: 'end', tx, commit: false });
        throw error;
      }
      await waitFor({ op: 'end', tx, commit: true });
      return result;
    },
    async listen(channel, onNotify) {
      let listening = channels.get(channel);
      if (!listening) {
        listening = { handlers: new Set(), on: call({ op: 'listen', channel }) };
        channels.set(channel, listening);
      }
      const { handlers, on } = listening;
      handlers.add(onNotify);
      await on;
      return async () => {
        if (!handlers.delete(onNotify) || handlers.size > 0) return;
        channels.delete(channel);
        if (!closed) await call({ op: 'unlisten', channel });
      };
    },
    async dumpDataDir() {
      return new Blob([await call<ArrayBuffer>({ op: 'dump' })]);
    },
    async close() {
      if (closed) return;
      await call({ op: 'close' });
      closed = true;
      syncPort.close();
      await worker.terminate();
    },
    get closed() {
      return closed;
    },
  };
}
