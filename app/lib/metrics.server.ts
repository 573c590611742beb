import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The process's measurements for /metrics (Prometheus's format). Each instance counts its own;
 * Prometheus sums the instances. What is the store's rather than the process's (the outbox's
 * backlog) is read from the database when scraped: see server/metrics.ts.
 */
export const metricsRegistry = new Registry();

// Memory, CPU, handles, garbage collection and the event loop's delay.
collectDefaultMetrics({ register: metricsRegistry });

export const httpRequestDuration = new Histogram({
  name: 'vitrine_http_request_duration_seconds',
  help: 'Requests answered, by route (the app route id, or static, healthz, metrics), method and status, and how long each took.',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const pageCacheRequests = new Counter({
  name: 'vitrine_page_cache_requests_total',
  help: 'Anonymous page requests the page cache could answer: a hit, or a miss it rendered and kept.',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

export const ordersPlaced = new Counter({
  name: 'vitrine_orders_placed_total',
  help: 'Orders placed at the checkout.',
  registers: [metricsRegistry],
});

export const ordersPaid = new Counter({
  name: 'vitrine_orders_paid_total',
  help: 'Orders whose payment was confirmed.',
  registers: [metricsRegistry],
});

export const outsideServiceFailures = new Counter({
  name: 'vitrine_outside_service_failures_total',
  help: 'Calls to an outside service (payment gateway, CEP look-up, sales tracking) with no usable answer or a server error.',
  labelNames: ['service', 'failure'] as const,
  registers: [metricsRegistry],
});

export const outboxFailures = new Counter({
  name: 'vitrine_outbox_failures_total',
  help: 'Outbox jobs (e-mails, tracking reports) whose attempt failed, by topic; each is retried until it gives up.',
  labelNames: ['topic'] as const,
  registers: [metricsRegistry],
});

export const databaseStatements = new Counter({
  name: 'vitrine_database_statements_total',
  help: "Statements this process sent to its database (transactions' begin and commit included): divided by the orders placed, what one order costs the database.",
  registers: [metricsRegistry],
});

export const readQueries = new Counter({
  name: 'vitrine_read_queries_total',
  help: "Queries of the storefront's reads with a read replica (DATABASE_REPLICA_URL), by the database that answered: the replica, or the primary while the replica was behind or failing.",
  labelNames: ['database'] as const,
  registers: [metricsRegistry],
});
