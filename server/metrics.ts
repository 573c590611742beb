import { createHash, timingSafeEqual } from 'node:crypto';

import type express from 'express';
import cluster from 'node:cluster';

import { AggregatorRegistry, Gauge, Registry } from 'prom-client';
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';

import type { Database } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { httpRequestDuration, metricsRegistry, pageCacheRequests } from '~/lib/metrics.server';
import { outboxBacklog } from '~/modules/jobs/index.server';

import { METRICS_ANSWER, METRICS_REQUEST } from './cluster.js';
import type { PageCache } from './page-cache';

/** Distinct paths whose route is remembered; past it the memory starts over (paths are unbounded). */
const REMEMBERED_PATHS = 2_000;

/**
 * /metrics and what feeds it: every request's route, status and time, and, read when scraped,
 * the page cache's size, the database pool's use and the outbox's backlog (the store's, from the
 * database, so any instance tells the same).
 */
export function createMetrics(options: {
  token: string;
  database: Database;
  pageCache: PageCache;
  build: () => Promise<ServerBuild>;
  /** Whether the request is for a file (the build's, public/'s, an upload), not a page. */
  servesFile: (req: express.Request) => boolean;
}) {
  const { database, pageCache } = options;
  const registry = new Registry();
  new Gauge({
    name: 'vitrine_page_cache_bytes',
    help: 'Bytes the page cache holds.',
    registers: [registry],
    collect() {
      this.set(pageCache.size().bytes);
    },
  });
  new Gauge({
    name: 'vitrine_page_cache_entries',
    help: 'Pages the page cache holds.',
    registers: [registry],
    collect() {
      this.set(pageCache.size().entries);
    },
  });
  const pool = database.pool;
  if (pool) {
    new Gauge({
      name: 'vitrine_db_pool_connections',
      help: 'PostgreSQL pool connections: open in all, idle, and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
  // One query for both gauges, however they are collected.
  let backlog: ReturnType<typeof outboxBacklog> | undefined;
  const readBacklog = () => {
    backlog ??= outboxBacklog(database.db)
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'Metrics: could not read the outbox backlog');
        return [];
      })
      .finally(() => setImmediate(() => (backlog = undefined)));
    return backlog;
  };
  new Gauge({
    name: 'vitrine_outbox_pending',
    help: 'Outbox jobs waiting to run, by topic (the whole store).',
    labelNames: ['topic'] as const,
    // The store's, read from the database: every copy tells the same.
    aggregator: 'max',
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await readBacklog()) this.set({ topic: row.topic }, row.pending);
    },
  });
  new Gauge({
    name: 'vitrine_outbox_oldest_pending_seconds',
    help: 'Age of the oldest outbox job still waiting, by topic.',
    labelNames: ['topic'] as const,
    // The store's, read from the database: every copy tells the same.
    aggregator: 'max',
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await readBacklog()) this.set({ topic: row.topic }, row.oldestSeconds);
    },
  });

  // The figures this copy gives the supervising process (server/cluster.js answers for them).
  if (cluster.isWorker) AggregatorRegistry.setRegistries([metricsRegistry, registry]);

  const routeOf = createRouteLabeler(options.build);
  const expected = digest(`Bearer ${options.token}`);

  const observe: express.RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cached = res.getHeader('X-Page-Cache');
      if (typeof cached === 'string') pageCacheRequests.inc({ result: cached });
      const route = options.servesFile(req) ? 'static' : routeOf(req.path);
      httpRequestDuration.observe(
        { route, method: req.method, status: String(res.statusCode) },
        seconds,
      );
    });
    next();
  };

  const endpoint: express.RequestHandler = async (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (!timingSafeEqual(digest(req.get('Authorization') ?? ''), expected)) {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      res.status(401).type('text/plain').send('Token de métricas ausente ou inválido.\n');
      return;
    }
    if (cluster.isWorker) {
      // One copy of several (server/cluster.js): the figures of all of them, added up.
      try {
        res.type(registry.contentType).send(await clusterMetrics());
      } catch (error) {
        logger.warn({ err: error }, 'Metrics: the copies did not answer');
        res.status(503).type('text/plain').send('Métricas indisponíveis no momento.\n');
      }
      return;
    }
    const merged = Registry.merge([metricsRegistry, registry]);
    res.type(merged.contentType).send(await merged.metrics());
  };

  return { observe, endpoint };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The app route that answers a path ('routes/store/product'), so the label's values are few
 * whatever the paths. A data request (`/products.data`, `/_root.data`) counts as its page.
 */
function createRouteLabeler(build: () => Promise<ServerBuild>): (path: string) => string {
  let routes: RouteObject[] | undefined;
  void build().then(
    (resolved) => (routes = routeTree(resolved.routes)),
    (error: unknown) => logger.warn({ err: error }, 'Metrics: could not read the routes'),
  );
  const remembered = new Map<string, string>();
  return (path) => {
    if (path === '/healthz' || path === '/metrics') return path.slice(1);
    if (!routes) return 'unknown';
    let label = remembered.get(path);
    if (label === undefined) {
      const page = path === '/_root.data' ? '/' : path.replace(/\.data$/, '');
      label = matchRoutes(routes, page)?.at(-1)?.route.id ?? 'unmatched';
      if (remembered.size >= REMEMBERED_PATHS) remembered.clear();
      remembered.set(path, label);
    }
    return label;
  };
}

type ManifestRoute = NonNullable<ServerBuild['routes'][string]>;

function routeTree(manifest: ServerBuild['routes']): RouteObject[] {
  const children = new Map<string | undefined, ManifestRoute[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    children.set(route.parentId, [...(children.get(route.parentId) ?? []), route]);
  }
  const under = (parentId: string | undefined): RouteObject[] =>
    (children.get(parentId) ?? []).map((route) =>
      route.index
        ? { id: route.id, index: true, path: route.path }
        : {
            id: route.id,
            path: route.path,
            caseSensitive: route.caseSensitive,
            children: under(route.id),
          },
    );
  return under(undefined);
}

const METRICS_WAIT_MS = 5_000;
let metricsAsked = 0;

/** This copy asks the supervising process (server/cluster.js) for every copy's figures. */
function clusterMetrics(): Promise<string> {
  const id = ++metricsAsked;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', listen);
      reject(new Error('No answer from the supervising process'));
    }, METRICS_WAIT_MS);
    function listen(message: { type?: string; id?: number; text?: string; error?: string }) {
      if (message?.type !== METRICS_ANSWER || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', listen);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.text ?? '');
    }
    process.on('message', listen);
    process.send!({ type: METRICS_REQUEST, id });
  });
}
