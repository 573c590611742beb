import type { Discovery, RouteTarget } from './discovery';
import { buildBody } from './inputs/bodies';
import { signedInPath, type FuzzRequest, type GeneratorContext } from './inputs/common';
import { baseHeaders, mutateHeaders } from './inputs/headers';
import { buildQuery, concretePath, dataPath, PATH_MUTATIONS } from './inputs/paths';
import { RAW_MAKERS } from './inputs/raw';
import { createRandom, mixSeed, type Random } from './random';
import { FUZZ_METRICS_TOKEN } from './server-env';

/**
 * Hostile requests, built from a seed and an index. Each request records what was done to it
 * (tags) and keeps a benign counterpart of every part it mangled, so a failure can be shrunk to
 * the few parts that cause it.
 */

export { EVIL_HOST, type FuzzRequest, type GeneratorContext, type Header } from './inputs/common';

const METHODS: readonly (readonly [number, string])[] = [
  [55, 'GET'],
  [12, 'HEAD'],
  [7, 'POST'],
  [3, 'PUT'],
  [3, 'PATCH'],
  [3, 'DELETE'],
  [4, 'OPTIONS'],
  [3, 'TRACE'],
  [1, 'CONNECT'],
  [2, 'PROPFIND'],
  [1, 'PURGE'],
  [1, 'SEARCH'],
  // Unknown to Node's parser: answered 400 before the app sees them.
  [1, 'FUZZ'],
  [1, 'get'],
];

// --- Targets ----------------------------------------------------------------------------------

export type TargetKind =
  | { kind: 'page'; route: RouteTarget }
  | { kind: 'data'; route: RouteTarget }
  | { kind: 'action'; route: RouteTarget }
  | { kind: 'healthz' }
  | { kind: 'metrics' }
  | { kind: 'asset' }
  | { kind: 'asset-missing' }
  | { kind: 'public' }
  | { kind: 'public-missing' }
  | { kind: 'raw' };

/**
 * The order targets are visited in: each route's page, its single-fetch data and (for routes
 * with an action) its action, weighted, shuffled once. Request i aims at plan[i % length], so
 * every route and action is hit every `length` requests whatever the count.
 */
export function buildPlan(
  seed: number,
  discovery: Discovery,
  only?: (pattern: string) => boolean,
): TargetKind[] {
  const plan: TargetKind[] = [];
  const repeat = (times: number, target: TargetKind) => {
    for (let i = 0; i < times; i++) plan.push(target);
  };
  for (const route of discovery.routes) {
    if (only && !only(route.pattern)) continue;
    repeat(4, { kind: 'page', route });
    repeat(route.resource ? 1 : 2, { kind: 'data', route });
    if (route.hasAction) repeat(12, { kind: 'action', route });
  }
  // A run aimed at some routes sends nothing else.
  if (only) return createRandom(mixSeed(seed, -1)).shuffle(plan);
  repeat(2, { kind: 'healthz' });
  repeat(2, { kind: 'metrics' });
  repeat(discovery.assets.length > 0 ? 2 : 0, { kind: 'asset' });
  repeat(1, { kind: 'asset-missing' });
  repeat(discovery.publicFiles.length > 0 ? 1 : 0, { kind: 'public' });
  repeat(1, { kind: 'public-missing' });
  repeat(4, { kind: 'raw' });
  return createRandom(mixSeed(seed, -1)).shuffle(plan);
}

export function targetLabel(target: TargetKind): string {
  switch (target.kind) {
    case 'page':
      return `${target.route.pattern} (${target.route.id})`;
    case 'data':
      return `${target.route.pattern} .data`;
    case 'action':
      return `${target.route.pattern} action`;
    default:
      return target.kind;
  }
}

// --- Assembling one request -------------------------------------------------------------------

function pickMethod(random: Random): string {
  return random.weighted(METHODS);
}

const ACCEPT_HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** The request with index `index`: the same (seed, index, discovery) always gives the same bytes. */
export function generate(
  ctx: GeneratorContext,
  plan: readonly TargetKind[],
  index: number,
): FuzzRequest {
  const random = createRandom(mixSeed(ctx.seed, index));
  const target = plan[index % plan.length]!;
  const route = 'route' in target ? target.route : undefined;
  const request: FuzzRequest = {
    index,
    target: targetLabel(target),
    method: 'GET',
    path: '/',
    plainPath: '/',
    query: '',
    version: 'HTTP/1.1',
    headers: [],
    mayClose: false,
  };

  if (target.kind === 'raw') {
    const [label, make] = random.pick(RAW_MAKERS);
    const raw = make(random, ctx);
    request.raw = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    request.rawTag = `raw:${label}`;
    request.method = 'RAW';
    request.mayClose = true;
    return request;
  }

  let path: string;
  let accept = ACCEPT_HTML;
  let mutatePath = 0.3;
  switch (target.kind) {
    case 'page':
      path = concretePath(random, target.route);
      request.method = pickMethod(random);
      break;
    case 'data':
      path = dataPath(concretePath(random, target.route));
      accept = '*/*';
      request.method = random.chance(0.85) ? 'GET' : pickMethod(random);
      break;
    case 'action': {
      const document = concretePath(random, target.route);
      const viaData = random.chance(0.5);
      path = viaData ? dataPath(document) : document;
      if (!viaData && random.chance(0.3)) accept = '*/*';
      if (viaData) accept = '*/*';
      request.method = random.weighted([
        [85, 'POST'],
        [5, 'PUT'],
        [5, 'PATCH'],
        [5, 'DELETE'],
      ]);
      mutatePath = 0.15;
      if (target.route.index) request.query = '?index';
      break;
    }
    case 'healthz':
      path = '/healthz';
      request.method = random.chance(0.7) ? 'GET' : pickMethod(random);
      mutatePath = 0.2;
      break;
    case 'metrics':
      path = '/metrics';
      request.method = random.chance(0.7) ? 'GET' : pickMethod(random);
      mutatePath = 0.2;
      break;
    case 'asset':
      path = random.pick(ctx.discovery.assets);
      accept = '*/*';
      request.method = random.chance(0.8) ? 'GET' : pickMethod(random);
      mutatePath = 0.2;
      break;
    case 'asset-missing':
      path = random.pick([
        `/assets/${random.string(8)}.js`,
        `/assets/${random.string(8)}.css`,
        ctx.discovery.assets.length > 0
          ? random.pick(ctx.discovery.assets).replace(/-[\w]+\./, '-XXXXXXXX.')
          : '/assets/x.js',
        '/assets/',
        '/assets',
        '/assets/..%2f..%2fpackage.json',
        '/assets/%2e%2e/%2e%2e/server/main.js',
        `/assets/${'x'.repeat(3000)}.js`,
      ]);
      accept = '*/*';
      request.method = random.chance(0.8) ? 'GET' : pickMethod(random);
      mutatePath = 0.1;
      break;
    case 'public':
      path = random.pick(ctx.discovery.publicFiles);
      accept = 'image/*,*/*';
      request.method = random.chance(0.8) ? 'GET' : pickMethod(random);
      mutatePath = 0.2;
      break;
    case 'public-missing':
      path = random.pick([
        '/sample/nao-existe.svg',
        '/sample/',
        '/sample',
        '/sample/../package.json',
        '/sample/%2e%2e/%2e%2e/package.json',
        '/favicon.ico',
        '/.env',
        '/.git/HEAD',
        '/server/main.js',
        '/package.json',
        '/build/server/index.js',
      ]);
      accept = '*/*';
      request.method = random.chance(0.8) ? 'GET' : pickMethod(random);
      mutatePath = 0.1;
      break;
  }
  request.path = path;
  request.plainPath = path;
  request.headers = baseHeaders(ctx, accept, random);
  if (target.kind === 'metrics') {
    const authorization = random.weighted<string | null>([
      [3, `Bearer ${FUZZ_METRICS_TOKEN}`],
      [1, `Bearer ${FUZZ_METRICS_TOKEN.slice(0, -1)}`],
      [1, `bearer ${FUZZ_METRICS_TOKEN}`],
      [1, `Bearer ${random.string(40)}`],
      [1, null],
    ]);
    if (authorization) {
      request.headers.splice(request.headers.length - 1, 0, {
        name: 'Authorization',
        value: authorization,
      });
    }
  }
  if (signedInPath(ctx, path) && random.chance(0.75)) {
    request.headers.splice(request.headers.length - 1, 0, {
      name: 'Cookie',
      value: ctx.adminCookie!,
    });
  }

  if (random.chance(mutatePath)) {
    const [label, mutate] = random.pick(PATH_MUTATIONS);
    request.path = mutate(random, path, ctx);
    request.pathTag = `path:${label}`;
  }
  const wantsQuery = target.kind === 'page' || target.kind === 'data' ? 0.5 : 0.15;
  if (random.chance(wantsQuery)) {
    const { query, tag } = buildQuery(random, route);
    request.query = request.query ? `${request.query}&${query.slice(1)}` : query;
    request.queryTag = tag;
  }

  const bodyMethod = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method);
  if (target.kind === 'action' || (bodyMethod && random.chance(0.5))) {
    const built = buildBody(random, route);
    request.body = built.body;
    request.bodyTag = `body:${built.tag}`;
    request.contentLength = built.contentLength;
    request.partial = built.partial;
    if (built.contentType !== undefined) {
      request.headers.splice(request.headers.length - 1, 0, {
        name: 'Content-Type',
        value: built.contentType,
        tag: built.contentTypeTag,
      });
    }
    for (const header of built.extraHeaders ?? []) {
      request.headers.splice(request.headers.length - 1, 0, header);
    }
    if (built.mayClose) request.mayClose = true;
  }

  mutateHeaders(random, ctx, request, target.kind === 'action' ? 1.2 : 1);
  if (request.method === 'CONNECT' || request.partial) request.mayClose = true;
  if (request.headers.some((header) => header.malformed)) request.mayClose = true;
  return request;
}

// --- Wire format ------------------------------------------------------------------------------

export function serialize(request: FuzzRequest): Buffer {
  if (request.raw) return request.raw;
  const lines = [`${request.method} ${request.path}${request.query} ${request.version}`];
  for (const header of request.headers) {
    if (header.name === 'Connection') continue;
    lines.push(`${header.name}: ${header.value}`);
  }
  const body = request.body ?? Buffer.alloc(0);
  if (request.contentLength !== 'none') {
    const hasBody = body.length > 0 || ['POST', 'PUT', 'PATCH'].includes(request.method);
    if (request.contentLength !== undefined) lines.push(`Content-Length: ${request.contentLength}`);
    else if (hasBody) lines.push(`Content-Length: ${body.length}`);
  }
  // Always asked for, so each connection carries one exchange; the reader also stops as soon as
  // the answer is complete, in case the server keeps the connection open anyway.
  lines.push('Connection: close');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  return body.length > 0 ? Buffer.concat([head, body]) : head;
}

/** The tags that describe what is hostile about a request, for grouping failures. */
export function tagsOf(request: FuzzRequest): string[] {
  if (request.raw) return [request.rawTag ?? 'raw'];
  const tags = new Set<string>();
  if (request.method !== 'GET') tags.add(`method:${request.method}`);
  if (request.version !== 'HTTP/1.1') tags.add(`version:${request.version}`);
  if (request.path !== request.plainPath && request.pathTag) tags.add(request.pathTag);
  if (request.query && request.queryTag) tags.add(request.queryTag);
  if (request.bodyTag) tags.add(request.bodyTag);
  if (request.contentLength !== undefined && !request.partial)
    tags.add(`content-length:${request.contentLength}`);
  if (!request.headers.some((header) => header.name === 'Host')) tags.add('host:missing');
  for (const header of request.headers) if (header.tag) tags.add(header.tag);
  return [...tags].sort();
}
