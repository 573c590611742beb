// The embedded database's own thread (ADR 049): PGlite's engine, about half of a purchase's CPU,
// runs here, so the server's thread renders pages and answers requests while queries run, and a
// long report no longer holds every shopper's page. Plain JavaScript, as server/main.js: Node
// runs it as it is, from the sources and from a build alike. The other side, and the protocol's
// description, is app/db/pglite-thread.server.ts.
import { parentPort, workerData } from 'node:worker_threads';

import { parse, PGlite, protocol } from '@electric-sql/pglite';

/**
 * @typedef {{ dataDir?: string, loadDataDir?: ArrayBuffer, extensions: string[], textTypes: number[], syncPort: import('node:worker_threads').MessagePort, syncFlag: Int32Array, preparedLimit: number }} Setup
 * @typedef {{ query: PGlite['query'], exec: PGlite['exec'] }} Queryable
 */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const setup = /** @type {Setup} */ (workerData);

/** An error as data: what a structured clone would drop (the SQLSTATE `code`, `constraint`…) kept. */
function describe(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { message: String(error) };
  /** @type {Record<string, unknown>} */
  const fields = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

/** Thrown into a transaction's callback when the server's side ended it with an error. */
class RolledBack extends Error {}

const extensions = Object.fromEntries(
  await Promise.all(
    setup.extensions.map(async (name) => {
      const module = await import(`@electric-sql/pglite/contrib/${name}`);
      return [name, module[name]];
    }),
  ),
);

/** @type {PGlite} */
let client;
try {
  client = await PGlite.create(setup.dataDir ?? 'memory://', {
    loadDataDir: setup.loadDataDir ? new Blob([setup.loadDataDir]) : undefined,
    extensions,
  });
  // Read as PostgreSQL's text, as Drizzle wants them (see TEXT_TYPES in database.server.ts).
  for (const oid of setup.textTypes) client.parsers[oid] = (/** @type {string} */ value) => value;
  port.postMessage({ op: 'ready' });
} catch (error) {
  port.postMessage({ op: 'failed', error: describe(error) });
  process.exit(1);
}

/** Open transactions by id: their queries run through `tx`; `end` settles the callback. */
const transactions = new Map(
  /** @type {[number, { tx: Queryable, end: (commit: boolean) => void, settled: Promise<unknown> }][]} */ ([]),
);
/** What each LISTEN returned, to stop it. */
const listening = new Map(/** @type {[string, () => Promise<void>][]} */ ([]));

/**
 * @typedef {(answer: object, transfer?: import('node:worker_threads').Transferable[]) => void} Send
 */

/** Answers on the port the call came by. */
const asynchronous = /** @type {Send} */ ((reply, transfer) => port.postMessage(reply, transfer));

/**
 * Answers a transaction's statement on its own port, then wakes the server's thread, which waits
 * for it without running anything else (see pglite-thread.server.ts).
 * @type {Send}
 */
const synchronous = (reply) => {
  setup.syncPort.postMessage(reply);
  Atomics.store(setup.syncFlag, 0, 1);
  Atomics.notify(setup.syncFlag, 0);
};

/**
 * The statements prepared by name in the database's one session, by their text, with their
 * parameters' types (ADR 050, as on PostgreSQL): PGlite's `query` parses, describes and plans a
 * statement each time, in six calls into its engine; a prepared one is bound and run in one.
 */
const prepared = new Map(/** @type {[string, { name: string, types: number[] }][]} */ ([]));

/**
 * A statement run as PGlite's `query` runs it, prepared by name when it has parameters and the
 * bound allows; without any (a migration's file of several statements, `begin`) it goes as it is.
 * @param {number | undefined} tx
 * @param {string} text
 * @param {unknown[] | undefined} params
 * @param {import('@electric-sql/pglite').QueryOptions | undefined} options
 */
async function query(tx, text, params, options) {
  const queryable = target(tx);
  if (!params?.length || (!prepared.has(text) && prepared.size >= setup.preparedLimit)) {
    const { rows, fields, affectedRows } = await queryable.query(text, params, options);
    return { rows, fields, affectedRows };
  }
  const run = async () => {
    let statement = prepared.get(text);
    if (!statement) {
      const name = `vitrine_${prepared.size}`;
      const described = await client.execProtocol(
        Buffer.concat([
          protocol.serialize.parse({ name, text }),
          protocol.serialize.describe({ type: 'S', name }),
          protocol.serialize.sync(),
        ]),
        { syncToFs: false },
      );
      statement = { name, types: parse.parseDescribeStatementResults(described.messages) };
      prepared.set(text, statement);
    }
    const { types } = statement;
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serialize = client.serializers[/** @type {number} */ (types[index])];
      return serialize ? serialize(value) : String(value);
    });
    const { messages } = await client.execProtocol(
      Buffer.concat([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      // As `query` does: a statement outside a transaction is written through at once.
      { syncToFs: tx === undefined },
    );
    const [result] = parse.parseResults(messages, client.parsers, options);
    return {
      rows: result?.rows ?? [],
      fields: result?.fields ?? [],
      affectedRows: result?.affectedRows ?? 0,
    };
  };
  // PGlite's own locks, as `query` takes them: inside an open transaction only the statement's,
  // outside one also the transaction's, so the statement waits for the open one to end.
  return tx === undefined
    ? client._runExclusiveTransaction(() => client.runExclusive(run))
    : client.runExclusive(run);
}

/**
 * @param {Send} send
 * @param {number} id
 * @param {() => Promise<unknown>} work
 * @param {(value: any) => import("node:worker_threads").Transferable[]} [transfer]
 */
async function answer(send, id, work, transfer) {
  try {
    const result = await work();
    send({ id, ok: true, result }, transfer ? transfer(result) : []);
  } catch (error) {
    send({ id, ok: false, error: describe(error) });
  }
}

/** @param {number | undefined} tx */
function target(tx) {
  if (tx === undefined) return client;
  const open = transactions.get(tx);
  if (!open) throw new Error(`No open transaction ${tx}`);
  return open.tx;
}

/**
 * @param {any} message
 * @param {Send} send
 */
function handle(message, send) {
  const { id, op } = message;
  switch (op) {
    case 'query':
      void answer(send, id, () => query(message.tx, message.sql, message.params, message.options));
      return;
    case 'exec':
      void answer(send, id, () => target(message.tx).exec(message.sql));
      return;
    case 'begin': {
      // Answered once inside (PGlite runs one transaction at a time, and queries outside it
      // wait), then held open until the server's side sends `end`.
      let entered = false;
      const settled = client.transaction(
        (tx) =>
          new Promise((resolve, reject) => {
            entered = true;
            const end = (/** @type {boolean} */ commit) =>
              commit ? resolve(undefined) : reject(new RolledBack());
            transactions.set(id, { tx, end, settled });
            send({ id, ok: true, result: id });
          }),
      );
      settled
        .catch((/** @type {unknown} */ error) => {
          if (!entered) send({ id, ok: false, error: describe(error) });
        })
        .finally(() => transactions.delete(id));
      return;
    }
    case 'end':
      void answer(send, id, async () => {
        const open = transactions.get(message.tx);
        if (!open) throw new Error(`No open transaction ${message.tx}`);
        open.end(message.commit);
        try {
          await open.settled;
        } catch (error) {
          if (!(error instanceof RolledBack)) throw error;
        }
      });
      return;
    case 'listen':
      void answer(send, id, async () => {
        const channel = /** @type {string} */ (message.channel);
        if (listening.has(channel)) return;
        const stop = await client.listen(channel, (payload) =>
          port.postMessage({ op: 'notify', channel, payload }),
        );
        listening.set(channel, stop);
      });
      return;
    case 'unlisten':
      void answer(send, id, async () => {
        const stop = listening.get(message.channel);
        listening.delete(message.channel);
        await stop?.();
      });
      return;
    case 'dump':
      void answer(
        send,
        id,
        async () => {
          // Written pages make the tarball start without replaying the WAL since the last checkpoint.
          await client.exec('CHECKPOINT');
          return (await client.dumpDataDir('gzip')).arrayBuffer();
        },
        (buffer) => [/** @type {ArrayBuffer} */ (buffer)],
      );
      return;
    case 'close':
      void answer(send, id, async () => {
        if (!client.closed) await client.close();
      });
      return;
    default:
      send({ id, ok: false, error: { message: `Unknown operation ${op}` } });
  }
}

port.on('message', (message) => handle(message, asynchronous));
setup.syncPort.on('message', (message) => handle(message, synchronous));
