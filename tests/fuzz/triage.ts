import { exchange, healthz, type FailureKind, type Observation, statusKey } from './checks';
import { tagsOf, type FuzzRequest } from './generate';

// After the run: failures shrunk to their causes and grouped, slow requests told from the ones
// that held them up.

const MAX_EXAMPLES = 3;
const MAX_SHRINK_STEPS = 80;

export interface FailureGroup {
  kind: FailureKind;
  /** What the shrunk requests still needed to fail (method, hostile parts). */
  cause: string[];
  shrunk: boolean;
  /** For slow requests: whether they are slow alone, or only behind others. */
  note?: string;
  count: number;
  targets: Set<string>;
  statuses: Map<string, number>;
  /** Shrunk (when possible) examples, replayable byte for byte. */
  examples: Observation[];
}

/**
 * Smaller versions of a request, each without one of its hostile parts. Headers added together
 * (fifty junk headers, a Transfer-Encoding and its Content-Length) go together.
 */
function simplifications(request: FuzzRequest, defaultHost: string): FuzzRequest[] {
  if (request.raw) return [];
  const out: FuzzRequest[] = [];
  const variant = (change: Partial<FuzzRequest>) => out.push({ ...request, ...change });
  if (request.body !== undefined || request.bodyTag) {
    variant({
      body: undefined,
      bodyTag: undefined,
      contentLength: undefined,
      partial: false,
      headers: request.headers.filter((header) => header.name !== 'Transfer-Encoding'),
    });
  }
  if (request.query) {
    variant({ query: '', queryTag: undefined });
    const params = request.query.slice(1).split('&');
    if (params.length > 1 && params.length <= 12) {
      params.forEach((_param, i) =>
        variant({ query: `?${params.filter((_p, j) => j !== i).join('&')}` }),
      );
    }
  }
  if (request.path !== request.plainPath) variant({ path: request.plainPath, pathTag: undefined });
  if (!request.headers.some((header) => header.name === 'Host')) {
    variant({ headers: [{ name: 'Host', value: defaultHost }, ...request.headers] });
  }
  const seenTags = new Set<string>();
  request.headers.forEach((header, i) => {
    if (header.name === 'Connection') return;
    if (header.original !== undefined) {
      const headers = [...request.headers];
      headers[i] = { name: header.name, value: header.original };
      variant({ headers });
    }
    if (header.tag && header.original === undefined) {
      if (seenTags.has(header.tag)) return;
      seenTags.add(header.tag);
      variant({ headers: request.headers.filter((other) => other.tag !== header.tag) });
    } else {
      variant({ headers: request.headers.filter((_other, j) => j !== i) });
    }
  });
  if (request.version !== 'HTTP/1.1') variant({ version: 'HTTP/1.1' });
  if (request.method !== 'GET' && !request.body) variant({ method: 'GET' });
  if (request.method !== 'POST' && request.body) variant({ method: 'POST' });
  if (request.contentLength !== undefined && !request.partial)
    variant({ contentLength: undefined });
  return out;
}

/**
 * Drops hostile parts one at a time while the request keeps failing the same way; what is left
 * is (close to) the cause. After a success the walk goes on from the same place rather than from
 * the start, so a request with n parts costs about n exchanges per pass.
 */
async function shrink(
  observation: Observation,
  stillFails: (attempt: Observation) => boolean,
  options: { host: string; port: number; slowMs: number; redirectOrigins?: readonly string[] },
  budget: { left: number; used: number },
): Promise<Observation> {
  let current = observation;
  let changed = true;
  while (changed && budget.left > 0) {
    changed = false;
    let candidates = simplifications(current.request, `${options.host}:${options.port}`);
    for (let i = 0; i < candidates.length && budget.left > 0;) {
      budget.left--;
      budget.used++;
      const attempt = await exchange(candidates[i]!, options);
      if (stillFails(attempt)) {
        current = attempt;
        changed = true;
        candidates = simplifications(current.request, `${options.host}:${options.port}`);
      } else {
        i++;
      }
    }
  }
  return current;
}

/** Failures that depend on the load of the moment as much as on the request. */
const LOAD_DEPENDENT: ReadonlySet<FailureKind> = new Set(['slow', 'timeout']);

/** Sent alone, a request this slow is a cause of slowness rather than a victim of it. */
const COSTLY_MS = 500;
/** Slow requests replayed alone to tell causes from victims; each victim costs a few ms. */
const MAX_REPLAYS = 300;
const MAX_SLOW_SHRINK_STEPS = 12;

const isCostly = (observation: Observation) =>
  observation.response.outcome === 'timeout' || observation.response.durationMs > COSTLY_MS;

/** When each request of the run was sent and how long it took, to find a victim's neighbours. */
export interface RunTimes {
  startedAt: Float64Array;
  durations: Float64Array;
  /** The request with this index, built again (requests are a function of seed and index). */
  regenerate(index: number): FuzzRequest;
}

export async function groupFailures(
  failed: Observation[],
  options: {
    host: string;
    port: number;
    slowMs: number;
    shrinkBudget: number;
    redirectOrigins?: readonly string[];
  },
  times: RunTimes,
): Promise<{ groups: FailureGroup[]; shrinkRequests: number }> {
  const groups: FailureGroup[] = [];
  const budget = { left: options.shrinkBudget, used: 0 };
  let replays = 0;
  const suspected = new Set<number>();

  const file = (
    kind: FailureKind,
    cause: string[],
    shrunk: boolean,
    observation: Observation,
    example: Observation,
    note?: string,
  ) => {
    const key = cause.join(' ');
    let group = groups.find(
      (candidate) =>
        candidate.kind === kind && candidate.cause.join(' ') === key && candidate.note === note,
    );
    if (!group) {
      group = {
        kind,
        cause,
        shrunk,
        note,
        count: 0,
        targets: new Set(),
        statuses: new Map(),
        examples: [],
      };
      groups.push(group);
    }
    addTo(group, observation);
    group.targets.add(example.request.target);
    if (group.examples.length < MAX_EXAMPLES) group.examples.push(example);
  };
  const addTo = (group: FailureGroup, observation: Observation) => {
    group.count++;
    group.targets.add(observation.request.target);
    const status = statusKey(observation.response);
    group.statuses.set(status, (group.statuses.get(status) ?? 0) + 1);
  };
  const shrinkWithin = async (
    observation: Observation,
    stillFails: (attempt: Observation) => boolean,
    steps: number,
  ) => {
    // One stubborn request may not eat the whole budget.
    const mine = { left: Math.min(budget.left, steps), used: 0 };
    const example = await shrink(observation, stillFails, options, mine);
    budget.left -= mine.used;
    budget.used += mine.used;
    return example;
  };

  /**
   * The requests that were in flight while a victim waited and took long themselves; those still
   * costly when sent alone are what held it up.
   */
  const findCulprits = async (victim: Observation, kind: FailureKind) => {
    const from = times.startedAt[victim.request.index]!;
    const to = from + times.durations[victim.request.index]!;
    const suspects: number[] = [];
    for (let i = 0; i < times.startedAt.length; i++) {
      const start = times.startedAt[i]!;
      const end = start + times.durations[i]!;
      if (
        i !== victim.request.index &&
        start < to &&
        end > from &&
        times.durations[i]! > COSTLY_MS
      ) {
        suspects.push(i);
      }
    }
    suspects.sort((a, b) => times.durations[b]! - times.durations[a]!);
    for (const index of suspects.slice(0, 3)) {
      if (suspected.has(index) || replays >= MAX_REPLAYS) continue;
      suspected.add(index);
      const request = times.regenerate(index);
      const tags = tagsOf(request);
      const known = groups.find(
        (group) =>
          group.kind === kind &&
          group.shrunk &&
          group.cause.length > 0 &&
          group.cause.every((tag) => tags.includes(tag)),
      );
      if (known) {
        known.count++;
        continue;
      }
      replays++;
      const alone = await exchange(request, options);
      await waitUntilIdle(options);
      if (!isCostly(alone)) continue;
      const example =
        budget.left > 0 ? await shrinkWithin(alone, isCostly, MAX_SLOW_SHRINK_STEPS) : alone;
      await waitUntilIdle(options);
      file(
        kind,
        tagsOf(example.request),
        true,
        alone,
        { ...example, detail: `${Math.round(example.response.durationMs)} ms alone` },
        'costly alone: it held up the requests in flight with it',
      );
    }
  };

  // The simplest failures first: they shrink cheaply, and their causes then explain most of the
  // busier requests without shrinking those at all.
  const ordered = [...failed].sort(
    (a, b) =>
      tagsOf(a.request).length - tagsOf(b.request).length || a.request.index - b.request.index,
  );
  for (const observation of ordered) {
    for (const kind of observation.failures) {
      const tags = tagsOf(observation.request);
      // A failure whose hostile parts include a known cause is explained without shrinking. A
      // cause that is only a method (or nothing) says little about other routes: same route only.
      const known = groups.find(
        (group) =>
          group.kind === kind &&
          group.shrunk &&
          group.cause.every((tag) => tags.includes(tag)) &&
          (group.cause.some((tag) => !tag.startsWith('method:')) ||
            group.targets.has(observation.request.target)),
      );
      if (known) {
        addTo(known, observation);
        continue;
      }
      if (LOAD_DEPENDENT.has(kind)) {
        // Slow in the run may mean slow itself, or stuck behind a slow neighbour on the server's
        // one thread: sent alone, the first kind is still slow.
        if (replays >= MAX_REPLAYS) {
          file(kind, [], false, observation, observation, 'not replayed alone');
          continue;
        }
        replays++;
        const alone = await exchange(observation.request, options);
        await waitUntilIdle(options);
        const ms = `${Math.round(alone.response.durationMs)} ms alone`;
        if (!isCostly(alone)) {
          file(
            kind,
            [],
            false,
            observation,
            { ...alone, detail: ms },
            'fast when sent alone: a victim of a slow neighbour',
          );
          await findCulprits(observation, kind);
          continue;
        }
        const example =
          budget.left > 0 ? await shrinkWithin(alone, isCostly, MAX_SLOW_SHRINK_STEPS) : alone;
        await waitUntilIdle(options);
        const detail = `${Math.round(example.response.durationMs)} ms alone`;
        file(
          kind,
          tagsOf(example.request),
          true,
          observation,
          { ...example, detail },
          'slow even when sent alone',
        );
        continue;
      }
      if (budget.left > 0 && !observation.request.raw) {
        const example = await shrinkWithin(
          observation,
          (attempt) => attempt.failures.includes(kind),
          MAX_SHRINK_STEPS,
        );
        file(kind, tagsOf(example.request), true, observation, example);
      } else {
        file(kind, tags, !!observation.request.raw, observation, observation);
      }
    }
  }
  groups.sort((a, b) => b.count - a.count);
  return { groups, shrinkRequests: budget.used + replays };
}

/** Waits until the server answers a trivial request, so the next timing is not inherited. */
async function waitUntilIdle(options: { host: string; port: number }) {
  await healthz(options);
}
