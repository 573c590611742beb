import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';

import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where `npx tsx scripts/ci-time.ts --write-durations` keeps each test file's last duration. */
const DURATIONS_FILE = new URL('tests/durations.json', import.meta.url).pathname;

/**
 * Longest files first, as Vitest orders them from its results cache: a clean clone has no cache,
 * and Vitest then runs the largest files first, which put a 90-line file of 100 s (the
 * accessibility pages) alone at the end of the browser step for a minute. Without a figure in the
 * cache, a file takes its duration from tests/durations.json (a CI run's, kept in the
 * repository); a file in neither is new, and goes first.
 */
class DurationSequencer extends BaseSequencer {
  private readonly recorded: Record<string, number> = JSON.parse(
    readFileSync(DURATIONS_FILE, 'utf8'),
  );

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durations = new Map(
      files.map((spec) => {
        const path = relative(root, spec.moduleId);
        const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
        return [spec, cached?.duration ?? this.recorded[path] ?? Number.POSITIVE_INFINITY];
      }),
    );
    const duration = (spec: TestSpecification) => durations.get(spec)!;
    return [...files].sort((a, b) => {
      const groupOrder =
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (groupOrder !== 0) return groupOrder;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const durationA = duration(a);
      const durationB = duration(b);
      return durationA === durationB ? 0 : durationA > durationB ? -1 : 1;
    });
  }
}

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Vitest's default in a run is one worker fewer than the cores: a single file at a time on a
    // 2-core machine. Unit and database tests wait on no one else, so they take every core.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: DurationSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'app/**/*.test.{ts,tsx}',
            'server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tests/lint/**/*.test.ts',
            'tests/support/**/*.test.ts',
          ],
          exclude: ['**/*.db.test.ts'],
          environment: 'node',
          // Pure code: one module graph per worker instead of one per file cut the project's CPU
          // from 55 s to 20 s.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'db',
          include: ['app/**/*.db.test.ts', 'tests/db/**/*.test.ts'],
          globalSetup: ['tests/support/db-global-setup.ts'],
          // One module graph, and one database per backend (tests/support/db.ts), per worker.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/e2e-global-setup.ts'],
          setupFiles: ['tests/support/e2e-setup.ts'],
          // One module graph per worker (Vitest, Playwright, the app's modules), as in `unit` and
          // `db`: a fresh one per file cost each file ~1.5 CPU-seconds. The supports keep no state a
          // later file reads (the pool is each file's Browser's; a server the file left running is
          // stopped after it, tests/support/e2e-setup.ts), and the setup file runs for every file.
          isolate: false,
          testTimeout: 60_000,
          // A file's hooks start its servers (tests/support/server.ts START_BUDGET_MS) and Chromium.
          hookTimeout: 180_000,
          // A poll waits for what the page or server will show; Vitest's 1 s default is a budget
          // a busy machine can spend on one page load.
          expect: { poll: { timeout: 15_000 } },
          // A file alone keeps a 2-core machine ~57% busy (it waits on pages, servers and timers),
          // so three files at a time: the e2e step took 487 s with three workers against 893 s
          // with two (clean clone, quiet machine; README, Tests).
          maxWorkers: 3,
        },
      },
      {
        extends: true,
        test: {
          name: 'interaction',
          include: ['tests/interaction/**/*.test.ts'],
          globalSetup: ['tests/support/e2e-global-setup.ts'],
          // Alone, and after the e2e project when both run (`npm run test:e2e`): the timings of
          // a page slowed 4× stretch with whatever else the two cores are doing.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          // Up to three throttled first visits per test.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'fuzz',
          include: ['tests/fuzz/**/*.test.ts'],
          globalSetup: ['tests/support/e2e-global-setup.ts'],
          // Alone, so its 2 s limit per answer measures the server, not the browser tests beside it.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 15 * 60_000,
        },
      },
    ],
  },
});
