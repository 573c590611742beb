// npm run bench — load test of the storefront on a large generated catalogue.
//
// Fills a fresh embedded database (or the empty PostgreSQL database in DATABASE_URL) with
// PRODUCTS products, starts the production server as `npm start` would, hits a few pages with
// autocannon for DURATION seconds each over CONNECTIONS connections, and prints a table.
// VITRINE_BUILD_DIR: the build to serve (default build-bench, built first if missing or stale).
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';

import { openDatabase, type DatabaseOptions, type Db } from '~/db/database.server';

import { positiveInteger } from './options';
import { BUILD_DIR, ensureBuilt, printTable, ROOT, startServer, textArray } from './support';

const DURATION = positiveInteger('DURATION', 10);
const CONNECTIONS = positiveInteger('CONNECTIONS', 10);
const PRODUCTS = positiveInteger('PRODUCTS', 10_000);
const DATABASE_URL = process.env.DATABASE_URL || undefined;

// Words the generated names are made of; the search below looks for one of them.
// prettier-ignore
const NOUNS = [
  'Fone', 'Caixa de Som', 'Teclado', 'Mouse', 'Monitor', 'Carregador', 'Cabo', 'Luminária',
  'Mochila', 'Garrafa', 'Caneca', 'Relógio', 'Tapete', 'Almofada', 'Camiseta', 'Tênis', 'Panela',
  'Livro', 'Caderno', 'Bola',
];
// prettier-ignore
const ADJECTIVES = [
  'Azul', 'Preto', 'Branco', 'Compacto', 'Premium', 'Clássico', 'Ecológico', 'Portátil',
  'Térmico', 'Infantil', 'Profissional', 'Básico', 'Confortável', 'Resistente', 'Elegante',
];
// prettier-ignore
const CATEGORIES = [
  'Áudio', 'Informática', 'Acessórios', 'Casa', 'Cozinha', 'Esporte', 'Moda', 'Beleza',
  'Brinquedos', 'Livros', 'Jardim', 'Papelaria',
];
// prettier-ignore
const IMAGES = [
  'fone-bluetooth-pro', 'caixa-de-som-portatil', 'headset-gamer', 'teclado-mecanico-rgb',
  'mouse-sem-fio', 'monitor-27-full-hd', 'carregador-usb-c-65w', 'smartwatch-fitness',
];
const SEARCH_TERM = 'teclado';
const GENERATED_CATEGORY = 'Categoria gerada para o benchmark.';

/** Categories, products and some reviews, all in a few set-based statements. */
async function fillCatalogue(db: Db, count: number): Promise<string> {
  await db.execute(sql`
    insert into categories (name, description)
    select name, ${GENERATED_CATEGORY} from unnest(${textArray(CATEGORIES)}) as name`);
  await db.execute(sql`
    with names as (
      select ${textArray(NOUNS)} as nouns, ${textArray(ADJECTIVES)} as adjectives,
             ${textArray(IMAGES)} as images,
             (select array_agg(id order by name) from categories) as categories
    )
    insert into products
      (name, description, price_cents, stock_quantity, category_id, image_urls, created_at, updated_at)
    select
      nouns[1 + i % array_length(nouns, 1)] || ' ' ||
        adjectives[1 + (i / array_length(nouns, 1)) % array_length(adjectives, 1)] || ' ' || i,
      'Produto de demonstração número ' || i || '. ' ||
        repeat('Descrição detalhada com materiais, medidas e cuidados. ', 1 + i % 4),
      990 + (i * 7919) % 250000,
      (i * 31) % 120,
      categories[1 + i % array_length(categories, 1)],
      array['/sample/' || images[1 + i % 8] || '-1.svg', '/sample/' || images[1 + i % 8] || '-2.svg'],
      now() - make_interval(mins => i),
      now() - make_interval(mins => i)
    from names, generate_series(1, ${count}) as i`);
  // Two reviews on every third product, so the rating summaries have real work to do.
  await db.execute(sql`
    insert into reviews (product_id, customer_name, rating, comment)
    select id, 'Cliente ' || n, 1 + abs(hashtext(id::text || n)) % 5, 'Avaliação gerada.'
    from products, generate_series(1, 2) as n
    where abs(hashtext(id::text)) % 3 = 0`);
  const rows = (await db.execute(
    sql`select id from products order by created_at desc limit 1`,
  )) as unknown as { rows: { id: string }[] };
  return rows.rows[0]!.id;
}

async function countProducts(db: Db): Promise<number> {
  const result = (await db.execute(
    sql`select count(*)::int as count from products`,
  )) as unknown as {
    rows: { count: number }[];
  };
  return result.rows[0]!.count;
}

/** The app's stylesheet: the hashed file every page links to. */
function staticAssetPath(): string {
  const assets = readdirSync(join(ROOT, BUILD_DIR, 'client/assets'));
  const css = assets.find((name) => /^app-.*\.css$/.test(name)) ?? assets[0];
  if (!css) throw new Error(`No files in ${BUILD_DIR}/client/assets`);
  return `/assets/${css}`;
}

interface Row {
  target: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  note?: string;
}

async function measure(baseUrl: string, name: string, path: string): Promise<Row> {
  const url = `${baseUrl}${path}`;
  // Browsers ask for compressed responses; the server's compression is part of the cost.
  const headers = { 'accept-encoding': 'br, gzip' };
  const check = await fetch(url, { headers });
  await check.arrayBuffer();
  if (check.status !== 200) {
    return {
      target: name,
      requestsPerSecond: 0,
      p50: 0,
      p99: 0,
      errors: 0,
      non2xx: 0,
      note: `skipped: HTTP ${check.status}`,
    };
  }
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return {
    target: name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function printRows(rows: Row[]): void {
  const header = ['Page', 'req/s', 'p50 (ms)', 'p99 (ms)', 'errors', 'non-2xx'];
  const lines = rows.map((row) =>
    row.note
      ? [row.target, row.note, '', '', '', '']
      : [
          row.target,
          row.requestsPerSecond.toFixed(0),
          String(row.p50),
          String(row.p99),
          String(row.errors),
          String(row.non2xx),
        ],
  );
  printTable(header, lines, 1);
}

async function main(): Promise<void> {
  const dataDir = DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'vitrine-bench-'));
  const options: DatabaseOptions = DATABASE_URL
    ? { databaseUrl: DATABASE_URL }
    : { dataDir: dataDir! };
  let filled = false;
  try {
    const where = DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`;
    console.log(`Filling ${where} with ${PRODUCTS} products…`);
    const started = performance.now();
    const database = await openDatabase(options);
    let productId: string;
    try {
      await database.migrate();
      if ((await countProducts(database.db)) > 0) {
        throw new Error(
          'DATABASE_URL must point to a database without products: the benchmark fills it, ' +
            'then deletes what it added.',
        );
      }
      filled = true;
      productId = await fillCatalogue(database.db, PRODUCTS);
    } finally {
      // The server opens the folder next; PGlite allows one process at a time.
      await database.close();
    }
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

    await ensureBuilt();
    const server = await startServer({
      SEED: 'false',
      ...(DATABASE_URL ? { DATABASE_URL } : { DATA_DIR: dataDir! }),
    });
    const rows: Row[] = [];
    try {
      const targets: [string, string][] = [
        ['/', '/'],
        ['/products', '/products'],
        ['/products (search + sort)', `/products?q=${SEARCH_TERM}&ordem=menor-preco`],
        ['/product/:id', `/product/${productId}`],
        // A page without catalogue queries: the cost of the layout and rendering alone.
        ['/sobre', '/sobre'],
        ['static file (CSS)', staticAssetPath()],
      ];
      for (const [name, path] of targets) {
        console.log(`${name}: ${DURATION} s, ${CONNECTIONS} connections…`);
        rows.push(await measure(server.url, name, path));
      }
    } finally {
      await server.stop();
    }

    const cpu = cpus()[0]?.model.trim() ?? '?';
    console.log(
      `\n${PRODUCTS} products, ${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ` +
        `${CONNECTIONS} connections, ${DURATION} s each; ` +
        `Node ${process.version}, ${availableParallelism()} CPU (${cpu}).\n`,
    );
    printRows(rows);
  } finally {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    else if (filled) {
      // The database had no products before; reviews go with their products.
      const database = await openDatabase(options);
      await database.db.execute(sql`delete from products`);
      await database.db.execute(
        sql`delete from categories where description = ${GENERATED_CATEGORY}`,
      );
      await database.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
