// The CI's time budget: runs `.ci/run` on a clean clone of HEAD (with ../shared beside it, as CI
// has it) and prints where the time went: per step, per test file and the twenty slowest tests,
// with the machine's load. Exits 1 when the run fails or takes longer than the budget. A
// benchmark, not a test: run it by hand on a quiet machine (docs/ci-time.md keeps its tables).
//
//   npx tsx scripts/ci-time.ts                     # clone HEAD, run .ci/run, report
//   npx tsx scripts/ci-time.ts --budget 1200       # the budget in seconds (20 minutes by default)
//   npx tsx scripts/ci-time.ts --log run.log --reports DIR   # report on a run already made
//   … --write-durations   # also keep each test file's duration in tests/durations.json, which
//                         # orders the files of a run without Vitest's cache (longest first)
import { execFileSync, spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    budget: { type: 'string', default: '1200' },
    log: { type: 'string' },
    reports: { type: 'string' },
    'write-durations': { type: 'boolean', default: false },
  },
});
const budget = Number(values.budget);
if (!Number.isFinite(budget) || budget <= 0) {
  console.error(`--budget must be a number of seconds, got "${values.budget}"`);
  process.exit(2);
}

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Runs .ci/run in a clean clone of HEAD; resolves with its log, reports folder and exit code. */
async function runCi(): Promise<{ log: string; reports: string; code: number }> {
  const base = mkdtempSync(join(tmpdir(), 'vitrine-ci-time-'));
  const clone = join(base, 'main');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone], { stdio: 'inherit' });
  const shared = resolve(root, '..', 'shared');
  if (existsSync(shared)) symlinkSync(shared, join(base, 'shared'));
  const reports = join(base, 'reports');
  const log = join(base, 'ci.log');
  const out = createWriteStream(log);
  const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: clone }).toString();
  console.log(`Clean clone of ${head.trim()} in ${clone}; load average at the start: ${load()}`);
  const started = Date.now();
  const code = await new Promise<number>((done) => {
    const child = spawn('bash', ['.ci/run'], {
      cwd: clone,
      env: { ...process.env, CI_REPORTS: reports },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => out.write(chunk));
    }
    // The load average once a minute, so a slow run can be told from a busy machine.
    const sampler = setInterval(() => out.write(`\n[ci-time] load average ${load()}\n`), 60_000);
    child.on('exit', (exitCode) => {
      clearInterval(sampler);
      out.end();
      done(exitCode ?? 1);
    });
  });
  console.log(
    `.ci/run exited ${code} after ${Math.round((Date.now() - started) / 1000)} s; ` +
      `load average at the end: ${load()}; log: ${log}`,
  );
  return { log, reports, code };
}

/** The steps `.ci/run` announced ('== name (Ns)') and how long each took. */
interface Step {
  name: string;
  seconds: number;
  at: number;
}

function steps(logText: string): Step[] {
  const marks = [...logText.matchAll(/^== (.+) \((\d+)s\)$/gm)].map((match) => ({
    name: match[1]!,
    at: Number(match[2]),
  }));
  return marks.map((mark, index) => ({
    name: mark.name,
    seconds: (marks[index + 1]?.at ?? mark.at) - mark.at,
    at: mark.at,
  }));
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    assertionResults: { title: string; duration?: number | null }[];
  }[];
}

function testReports(dir: string | undefined): { name: string; report: VitestReport }[] {
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({
      name: basename(name, '.json'),
      report: JSON.parse(readFileSync(join(dir, name), 'utf8')),
    }));
}

/** A test file's path from the repository's root, wherever the run's clone was. */
const repositoryPath = (file: string) => file.replace(/^.*?\/(app|server|scripts|tests)\//, '$1/');

type Cell = string | number;

function table(rows: Cell[][]): string {
  const widths = rows[0]!.map((_, column) =>
    Math.max(...rows.map((row) => String(row[column]).length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          typeof cell === 'number'
            ? String(cell).padStart(widths[column] ?? 0)
            : String(cell).padEnd(widths[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
}

const run = values.log ? { log: values.log, reports: values.reports, code: 0 } : await runCi();
const logText = readFileSync(run.log, 'utf8');
const timed = steps(logText);
const total = timed.at(-1)?.at ?? 0;

console.log('\nPer step (seconds):');
console.log(
  table([
    ['step', 's'],
    ...timed.filter((step) => step.name !== 'Done').map((s) => [s.name, s.seconds]),
    ['total', total],
  ]),
);

for (const { name, report } of testReports(run.reports)) {
  const files = report.testResults.map((file) => ({
    file: repositoryPath(file.name),
    seconds: (file.endTime - file.startTime) / 1000,
    tests: file.assertionResults.length,
  }));
  files.sort((a, b) => b.seconds - a.seconds);
  console.log(
    `\n${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ` +
      `${files.length} files; the ten slowest files (seconds, tests):`,
  );
  console.log(
    table(files.slice(0, 10).map((f) => [f.file, Number(f.seconds.toFixed(1)), f.tests])),
  );
  const tests = report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({
      name: `${repositoryPath(file.name)} › ${test.title}`,
      seconds: (test.duration ?? 0) / 1000,
    })),
  );
  tests.sort((a, b) => b.seconds - a.seconds);
  console.log(`${name}: the twenty slowest tests (seconds):`);
  console.log(
    table(tests.slice(0, 20).map((t) => [t.name.slice(0, 140), Number(t.seconds.toFixed(1))])),
  );
}

if (values['write-durations']) {
  const durations: Record<string, number> = {};
  for (const { report } of testReports(run.reports)) {
    for (const file of report.testResults) {
      const path = repositoryPath(file.name);
      durations[path] = Math.round(file.endTime - file.startTime);
    }
  }
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(join(root, 'tests', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(
    `\nWrote the durations of ${Object.keys(sorted).length} files to tests/durations.json`,
  );
}

const loads = [...logText.matchAll(/\[ci-time\] load average (\S+)/g)].map((m) => Number(m[1]));
if (loads.length > 0) {
  const sorted = [...loads].sort((a, b) => a - b);
  console.log(
    `\nLoad average (1 min) during the run: median ${sorted[Math.floor(sorted.length / 2)]}, ` +
      `highest ${sorted.at(-1)} (${loads.length} samples)`,
  );
}
if (run.code !== 0) {
  console.error(`\nFAIL: .ci/run exited ${run.code}`);
  process.exit(1);
}
if (total > budget) {
  console.error(`\nOVER BUDGET: ${total} s, the budget is ${budget} s`);
  process.exit(1);
}
console.log(`\nWithin budget: ${total} s of ${budget} s`);
