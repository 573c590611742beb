// npx tsx bench/stock-update.ts — what a sale's stock reservation costs the database (ADR 053).
//
// On the sample store (PGlite in memory, then a scratch PostgreSQL database), runs the app's own
// stock claim (stockClaimParts, the part of the order's statement that takes a line's units) for
// one unit of one variant COUNT times (default 2000, after 300 of warm-up), each a statement of
// its own, and times each call from this process; the reference, measured the same way in the
// same run, is a statement reading that variant's stock by its key. Then again with the product's description 3,000 characters long,
// as a real store's are (the sample's are about 130): a product's search columns are worked out
// from it. Printed: medians and p90 in µs, and the ratio of the medians. BENCH_POSTGRES_URL as the
// other benches (skip: PGlite only).
import { eq, sql } from 'drizzle-orm';

import { openDatabase, type Db } from '~/db/database.server';
import { products, productVariants } from '~/db/schema';
import { initializeStore } from '~/flows/seed-sample-store.server';
import { stockClaimParts } from '~/modules/catalog/index.server';

import { positiveInteger } from './options';
import { loadAverage, percentile, printTable, scratchPostgres } from './support';

const COUNT = positiveInteger('COUNT', 2000);
const WARMUP = 300;
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function timed(run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < COUNT; i++) {
    const start = performance.now();
    await run();
    times.push((performance.now() - start) * 1000);
  }
  return times;
}

async function measure(backend: string, db: Db): Promise<string[][]> {
  const [variant] = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      price: sql<number>`coalesce(${productVariants.priceCents}, ${products.priceCents})`,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .orderBy(products.name, productVariants.position)
    .limit(1);
  if (!variant) throw new Error('The sample store has no variant');
  await db
    .update(productVariants)
    .set({ stockQuantity: 10_000_000 })
    .where(eq(productVariants.id, variant.id));
  const [part] = stockClaimParts([
    { productId: variant.productId, variantId: variant.id, quantity: 1, priceCents: variant.price },
  ]);
  const claimed = db.$with('claim0', {}).as(part!.build(db, sql`true`).getSQL());
  const reservation = db
    .with(claimed)
    .select({ taken: sql`1` })
    .from(sql`claim0`)
    .prepare(`bench_stock_claim_${backend}`);
  const lines: string[][] = [];
  for (const description of ['sample', '3,000 characters']) {
    if (description !== 'sample') {
      await db
        .update(products)
        .set({ description: 'Tecido de algodão penteado, costura reforçada. '.repeat(64) })
        .where(eq(products.id, variant.productId));
    }
    const read = await timed(() =>
      db
        .select({ stock: productVariants.stockQuantity })
        .from(productVariants)
        .where(eq(productVariants.id, variant.id)),
    );
    const reserve = await timed(async () => {
      if ((await reservation.execute(part!.values)).length !== 1) {
        throw new Error('The stock ran out');
      }
    });
    const median = percentile(reserve, 50);
    lines.push([
      backend,
      description,
      median.toFixed(0),
      percentile(reserve, 90).toFixed(0),
      percentile(read, 50).toFixed(0),
      (median / percentile(read, 50)).toFixed(2),
    ]);
  }
  return lines;
}

async function main(): Promise<void> {
  const lines: string[][] = [];
  const pglite = await openDatabase({ memory: true });
  try {
    await pglite.migrate();
    await initializeStore(pglite.db, { seed: true });
    lines.push(...(await measure('PGlite', pglite.db)));
  } finally {
    await pglite.close();
  }
  if (POSTGRES_URL !== 'skip') {
    const scratch = await scratchPostgres(POSTGRES_URL, 'vitrine_bench_stock', async () => {});
    try {
      const postgres = await openDatabase({ databaseUrl: scratch.url });
      try {
        lines.push(...(await measure('PostgreSQL', postgres.db)));
      } finally {
        await postgres.close();
      }
    } finally {
      await scratch.cleanUp();
    }
  }
  console.log(
    `\nA sale's stock reservation, ${COUNT} after ${WARMUP} of warm-up, each a statement of ` +
      `its own; load average now ${loadAverage()}.\n`,
  );
  printTable(
    [
      'Backend',
      'Description',
      'stock claim p50 (µs)',
      'p90 (µs)',
      'read by key p50 (µs)',
      'reserve ÷ read',
    ],
    lines,
  );
}

await main();
