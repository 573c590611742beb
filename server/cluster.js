// WEB_CONCURRENCY > 1 (PostgreSQL only, ADR 051): this process starts that many copies of the
// server on the same port (node:cluster) and looks after them; it serves nothing itself. Each
// copy is one more instance of the store on the one database, as several machines would be:
// everything that must hold across them already lives in the database.
import cluster from 'node:cluster';

import { AggregatorRegistry } from 'prom-client';

/** A copy that dies is started again after this long, so a copy that cannot start does not spin. */
const RESTART_DELAY_MS = 1_000;

/** Asked by a copy for /metrics: the figures of all of them, added up (see server/metrics.ts). */
export const METRICS_REQUEST = 'vitrine:metrics-request';
export const METRICS_ANSWER = 'vitrine:metrics-answer';
/** Sent to each copy to stop it as a signal would (server/main.js). */
export const STOP_COPY = 'vitrine:stop';

/**
 * In a copy, from its start: answers the supervising process's requests for figures, with none
 * until server/metrics.ts hands it the registries, so a copy still starting never keeps /metrics
 * waiting for it.
 */
export function answerForMetrics() {
  new AggregatorRegistry();
}

/**
 * Starts `copies` servers, the first alone (it migrates the database and prepares the store), the
 * others once it listens; starts again one that dies; stops them all on SIGTERM or SIGINT, and
 * exits when they have.
 * @param {number} copies
 * @param {import('pino').Logger} logger
 * @returns {Promise<never>}
 */
export async function superviseCopies(copies, logger) {
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  /** The copies serving (their handlers for a stop are in place). */
  const listening = new Set();
  let announced = false;
  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    if (!announced && listening.size === copies) {
      announced = true;
      logger.info({ copies, pid: process.pid }, `${copies} cópias do servidor no ar`);
    }
  });

  cluster.on('message', (worker, message) => {
    if (message?.type !== METRICS_REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: METRICS_ANSWER, id: message.id, text }),
      (/** @type {unknown} */ error) =>
        worker.send({ type: METRICS_ANSWER, id: message.id, error: String(error) }),
    );
  });

  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info('Todas as cópias do servidor pararam');
        process.exit(0);
      }
      return;
    }
    logger.error(
      { pid: worker.process.pid, code, signal },
      'Uma cópia do servidor parou; iniciando outra',
    );
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, RESTART_DELAY_MS).unref();
  });

  /** @param {NodeJS.Signals} signal */
  const stop = (signal) => {
    if (stopping) {
      logger.warn({ signal }, 'Segundo sinal: saindo agora');
      process.exit(1);
    }
    stopping = true;
    const running = Object.values(cluster.workers ?? {});
    if (running.length === 0) process.exit(0);
    // Each copy shuts down as a lone server would (server/main.js): /healthz 503, then requests
    // finished, then the database closed. One still starting has no requests yet to finish.
    for (const worker of running) {
      if (worker && listening.has(worker.id)) worker.send({ type: STOP_COPY, signal });
      else worker?.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const first = cluster.fork();
  const started = await new Promise((resolve) => {
    first.once('listening', () => resolve(true));
    first.once('exit', () => resolve(false));
  });
  if (!started) {
    logger.fatal('A primeira cópia do servidor não iniciou; veja a mensagem acima');
    process.exit(1);
  }
  for (let i = 1; i < copies; i++) cluster.fork();
  return new Promise(() => {});
}
