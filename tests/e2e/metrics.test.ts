import { readFile } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parsePrometheusText, type MetricFamily } from '../support/prometheus';
import { sampleProduct, sampleProductPath } from '../support/sample';
import { startServer, type TestServer } from '../support/server';
import { Visitor } from '../support/visitor';

const TOKEN = 'metricas-do-teste-0123456789';
const HEADPHONES = sampleProduct('Fone de Ouvido');

describe('/metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      env: {
        METRICS_TOKEN: TOKEN,
        PAYMENT_PROVIDER: 'sandbox',
        // Nothing listens here: every CEP look-up fails.
        CEP_SERVICE_URL: 'http://127.0.0.1:9',
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const scrape = (authorization?: string) =>
    fetch(`${server.url}/metrics`, {
      headers: authorization ? { Authorization: authorization } : {},
    });

  async function families() {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await response.text());
  }

  /** The samples named `name` whose labels include `labels`. */
  function samples(parsed: MetricFamily[], name: string, labels: Record<string, string> = {}) {
    return parsed
      .flatMap((family) => family.samples)
      .filter(
        (sample) =>
          sample.name === name &&
          Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      );
  }
  const valueOf = (parsed: MetricFamily[], name: string, labels: Record<string, string> = {}) =>
    samples(parsed, name, labels).reduce((sum, sample) => sum + Number(sample.value), 0);

  it('answers 401 without the token or with another one, and shows no figure', async () => {
    for (const authorization of [undefined, 'Bearer errado', `Basic ${TOKEN}`, TOKEN]) {
      const response = await scrape(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      const text = await response.text();
      expect(text).toBe('Token de métricas ausente ou inválido.\n');
    }
  });

  it('counts requests by route, the page cache, orders and failed outside calls, in Prometheus text', async () => {
    const before = await families();
    const productPath = sampleProductPath('Fone de Ouvido');
    for (let visit = 0; visit < 3; visit++) {
      expect((await fetch(`${server.url}${productPath}`)).status).toBe(200);
    }
    expect((await fetch(`${server.url}/api/cep/01310100`)).status).toBeLessThan(500);
    const shopper = new Visitor(server.url);
    await shopper.addToCart(HEADPHONES.id, 1);
    await shopper.checkout();
    // The sale left the headphones' stock in the band their page shows (migration 0033): this
    // visit is a hit too.
    expect((await fetch(`${server.url}${productPath}`)).status).toBe(200);

    const after = await families();
    const productPage = { route: 'routes/store/product', method: 'GET', status: '200' };
    const histogram = 'vitrine_http_request_duration_seconds';
    expect(valueOf(after, `${histogram}_count`, productPage)).toBeGreaterThanOrEqual(3);
    expect(samples(after, `${histogram}_bucket`, { ...productPage, le: '+Inf' })).toHaveLength(1);
    // The product's address is not a label: its route is.
    const routes = new Set(
      samples(after, `${histogram}_count`).map((sample) => sample.labels.route),
    );
    expect([...routes].some((route) => route?.includes('fone'))).toBe(false);
    expect(routes).toContain('routes/store/checkout');
    expect(routes).toContain('metrics');

    const cache = (parsed: MetricFamily[], result: string) =>
      valueOf(parsed, 'vitrine_page_cache_requests_total', { result });
    expect(cache(after, 'miss') - cache(before, 'miss')).toBeGreaterThanOrEqual(1);
    expect(cache(after, 'hit') - cache(before, 'hit')).toBeGreaterThanOrEqual(3);
    expect(valueOf(after, 'vitrine_page_cache_bytes')).toBeGreaterThan(0);

    expect(
      valueOf(after, 'vitrine_orders_placed_total') -
        valueOf(before, 'vitrine_orders_placed_total'),
    ).toBe(1);
    expect(
      valueOf(after, 'vitrine_outside_service_failures_total', { service: 'cep' }),
    ).toBeGreaterThanOrEqual(1);
    // The order's e-mail went through the outbox: the backlog gauges are there, by topic.
    for (const name of ['vitrine_outbox_pending', 'vitrine_outbox_oldest_pending_seconds']) {
      expect(after.find((family) => family.name === name)?.type).toBe('gauge');
    }
    expect(valueOf(after, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);

    // The sample dashboard asks only for what the server exports (the pool: PostgreSQL only).
    const dashboard = await readFile('docs/deploy/grafana-dashboard.json', 'utf8');
    const asked = new Set(dashboard.match(/\b(?:vitrine|nodejs|process)_\w+/g));
    // A labelled counter with nothing counted yet has no sample, only its family.
    const exported = new Set(
      after.flatMap((family) => [
        ...family.samples.map(({ name }) => name),
        family.type === 'counter' ? `${family.name}_total` : family.name,
      ]),
    );
    const missing = [...asked].filter(
      (name) => !exported.has(name) && !name.startsWith('vitrine_db_pool_'),
    );
    expect(missing).toEqual([]);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({});
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is not there at all', async () => {
    const response = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('vitrine_');
  });
});
