import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { exchange, healthz, statusKey, type Observation } from './checks';
import { discover, type Discovery, type RouteTarget } from './discovery';
import { buildPlan, generate, type GeneratorContext, type TargetKind } from './generate';
import { groupFailures, type FailureGroup } from './triage';

export type { FailureGroup } from './triage';
export type { FailureKind, Observation } from './checks';

export const DEFAULT_SEED = 20261121;
export const DEFAULT_REQUESTS = 20_000;
/**
 * CI's run stops at its request count or after this long, whichever comes first: a quiet machine
 * sends the 20,000 in about 100 s, a loaded one would take many minutes for no more routes.
 */
export const DEFAULT_SECONDS = 60;

/**
 * FUZZ_SEED, FUZZ_REQUESTS and FUZZ_SECONDS, for more requests (or another seed, or a longer
 * run) than CI's on demand.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): {
  seed: number;
  requests: number;
  seconds: number;
} {
  const read = (name: string, fallback: number, min: number) => {
    const raw = env[name];
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min) {
      throw new Error(`${name} must be a whole number of at least ${min}, got "${raw}"`);
    }
    return value;
  };
  return {
    seed: read('FUZZ_SEED', DEFAULT_SEED, 0),
    requests: read('FUZZ_REQUESTS', DEFAULT_REQUESTS, 1),
    seconds: read('FUZZ_SECONDS', DEFAULT_SECONDS, 1),
  };
}

/** The build the server runs from, as server/main.js picks it. */
export function buildDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(new URL('../../', import.meta.url).pathname, env.VITRINE_BUILD_DIR || 'build');
}

export interface FuzzOptions {
  /** Where the server listens; only loopback addresses are expected. */
  host: string;
  port: number;
  /** The build the server runs, for its route manifest and file list. */
  buildDir: string;
  seed?: number;
  requests?: number;
  /**
   * Stops sending after this long even with requests left, but only once every target of the
   * plan has been aimed at twice, so a slow machine still reaches every route and action.
   */
  seconds?: number;
  concurrency?: number;
  /** An answer slower than this is a failure. */
  slowMs?: number;
  /** The server's process id: enables the memory check (Linux /proc). */
  pid?: number;
  /** Requests before the first memory reading (2,000 by default): caches fill, the heap grows. */
  warmup?: number;
  /** Quiet time before the warm-up memory reading, so it is not taken mid-burst. */
  settleMs?: number;
  /** How long memory may take to come back down after the run (10 s by default). */
  memoryGraceMs?: number;
  /** Extra requests allowed for shrinking failures to their cause. */
  shrinkBudget?: number;
  /** Called now and then with a line of progress. */
  log?: (line: string) => void;
  /**
   * The signed-in cookies (an admin's `vitrine_session=…`, a shopper's `vitrine_conta=…`): the
   * crawl and most admin and account requests carry them.
   */
  adminCookie?: string;
  /** Aims only at the routes whose pattern passes (the admin's run), nothing else. */
  only?: (pattern: string) => boolean;
  /**
   * Origins the store sends staff to by design, not by what a request says (Bling's OAuth
   * authorization page, at BLING_API_URL): a redirect there is no open redirect.
   */
  redirectOrigins?: readonly string[];
}

export interface TargetStats {
  count: number;
  byStatus: Map<string, number>;
  totalMs: number;
  maxMs: number;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  concurrency: number;
  durationMs: number;
  /** The manifest's routes, with the fields and query parameters the crawl found for each. */
  routes: Pick<RouteTarget, 'id' | 'pattern' | 'hasAction' | 'postFields' | 'queryFields'>[];
  crawled: number;
  byStatus: Map<string, number>;
  byTarget: Map<string, TargetStats>;
  slowest: Observation[];
  failures: FailureGroup[];
  failureCount: number;
  memory?: {
    warmupKb: number;
    endKb: number;
    peakKb: number;
    ratio: number;
    ok: boolean;
    timeline: [requests: number, kb: number][];
  };
  healthz?: { status?: number; outcome: string };
  /** Where the run's time went: this process, and the server (when its pid is known). */
  cpu: { fuzzerSeconds: number; serverSeconds?: number };
  /** Why the run stopped early, if it did. */
  aborted?: string;
  /** 'time' when `seconds` ran out before the request count. */
  stoppedBy: 'requests' | 'time';
  /** How many targets the plan has: every one was aimed at when requests ≥ this. */
  planLength: number;
  shrinkRequests: number;
}

const RSS_EVERY = 2_000;
/** The server's RSS at the end may be this much of its RSS after the warm-up. */
export const MEMORY_TOLERANCE = 1.2;

export function readRssKb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds the process has used (user + system), from /proc/<pid>/stat. */
export function readCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; the fields that follow it do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? DEFAULT_SEED;
  const total = options.requests ?? DEFAULT_REQUESTS;
  const concurrency = options.concurrency ?? 8;
  const slowMs = options.slowMs ?? 2_000;
  const warmup = Math.min(options.warmup ?? 2_000, Math.floor(total / 4));
  const settleMs = options.settleMs ?? 3_000;
  const log = options.log ?? (() => {});
  const target = {
    host: options.host,
    port: options.port,
    slowMs,
    redirectOrigins: options.redirectOrigins,
  };

  const discovery: Discovery = await discover(options);
  const ctx: GeneratorContext = {
    seed,
    discovery,
    host: options.host,
    port: options.port,
    adminCookie: options.adminCookie,
  };
  const plan: TargetKind[] = buildPlan(seed, discovery, options.only);
  const budgetMs = options.seconds === undefined ? Infinity : options.seconds * 1000;
  const leastRequests = Math.min(total, 2 * plan.length);
  log(
    `Fuzzing http://${options.host}:${options.port}: seed ${seed}, ${total} requests, ` +
      `${discovery.routes.length} routes (${discovery.routes.filter((r) => r.hasAction).length} with an action), ` +
      `${discovery.crawled} pages crawled, a plan of ${plan.length} targets`,
  );

  const byStatus = new Map<string, number>();
  const byTarget = new Map<string, TargetStats>();
  const failed: Observation[] = [];
  let slowest: Observation[] = [];
  let completed = 0;
  let aborted: string | undefined;
  let peakKb = 0;
  const startedAt = new Float64Array(total);
  const durations = new Float64Array(total);
  /** RSS every RSS_EVERY requests: a leak climbs with the count, a warm-up levels off. */
  const rssTimeline: [requests: number, kb: number][] = [];
  const started = performance.now();
  const outOfTime = (sent: number) =>
    sent >= leastRequests && performance.now() - started > budgetMs;
  let stoppedBy: FuzzReport['stoppedBy'] = 'requests';

  const record = (observation: Observation) => {
    const status = statusKey(observation.response);
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    let stats = byTarget.get(observation.request.target);
    if (!stats) {
      stats = { count: 0, byStatus: new Map(), totalMs: 0, maxMs: 0 };
      byTarget.set(observation.request.target, stats);
    }
    stats.count++;
    stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
    stats.totalMs += observation.response.durationMs;
    stats.maxMs = Math.max(stats.maxMs, observation.response.durationMs);
    if (observation.failures.length > 0) failed.push(observation);
    if (
      slowest.length < 10 ||
      observation.response.durationMs > slowest[slowest.length - 1]!.response.durationMs
    ) {
      slowest = [...slowest, observation]
        .sort((a, b) => b.response.durationMs - a.response.durationMs)
        .slice(0, 10);
    }
    // A passing answer's body is not needed once checked, and 20,000 of them add up.
    if (observation.failures.length === 0) observation.response.body = Buffer.alloc(0);
  };

  const runRange = async (from: number, to: number) => {
    let next = from;
    let lastLog = performance.now();
    const worker = async () => {
      while (next < to && !aborted) {
        if (outOfTime(next)) {
          stoppedBy = 'time';
          break;
        }
        const index = next++;
        startedAt[index] = performance.now() - started;
        const observation = await exchange(generate(ctx, plan, index), target);
        durations[index] = observation.response.durationMs;
        record(observation);
        completed++;
        if (options.pid !== undefined && completed % RSS_EVERY === 0) {
          rssTimeline.push([completed, readRssKb(options.pid) ?? 0]);
        }
        if (
          observation.response.outcome === 'error' &&
          observation.response.errorCode === 'ECONNREFUSED'
        ) {
          aborted = `The server refused a connection after ${completed} requests: it is down`;
        }
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          const seconds = (performance.now() - started) / 1000;
          log(
            `  ${completed}/${total} requests, ${(completed / seconds).toFixed(0)}/s, ` +
              `${failed.length} failing`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };

  const serverCpuBefore = options.pid !== undefined ? readCpuSeconds(options.pid) : undefined;
  const ownCpuBefore = process.cpuUsage();
  // The server's RSS swings by a fifth and more between garbage collections; only its low points
  // say whether memory comes back down. The end reading is the lowest one over the last quarter
  // of the run (by count or by time) and the quiet time after it.
  const endPhaseFrom = Math.floor(total * 0.75);
  let endPhaseKb = Infinity;
  const sampler =
    options.pid !== undefined
      ? setInterval(() => {
          const kb = readRssKb(options.pid!);
          if (kb === undefined) return;
          peakKb = Math.max(peakKb, kb);
          if (completed >= endPhaseFrom || performance.now() - started > budgetMs * 0.75)
            endPhaseKb = Math.min(endPhaseKb, kb);
        }, 250)
      : undefined;
  let warmupKb: number | undefined;
  try {
    await runRange(0, warmup);
    if (options.pid !== undefined && !aborted) {
      await sleep(settleMs);
      warmupKb = readRssKb(options.pid);
    }
    await runRange(warmup, total);
  } finally {
    if (sampler) clearInterval(sampler);
  }
  const durationMs = performance.now() - started;
  const ownCpu = process.cpuUsage(ownCpuBefore);
  const serverCpuAfter = options.pid !== undefined ? readCpuSeconds(options.pid) : undefined;
  const cpu = {
    fuzzerSeconds: (ownCpu.user + ownCpu.system) / 1e6,
    serverSeconds:
      serverCpuBefore !== undefined && serverCpuAfter !== undefined
        ? serverCpuAfter - serverCpuBefore
        : undefined,
  };

  let memory: FuzzReport['memory'];
  if (options.pid !== undefined && warmupKb !== undefined && !aborted) {
    // V8 hands freed heap back to the system some seconds after a burst ends, if at all: give it
    // the grace time, and fail only memory that stays up.
    const limitKb = warmupKb * MEMORY_TOLERANCE;
    const graceMs = options.memoryGraceMs ?? 10_000;
    const quietSince = performance.now();
    let endKb = endPhaseKb;
    do {
      await sleep(250);
      endKb = Math.min(endKb, readRssKb(options.pid) ?? Infinity);
    } while (endKb > limitKb && performance.now() - quietSince < graceMs);
    memory = {
      warmupKb,
      endKb,
      peakKb: Math.max(peakKb, warmupKb, endKb),
      ratio: endKb / warmupKb,
      ok: endKb <= limitKb,
      timeline: rssTimeline,
    };
  }

  const health = await healthz(options);

  if (failed.length > 0) log(`Shrinking ${failed.length} failing requests to their causes…`);
  const { groups, shrinkRequests } = await groupFailures(
    failed,
    {
      ...target,
      // A server that went down explains every later failure; shrinking would only repeat that.
      shrinkBudget: aborted ? 0 : (options.shrinkBudget ?? 2_000),
    },
    {
      startedAt,
      durations,
      regenerate: (index) => generate(ctx, plan, index),
    },
  );

  return {
    seed,
    requests: completed,
    concurrency,
    durationMs,
    routes: discovery.routes.map((route) => ({
      id: route.id,
      pattern: route.pattern,
      hasAction: route.hasAction,
      postFields: route.postFields,
      queryFields: route.queryFields,
    })),
    crawled: discovery.crawled,
    byStatus,
    byTarget,
    slowest,
    failures: groups,
    failureCount: failed.length,
    memory,
    healthz: { status: health.status, outcome: health.outcome },
    cpu,
    aborted,
    stoppedBy,
    planLength: plan.length,
    shrinkRequests,
  };
}

/** Rebuilds one request of a run (same seed, same server state) for a closer look. */
export async function replay(options: FuzzOptions & { index: number }): Promise<Observation> {
  const seed = options.seed ?? DEFAULT_SEED;
  const discovery = await discover(options);
  const ctx: GeneratorContext = {
    seed,
    discovery,
    host: options.host,
    port: options.port,
    adminCookie: options.adminCookie,
  };
  const request = generate(ctx, buildPlan(seed, discovery, options.only), options.index);
  return exchange(request, {
    host: options.host,
    port: options.port,
    slowMs: options.slowMs ?? 2_000,
    redirectOrigins: options.redirectOrigins,
  });
}
