import { describe, it } from 'vitest';

import { useStoreAndBrowser } from '../support/fixtures';
import {
  calibrateThrottling,
  INTERACTION_BUDGET_MS,
  INTERACTIONS,
  median,
  PHONE_BENCHMARK_INDEX,
  runInteraction,
  type Calibration,
  type InteractionRun,
  type Moment,
} from '../support/interaction';

/** A run as the report shows it: its durations, and whether the tap beat hydration. */
function describeRun(run: InteractionRun & Calibration): string {
  const slowest = run.duration ? `${run.duration} ms` : 'under 16 ms';
  const each = run.durations.join(', ') || 'none at 16 ms';
  const moment = run.firstPointerWhileHydrating ? 'during' : 'after';
  const hydration = `${Math.round(run.hydratingAt ?? 0)}–${Math.round(run.hydratedAt ?? 0)} ms`;
  const phone = `CPU ${run.rate}× slower: index ${run.hostIndex} → ${run.index}`;
  return `${slowest} (interactions: ${each}; tap ${moment} hydration, ${hydration}; ${phone})`;
}

// A first visit from a slow phone: each run is a fresh context (empty cache), the page's CPU
// slowed to the phone's speed, the gesture sent the moment <html> says the page's scripts have
// hydrated it (the page works before that too, from its HTML); its duration is the Event Timing
// API's, as INP counts it. The worst moment, a tap just as React starts to hydrate, is measured
// and reported beside it (and by bench/interaction.ts) but not held to the budget: it is still
// 200–330 ms on this kind of machine (ADR 023).
//
// The phone is a speed, not a rate: 4× on a quiet machine of this kind, less on one busy with
// other work (which is slower itself), as DevTools calibrates its throttling. Each run measures
// the machine as it is just before (ADR 032).
describe(`interactions on a first visit, on a phone of BenchmarkIndex ${PHONE_BENCHMARK_INDEX}`, () => {
  const store = useStoreAndBrowser();

  for (const interaction of INTERACTIONS) {
    it(`${interaction.name}: done, within 200 ms`, async ({ annotate, expect }) => {
      // A machine busy elsewhere stretches a throttled page's timings: the median of three fresh
      // pages is what counts. Three stop at two agreeing runs (two under the budget or two over:
      // the third cannot change which side the median is on).
      const runs: (InteractionRun & Calibration)[] = [];
      const side = (run: InteractionRun) => run.duration < INTERACTION_BUDGET_MS;
      const measure = async (moment: Moment) => {
        const calibration = await calibrateThrottling(store.browser);
        const { browser, server } = store;
        // Throws unless the gesture reached the page and did what the shopper asked.
        const run = await runInteraction(
          browser,
          server.url,
          interaction,
          moment,
          calibration.rate,
        );
        return { ...run, ...calibration };
      };
      while (runs.length < 3) {
        runs.push(await measure('hydrated'));
        if (runs.filter(side).length >= 2 || runs.filter((run) => !side(run)).length >= 2) break;
      }
      const durations = runs.map((run) => run.duration);
      // Of two agreeing runs, either is on the median's side; median() takes the lower.
      const figure = median(durations);
      // The worst moment, for the record: it must still work (the run throws if it does not).
      const early = await measure('hydrating');
      await annotate(
        `once hydrated: ${runs.map(describeRun).join('; ')} → median ${figure} ms; ` +
          `as hydration starts: ${describeRun(early)}`,
      );
      expect(figure, `durations ${durations.join(', ')} ms`).toBeLessThan(INTERACTION_BUDGET_MS);
    });
  }
});
