// npx tsx bench/database-thread.ts — does a long statement on the embedded database stop the
// server's thread? (ADR 049)
//
// Runs one long statement (counting 4 million generated rows, about a second: an admin report, an
// export) ROUNDS times (default 3) on PGlite opened on this thread, as the app did before ADR 049,
// and through the app's openDatabase, which runs it in PGlite's own thread. Meanwhile a 2 ms timer
// on this thread counts how often it ran and the longest it could not: what a shopper's request
// arriving then would have waited for before anything of it ran. Printed per round: the
// statement's time, the longest stall and the timer's runs; the stall's ratio is the figure.
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';

import { openDatabase } from '~/db/database.server';

import { positiveInteger } from './options';
import { printTable } from './support';

const ROUNDS = positiveInteger('ROUNDS', 3);
const LONG_STATEMENT = 'select count(*) from generate_series(1, 4000000) a where a % 7 = 3';

async function watched(run: () => Promise<unknown>) {
  let last = performance.now();
  let longest = 0;
  let runs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    runs += 1;
  }, 2);
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  clearInterval(timer);
  longest = Math.max(longest, performance.now() - last);
  return { ms, longest, runs };
}

const rows: string[][] = [];
const stalls = { here: [] as number[], thread: [] as number[] };
const here = await PGlite.create();
const thread = await openDatabase({ memory: true });
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const a = await watched(() => here.query(LONG_STATEMENT));
    const b = await watched(() => thread.db.execute(sql.raw(LONG_STATEMENT)));
    stalls.here.push(a.longest);
    stalls.thread.push(b.longest);
    for (const [where, figure] of [
      ['on the server thread', a],
      ['in its own thread', b],
    ] as const) {
      rows.push([
        String(round),
        where,
        figure.ms.toFixed(0),
        figure.longest.toFixed(0),
        String(figure.runs),
      ]);
    }
  }
} finally {
  await here.close();
  await thread.close();
}
console.log(`\nA long statement on PGlite, ${ROUNDS} rounds:\n`);
printTable(
  ['Round', 'PGlite', 'statement (ms)', "server thread's longest stall (ms)", '2 ms timer runs'],
  rows,
);
const median = (values: number[]) =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
console.log(
  `\nLongest stall, medians: ${median(stalls.here).toFixed(0)} ms on the server thread, ` +
    `${median(stalls.thread).toFixed(0)} ms with PGlite in its own thread.`,
);
