// npx tsx bench/search.ts [products] — how long one catalogue search takes in the database,
// uncached (as the admin's list and every first visit of a search address are), and its 'Você
// quis dizer' when it finds nothing (the name words read every time; the stems of the words
// typed are kept after the first run, as a server keeps them), on the sample
// store and then with `products` generated products added (default 20,000). PGlite in memory;
// with BENCH_DATABASE_URL (a server URL) also on a scratch PostgreSQL database.
import { openDatabase, type Database } from '~/db/database.server';
import { seedSampleStore } from '~/flows/seed-sample-store.server';
import { searchProducts, suggestSearch } from '~/modules/catalog/index.server';

import { fillCatalogue } from './catalogue';
import { percentile, printTable, scratchPostgres } from './support';

const QUERIES = ['fone', 'fones', 'Teclados', 'tecl', 'cafe', 'fone de ouvido', 'tecaldo'];
const RUNS = 100;
const generated = Number(process.argv[2] ?? 20_000);

async function timed(
  runs: number,
  work: () => Promise<unknown>,
): Promise<{ median: number; p95: number }> {
  const kept: number[] = [];
  // The first runs warm the plan and the caches of the database; they are not counted.
  for (let run = 0; run < runs + 5; run++) {
    const started = performance.now();
    await work();
    if (run >= 5) kept.push(performance.now() - started);
  }
  return { median: percentile(kept, 50), p95: percentile(kept, 95) };
}

async function measure(database: Database, label: string, lines: string[][]): Promise<void> {
  for (const q of QUERIES) {
    let total = 0;
    const search = await timed(RUNS, async () => {
      total = (await searchProducts(database.db, { q, sort: 'relevance', perPage: 12 })).total;
    });
    // As the catalogue page asks for a search that found nothing, the name words read each time.
    const suggestion =
      total === 0 ? await timed(RUNS / 5, () => suggestSearch(database.db, { q })) : null;
    lines.push([
      label,
      q,
      String(total),
      search.median.toFixed(2),
      search.p95.toFixed(2),
      suggestion ? suggestion.median.toFixed(2) : '',
    ]);
  }
}

async function run(database: Database, name: string, lines: string[][]): Promise<void> {
  await measure(database, `${name}, sample store`, lines);
  await fillCatalogue(database.db, generated);
  await measure(database, `${name}, +${generated.toLocaleString('en')} products`, lines);
}

const lines: string[][] = [];
const pglite = await openDatabase({ memory: true });
try {
  await pglite.migrate();
  await seedSampleStore(pglite.db);
  await run(pglite, 'PGlite', lines);
} finally {
  await pglite.close();
}

const serverUrl = process.env.BENCH_DATABASE_URL;
if (serverUrl) {
  const scratch = await scratchPostgres(serverUrl, 'vitrine_bench_search', async () => {});
  const postgres = await openDatabase({ databaseUrl: scratch.url });
  try {
    await run(postgres, 'PostgreSQL', lines);
  } finally {
    await postgres.close();
    await scratch.cleanUp();
  }
}

printTable(['Database', 'Search', 'Found', 'Median ms', 'p95 ms', 'Suggestion median ms'], lines);
