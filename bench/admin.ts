// npx tsx bench/admin.ts — latency of the admin's dashboard and orders list on a large store.
//
// For each backend (PGlite, then a scratch PostgreSQL database): the sample store plus ORDERS
// generated orders (default 100,000, one to three items each) spread over DAYS days (default
// 400) with mixed statuses, written by a few set-based statements; the production server
// (`node server/main.js`) on it; an admin signed in through the login form; WARMUP rounds of every
// URL; then, for each URL, WARMUP requests and REQUESTS timed ones over CONNECTIONS connections
// (default 1, so the figures are the latency of one member of staff). Prints p50, p95 and the
// slowest answer.
//
// Environment: ORDERS, DAYS, REQUESTS (default 50), WARMUP (default 5), CONNECTIONS, PAGES (a
// regular expression: only the pages whose label it matches, e.g. PAGES='366|surname'),
// BENCH_POSTGRES_URL or --database-url <url> (a server to create `vitrine_bench_admin_…` on and
// drop it after; default postgres://postgres@127.0.0.1:5432/postgres; `skip` runs PGlite only),
// VITRINE_BUILD_DIR (default build-bench, built first if missing or stale).
import { rm } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';

import { sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { PAGE_PARAM } from '~/lib/pagination';
import { addDays, todayIn } from '~/lib/periods';
import { orderNumber } from '~/modules/orders';
import { displayCpf } from '~/modules/orders/index.admin';

import { adminVisitor, withAdmin } from '../tests/support/admin';
import { prepareStoreFolder } from '../tests/support/store';
import type { Visitor } from '../tests/support/visitor';

import { positiveInteger } from './options';
import {
  ensureBuilt,
  percentile,
  printTable,
  scratchPostgres,
  startServer,
  textArray,
} from './support';

const ORDERS = positiveInteger('ORDERS', 100_000);
const DAYS = positiveInteger('DAYS', 400);
const REQUESTS = positiveInteger('REQUESTS', 50);
const WARMUP = positiveInteger('WARMUP', 5);
const CONNECTIONS = positiveInteger('CONNECTIONS', 1);
const PAGES = new RegExp(process.env.PAGES ?? '');

function postgresServerUrl(): string {
  const flag = process.argv.indexOf('--database-url');
  if (flag !== -1) {
    const value = process.argv[flag + 1];
    if (!value) {
      console.error('--database-url needs a postgres://… URL (or "skip").');
      process.exit(2);
    }
    return value;
  }
  return process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}
const POSTGRES_URL = postgresServerUrl();

// prettier-ignore
const FIRST_NAMES = [
  'Maria', 'João', 'Ana', 'Pedro', 'Juliana', 'Lucas', 'Fernanda', 'Rafael', 'Camila', 'Bruno',
  'Patrícia', 'Gustavo', 'Larissa', 'Felipe', 'Beatriz', 'Thiago', 'Aline', 'Rodrigo',
];
// prettier-ignore
const SURNAMES = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima',
  'Gomes', 'Costa', 'Ribeiro', 'Martins', 'Carvalho', 'Araújo', 'Melo', 'Barbosa', 'Cardoso',
  'Teixeira', 'Nascimento', 'Moreira', 'Cavalcanti', 'Dias', 'Castro',
];

// ---------------------------------------------------------------------------------------------
// Data

/**
 * ORDERS orders over the last DAYS days (oldest first, evenly spread, newest now), with 1 to 3
 * items of the sample products each and totals that add up. Statuses: 10% pending, 25%
 * confirmed, 15% shipped, 40% delivered, 10% cancelled. Names, e-mails and CPFs repeat the way
 * real customers do, so searches find a realistic number of orders.
 */
async function fillOrders(db: Db): Promise<void> {
  await db.execute(sql`
    with names as (select ${textArray(FIRST_NAMES)} as firsts, ${textArray(SURNAMES)} as lasts)
    insert into orders (
      customer_name, customer_email, customer_phone, customer_cpf,
      shipping_zip, shipping_street, shipping_number, shipping_neighborhood, shipping_city,
      shipping_state, subtotal_cents, shipping_cost_cents, total_amount_cents, payment_method,
      status, order_token, idempotency_key, created_at, updated_at
    )
    select
      firsts[1 + c % array_length(firsts, 1)] || ' ' || lasts[1 + (c / 7) % array_length(lasts, 1)],
      'cliente' || c || '@example.com',
      '119' || lpad((c % 100000000)::text, 8, '0'),
      lpad(((c::bigint * 7919 + 12345678901) % 100000000000)::text, 11, '0'),
      '01310100', 'Rua ' || lasts[1 + c % array_length(lasts, 1)], (1 + i % 2000)::text,
      'Centro', 'São Paulo', 'SP',
      t.total, 0, t.total, 'pix',
      case
        when i * 37 % 100 < 10 then 'pending'
        when i * 37 % 100 < 35 then 'confirmed'
        when i * 37 % 100 < 50 then 'shipped'
        when i * 37 % 100 < 90 then 'delivered'
        else 'cancelled'
      end,
      'bench-browser-' || c,
      'bench-' || i,
      now() - make_interval(secs => (${ORDERS} - i) * (${DAYS} * 86400.0 / ${ORDERS})),
      now() - make_interval(secs => (${ORDERS} - i) * (${DAYS} * 86400.0 / ${ORDERS}))
    from names, generate_series(1, ${ORDERS}) as i
    -- About 30,000 different customers, some with many orders.
    cross join lateral (select (i::bigint * 2654435761 % 30011)::int as c) as customer
    cross join lateral (
      select sum((990 + (i * 31 + j * 7919) % 30000) * (1 + (i + j) % 2))::int as total
      from generate_series(1, 1 + i % 3) as j
    ) as t`);
  await db.execute(sql`
    with catalogue as (select array_agg(id order by name) as ids from products)
    insert into order_items
      (order_id, product_id, product_name, product_price_cents, quantity, total_price_cents, image_url)
    select o.id, p.id, p.name, line.price, line.quantity, line.price * line.quantity, p.image_urls[1]
    from orders o
    cross join lateral (select substr(o.idempotency_key, 7)::int as i) as n
    cross join generate_series(1, 1 + n.i % 3) as j
    cross join lateral (
      select 990 + (n.i * 31 + j * 7919) % 30000 as price, 1 + (n.i + j) % 2 as quantity
    ) as line
    cross join catalogue
    join products p on p.id = catalogue.ids[1 + (n.i + j) % array_length(catalogue.ids, 1)]
    where o.idempotency_key like 'bench-%'`);
}

/**
 * Runs `load` without the secondary indexes of orders and order_items, then builds them again
 * from their own definitions: building an index once is far faster than growing it row by row
 * (the trigram index of the order search above all), as in a restore.
 */
async function withIndexesBuiltAfter(db: Db, load: () => Promise<void>): Promise<void> {
  const result = (await db.execute(sql`
    select indexname, indexdef from pg_indexes
    where schemaname = 'public' and tablename in ('orders', 'order_items')
      and indexname not in (select conname from pg_constraint)`)) as unknown as {
    rows: { indexname: string; indexdef: string }[];
  };
  for (const index of result.rows) {
    await db.execute(sql.raw(`drop index "${index.indexname}"`));
  }
  await load();
  for (const index of result.rows) await db.execute(sql.raw(index.indexdef));
}

async function fill(db: Db): Promise<void> {
  const started = performance.now();
  await withAdmin((admin) => withIndexesBuiltAfter(admin, () => fillOrders(admin)))(db);
  // A store's tables have statistics; freshly bulk-loaded ones get them here.
  await db.execute(sql`analyze orders`);
  await db.execute(sql`analyze order_items`);
  const result = (await db.execute(sql`
    select (select count(*)::int from orders) as orders,
           (select count(*)::int from order_items) as items`)) as unknown as {
    rows: { orders: number; items: number }[];
  };
  const { orders, items } = result.rows[0]!;
  console.log(
    `  ${orders.toLocaleString('en')} orders and ${items.toLocaleString('en')} items written in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
}

/** What staff would type in the orders search: a surname, an e-mail, a CPF, an order number. */
async function searchTerms(db: Db): Promise<Record<string, string>> {
  const result = (await db.execute(sql`
    select number, customer_email, customer_cpf from orders
    where idempotency_key = ${`bench-${Math.floor(ORDERS / 2)}`}`)) as unknown as {
    rows: { number: number; customer_email: string; customer_cpf: string }[];
  };
  const row = result.rows[0]!;
  return {
    name: 'Cavalcanti',
    email: row.customer_email,
    // Typed with its dots and dash, as staff copy it from the order's page.
    cpf: displayCpf(row.customer_cpf),
    number: orderNumber(row.number),
  };
}

// ---------------------------------------------------------------------------------------------
// Backends and the server

interface Backend {
  name: 'PGlite' | 'PostgreSQL';
  env: Record<string, string>;
  terms: Record<string, string>;
  cleanUp(): Promise<void>;
}

async function pgliteBackend(): Promise<Backend> {
  console.log('PGlite: preparing the store…');
  let terms: Record<string, string> = {};
  // Prepared and closed before the server starts: one process at a time in a PGlite folder.
  const dataDir = await prepareStoreFolder({}, async (db) => {
    await fill(db);
    terms = await searchTerms(db);
  });
  return {
    name: 'PGlite',
    env: { DATA_DIR: dataDir },
    terms,
    cleanUp: () => rm(dataDir, { recursive: true, force: true }),
  };
}

async function postgresBackend(): Promise<Backend> {
  let terms: Record<string, string> = {};
  const { url, dataDir, cleanUp } = await scratchPostgres(
    POSTGRES_URL,
    'vitrine_bench_admin',
    async (db) => {
      await fill(db);
      terms = await searchTerms(db);
    },
    (name) => console.log(`PostgreSQL: preparing the store in ${name}…`),
  );
  return {
    name: 'PostgreSQL',
    env: { DATABASE_URL: url, DATA_DIR: dataDir },
    terms,
    cleanUp,
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Target {
  label: string;
  path: string;
}

function targets(terms: Record<string, string>): Target[] {
  const today = todayIn('America/Sao_Paulo');
  const custom = (from: string, to: string) =>
    `/admin?${new URLSearchParams({ period: 'personalizado', from, to })}`;
  const orders = (params: Record<string, string>) => `/admin/orders?${new URLSearchParams(params)}`;
  return [
    { label: 'dashboard, Hoje', path: '/admin?period=hoje' },
    { label: 'dashboard, Ontem', path: '/admin?period=ontem' },
    { label: 'dashboard, Últimos 7 dias', path: '/admin?period=7dias' },
    { label: 'dashboard, Este mês', path: '/admin?period=mes' },
    { label: 'dashboard, 30 days', path: custom(addDays(today, -29), today) },
    { label: 'dashboard, 366 days', path: custom(addDays(today, -365), today) },
    { label: 'orders, first page', path: '/admin/orders' },
    { label: 'orders, pending', path: orders({ status: 'pending' }) },
    {
      label: 'orders, delivered, page 200',
      path: orders({ status: 'delivered', [PAGE_PARAM]: '200' }),
    },
    { label: 'orders, last 30 days', path: orders({ from: addDays(today, -29), to: today }) },
    { label: 'orders, search surname', path: orders({ q: terms.name! }) },
    { label: 'orders, search e-mail', path: orders({ q: terms.email! }) },
    { label: 'orders, search CPF', path: orders({ q: terms.cpf! }) },
    { label: 'orders, search number', path: orders({ q: terms.number! }) },
    { label: 'orders, page 2000', path: orders({ [PAGE_PARAM]: '2000' }) },
  ];
}

interface Measured {
  backend: string;
  target: Target;
  p50: number;
  p95: number;
  max: number;
  /** Answers other than 200, by status. */
  statuses: Map<number, number>;
}

async function measure(backend: string, visitors: Visitor[], target: Target): Promise<Measured> {
  const statuses = new Map<number, number>();
  const times: number[] = [];
  let remaining = WARMUP + REQUESTS;
  await Promise.all(
    visitors.map(async (visitor) => {
      while (remaining > 0) {
        const warm = remaining > REQUESTS;
        remaining -= 1;
        const begin = performance.now();
        const page = await visitor.get(target.path);
        const took = performance.now() - begin;
        if (warm) continue;
        times.push(took);
        if (page.status !== 200) statuses.set(page.status, (statuses.get(page.status) ?? 0) + 1);
      }
    }),
  );
  return {
    backend,
    target,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: percentile(times, 100),
    statuses,
  };
}

async function benchmark(backend: Backend): Promise<Measured[]> {
  const server = await startServer({ SEED: 'false', ...backend.env });
  try {
    const visitors = await Promise.all(
      Array.from({ length: CONNECTIONS }, () => adminVisitor(server.url)),
    );
    const pages = targets(backend.terms).filter((page) => PAGES.test(page.label));
    // A new server answers its first few dozen pages slowly (its code not yet compiled): rounds
    // of every page first, so the first page timed does not carry that alone.
    for (let i = 0; i < WARMUP; i++) {
      for (const page of pages) await visitors[0]!.get(page.path);
    }
    const results: Measured[] = [];
    for (const target of pages) {
      const result = await measure(backend.name, visitors, target);
      results.push(result);
      console.log(
        `  ${backend.name} ${target.label}: p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms`,
      );
    }
    return results;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  await ensureBuilt();
  const results: Measured[] = [];
  const makers: (() => Promise<Backend>)[] = [pgliteBackend];
  if (POSTGRES_URL !== 'skip') makers.push(postgresBackend);
  for (const make of makers) {
    const backend = await make();
    try {
      results.push(...(await benchmark(backend)));
    } finally {
      await backend.cleanUp();
    }
  }

  const cpu = cpus()[0]?.model.trim() ?? '?';
  console.log(
    `\nAdmin pages: ${ORDERS.toLocaleString('en')} orders over ${DAYS} days, ${REQUESTS} timed ` +
      `requests per page after ${WARMUP} of warm-up, ${CONNECTIONS} connection(s), signed in. ` +
      `Client and server on the same machine: Node ${process.version}, ` +
      `${availableParallelism()} CPU (${cpu}).\n`,
  );
  printTable(
    ['Backend', 'Page', 'p50 (ms)', 'p95 (ms)', 'max (ms)', 'not 200'],
    results.map((r) => [
      r.backend,
      r.target.label,
      r.p50.toFixed(0),
      r.p95.toFixed(0),
      r.max.toFixed(0),
      [...r.statuses].map(([status, n]) => `${n} × ${status}`).join(', ') || '0',
    ]),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
