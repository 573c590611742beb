import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where `npx tsx scripts/ci-time.ts --write-durations` keeps each test file's last duration. */
export const DURATIONS_FILE = new URL('../durations.json', import.meta.url).pathname;

/**
 * Longest files first, as Vitest orders them from its results cache: a clean clone has no cache,
 * and Vitest then runs the largest files first, which put a 90-line file of 100 s (the
 * accessibility pages) alone at the end of the browser step for a minute. Without a figure in the
 * cache, a file takes its duration from tests/durations.json (a CI run's, kept in the
 * repository); a file in neither is new, and goes first.
 */
export default class DurationSequencer extends BaseSequencer {
  private readonly recorded: Record<string, number> = JSON.parse(
    readFileSync(DURATIONS_FILE, 'utf8'),
  );

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const duration = (spec: TestSpecification) => {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      return cached?.duration ?? this.recorded[path] ?? Number.POSITIVE_INFINITY;
    };
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
