#!/usr/bin/env node
// Keeps every core busy, so the tests can be run as they would be on a loaded CI machine:
//   node scripts/cpu-burner.mjs [seconds] [threads]
// Without seconds it spins until it is stopped (Ctrl-C or SIGTERM); threads default to the number
// of cores. Each thread spins in short bursts on plain arithmetic, so the load is on the CPUs,
// not on memory or the disk.
import { availableParallelism } from 'node:os';
import { isMainThread, Worker } from 'node:worker_threads';

if (isMainThread) {
  const [secondsArgument, threadsArgument] = process.argv.slice(2);
  const seconds = Number(secondsArgument ?? 0);
  const threads = Number(threadsArgument ?? availableParallelism());
  if (!Number.isFinite(seconds) || seconds < 0 || !Number.isInteger(threads) || threads < 1) {
    console.error('Usage: node scripts/cpu-burner.mjs [seconds] [threads]');
    process.exit(2);
  }
  const workers = Array.from({ length: threads }, () => new Worker(new URL(import.meta.url)));
  const stop = () => {
    for (const worker of workers) void worker.terminate();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (seconds > 0) setTimeout(stop, seconds * 1000);
  console.log(
    `cpu-burner: ${threads} threads spinning ${seconds > 0 ? `for ${seconds} s` : 'until stopped'}`,
  );
} else {
  let sink = 0;
  for (;;) {
    for (let index = 0; index < 1e7; index += 1) sink = (sink * 31 + index) % 1_000_003;
    // The sink is read, so the loop is not optimised away.
    if (sink < 0) console.log(sink);
  }
}
