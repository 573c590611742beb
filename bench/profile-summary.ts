// npx tsx bench/profile-summary.ts FILE.cpuprofile — where a V8 CPU profile's time went.
//
// Reads a profile the server wrote with `--cpu-prof` (the benches start it so with PROFILE_DIR)
// and prints the share of samples by package (our build, drizzle, PGlite, React's server
// renderer, Node's own, …), then the TOP functions (environment, default 25) by self time and by total time
// (self plus what they called), each with its file. Shares, not seconds: a busy machine stretches
// every function alike. LAST_SECONDS keeps only the samples of the profile's last seconds (the
// checkout bench's purchases come last, after its reference pages). BY_REQUEST splits the
// samples by the request they fell in (from the spans-PID.json that bench/request-spans.mjs wrote
// beside the profile), and prints for each kind of request how many ran, its sampled CPU per
// request, its share by package and its TOP functions by total time; with one shopper at a time
// (CONNECTIONS=1 in bench/request-cost.ts) each sample belongs to one request.
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { positiveInteger } from './options';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a function lives, short: a package's name, our build's file, or Node's own. */
function place(url: string): string {
  if (!url) return '(V8)';
  if (url.startsWith('node:')) return 'node';
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packaged) return packaged[1]!;
  const built = /\/(build[^/]*\/server\/.*|server\/[^/]+)$/.exec(url);
  return built ? built[1]! : url.replace(/^file:\/\//, '');
}

function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: npx tsx bench/profile-summary.ts FILE.cpuprofile [TOP]');
  const top = positiveInteger('TOP', 25);
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  if (process.env.BY_REQUEST) {
    await byRequest(profile, file, top);
    return;
  }
  if (process.env.LAST_SECONDS) {
    const keep = positiveInteger('LAST_SECONDS', 1) * 1e6;
    const times: number[] = [];
    let at = 0;
    for (const delta of profile.timeDeltas) times.push((at += delta));
    profile.samples = profile.samples.filter((_, i) => times[i]! >= at - keep);
  }
  const tally = new Tally(profile);
  for (const id of profile.samples) tally.add(id);
  const total = profile.samples.length;
  const busy = profile.samples.filter((id) => !IDLE.has(tally.node(id).callFrame.functionName));
  console.log(`${total} samples, ${percent(busy.length, total)} busy.\n\nBy place (self):`);
  for (const [where, n] of sorted(tally.places).slice(0, top))
    console.log(`  ${percent(n, total).padStart(6)}  ${where}`);
  console.log('\nBy function, self:');
  for (const [name, n] of sorted(tally.self).slice(0, top))
    console.log(`  ${percent(n, total).padStart(6)}  ${name}`);
  console.log('\nBy function, total (self and callees):');
  for (const [name, n] of sorted(tally.totals).slice(0, top))
    console.log(`  ${percent(n, total).padStart(6)}  ${name}`);
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);

/** A function as printed: its name, where it lives, its line. */
const label = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'}  ${place(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

/** Samples counted by place (self), by function (self) and by function with its callees. */
class Tally {
  samples = 0;
  readonly places = new Map<string, number>();
  readonly self = new Map<string, number>();
  readonly totals = new Map<string, number>();
  private readonly byId: Map<number, ProfileNode>;
  private readonly parent = new Map<number, number>();

  constructor(profile: Profile) {
    this.byId = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const node of profile.nodes)
      for (const child of node.children ?? []) this.parent.set(child, node.id);
  }

  node(id: number): ProfileNode {
    return this.byId.get(id)!;
  }

  add(id: number): void {
    const node = this.node(id);
    const name = node.callFrame.functionName;
    const where = IDLE.has(name) ? name : place(node.callFrame.url);
    this.samples += 1;
    bump(this.places, where);
    bump(this.self, label(node));
    // Each function once per sample, however deep its recursion.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = this.parent.get(at)) {
      const key = label(this.node(at));
      if (seen.has(key)) continue;
      seen.add(key);
      bump(this.totals, key);
    }
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The samples of each kind of request ("POST /checkout"), as BY_REQUEST prints them. */
async function byRequest(profile: Profile, file: string, top: number): Promise<void> {
  const pid = /\.(\d+)\.\d+\.\d+\.cpuprofile$/.exec(basename(file))?.[1];
  const spansFile = join(dirname(file), `spans-${pid}.json`);
  const spans = (JSON.parse(await readFile(spansFile, 'utf8')) as [string, number, number][]).sort(
    (a, b) => a[1] - b[1],
  );
  const kinds = new Map<string, { requests: number; tally: Tally }>();
  for (const [name] of spans) {
    const kind = kinds.get(name) ?? { requests: 0, tally: new Tally(profile) };
    kind.requests += 1;
    kinds.set(name, kind);
  }
  const probe = new Tally(profile);
  let at = profile.startTime;
  let next = 0;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index]!;
    while (next < spans.length && spans[next]![2] < at) next += 1;
    const span = spans[next];
    if (!span || span[1] > at || probe.node(id).callFrame.functionName === '(idle)') return;
    kinds.get(span[0])!.tally.add(id);
  });
  const sampleMs = (profile.endTime - profile.startTime) / profile.samples.length / 1000;
  for (const [name, { requests, tally }] of [...kinds].sort(
    (a, b) => b[1].tally.samples - a[1].tally.samples,
  )) {
    if (requests < 20) continue;
    const perRequest = (tally.samples * sampleMs) / requests;
    console.log(`\n${name}: ${requests} requests, ${perRequest.toFixed(2)} ms sampled each`);
    console.log(
      '  ' +
        sorted(tally.places)
          .slice(0, 10)
          .map(([where, n]) => `${where} ${percent(n, tally.samples)}`)
          .join(', '),
    );
    for (const [key, n] of sorted(tally.totals).slice(0, top))
      console.log(`  ${percent(n, tally.samples).padStart(6)}  ${key}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
