import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { writeReadableStreamToWritable } from '@react-router/node';
import type express from 'express';
import {
  createRequestHandler,
  matchRoutes,
  type AppLoadContext,
  type RequestHandler,
  type RouteObject,
  type ServerBuild,
} from 'react-router';

import { MESSAGES, refuse } from './error-page';
import type { CachePlan, PageCache } from './page-cache';
import { requestOrigins } from './request-guard';

/** How a request's body reaches its route. */
export interface BodyPlan {
  /** The largest body this request may send. */
  maxBytes: number;
  /**
   * Handed to the route as it arrives (admins' uploads, which the route streams to disk) rather
   * than read whole first.
   */
  streamed: boolean;
}

/**
 * React Router behind Express. Unlike @react-router/express, it builds the request's URL from
 * the origin the guard checked (never from raw Host headers), lets at most `body().maxBytes` of a
 * body through to the route, gives each request a folder for its uploads that it removes once the
 * route has answered, and marks cookies Secure when the request came over https.
 */
export function reactRouterHandler(options: {
  build: () => Promise<ServerBuild>;
  mode: string;
  body: (req: express.Request, res: express.Response) => BodyPlan | Promise<BodyPlan>;
  getLoadContext: (
    req: express.Request,
    res: express.Response,
    uploadFolder: () => Promise<string>,
  ) => AppLoadContext;
  pageCache?: PageCache;
}): express.RequestHandler {
  const handle = builtOnce(options.build, options.mode);
  const unanswered = unansweredMethod(options.build, options.mode);
  const { pageCache } = options;

  const render = async (
    req: express.Request,
    res: express.Response,
    body: Buffer<ArrayBuffer> | ReadableStream<Uint8Array> | undefined,
    plan?: CachePlan,
  ) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const request = new Request(`${requestOrigins(res).router}${plan?.url ?? req.originalUrl}`, {
      method: req.method,
      headers: requestHeaders(req, plan?.cookie),
      body,
      signal: controller.signal,
      // Required by fetch for a streamed body: the request is sent before the answer is read.
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    });
    const uploads = uploadFolder();
    try {
      return await handle(request, options.getLoadContext(req, res, uploads.path));
    } finally {
      // The route has answered: whatever it received is stored or refused by now.
      await uploads.remove().catch((error: unknown) => {
        req.log.warn({ err: error }, 'Could not remove the upload folder');
      });
    }
  };

  return async (req, res, next) => {
    try {
      const allow = await unanswered(req.method, req.originalUrl);
      if (allow) {
        res.set('Allow', allow);
        refuse(res, 405, MESSAGES.methodNotAllowed, `no ${req.method} handler`);
        return;
      }
      const secure = req.protocol === 'https';
      const plan = await pageCache?.plan(req, res);
      if (pageCache && plan) {
        if (pageCache.serve(plan, req, res)) return;
        const pending = pageCache.pending(plan.key);
        if (pending) {
          // Another request is rendering this page: its answer serves this one too.
          if ((await pending) && pageCache.serve(plan, req, res)) return;
        } else {
          const rendering = pageCache.begin(plan);
          let rendered: { response: Response; body: Buffer } | undefined;
          try {
            const response = await render(req, res, undefined, plan);
            rendered = { response, body: Buffer.from(await response.arrayBuffer()) };
          } finally {
            rendering.done(rendered?.response, rendered?.body, res.locals.nonce as string);
          }
          // Kept: sent as a hit would be, already compressed, rather than compressed again.
          if (pageCache.serve(plan, req, res, 'miss')) return;
          res.setHeader('X-Page-Cache', 'miss');
          sendBuffered(res, rendered.response, rendered.body, secure);
          return;
        }
      }
      if (plan === null) res.setHeader('X-Page-Cache', 'bypass');
      if (req.method === 'GET' || req.method === 'HEAD') {
        await sendResponse(res, await render(req, res, undefined), secure);
        return;
      }
      // A client that asked before sending ("Expect: 100-continue") is told to go ahead only now.
      if (req.get('Expect')?.toLowerCase() === '100-continue') res.writeContinue();
      const { maxBytes, streamed } = await options.body(req, res);
      if (streamed) {
        const body = streamBody(req, maxBytes);
        let response: Response;
        try {
          response = await render(req, res, body.stream);
        } finally {
          // Whatever the route left unread (or a route that failed) is thrown away as it arrives,
          // and the answer waits for it (see bodyArrived).
          body.discardRest();
          await bodyArrived(req);
        }
        // The route saw its body break off; the client is told why, whatever the route said.
        if (body.tooLarge()) {
          await response.body?.cancel();
          refuse(res, 413, MESSAGES.tooLarge, 'body over the limit');
          return;
        }
        await sendResponse(res, response, secure);
        return;
      }
      const read = await readBody(req, maxBytes);
      if (read === 'too-large') {
        await bodyArrived(req);
        refuse(res, 413, MESSAGES.tooLarge, 'body over the limit');
        return;
      }
      await sendResponse(res, await render(req, res, read), secure);
    } catch (error) {
      next(error);
    }
  };
}

/** How long an answer waits for the rest of a body nobody reads (see bodyArrived). */
const LINGER_MS = 5_000;

/**
 * Resolves once the rest of the request's body has arrived (and been thrown away), or after
 * LINGER_MS. An answer sent sooner, on a connection the client asked to close, closes it on
 * bytes still arriving: the reset that follows can destroy the answer before the client reads
 * it (the fuzz suite saw a 400 cut short so).
 */
function bodyArrived(req: express.Request): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      req.off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, LINGER_MS);
    req.on('end', done).on('close', done).on('error', done);
  });
}

/** The body, or 'too-large' as soon as it passes the limit (the rest is never kept). */
function readBody(req: express.Request, limit: number): Promise<Buffer<ArrayBuffer> | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        // The rest flows on and is thrown away, so the client can read the 413 (see refuse).
        req.resume();
        resolve('too-large');
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks));
    };
    // The client went away or was too slow (the server's request timeout): nothing to answer.
    const onError = () => {
      done();
      reject(Object.assign(new Error('Request body not received'), { status: 400 }));
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onError);
  });
}

/**
 * The body as a stream the route reads at its own pace (the client waits while the route is
 * busy), which breaks off with an error as soon as it passes `limit`: the rest flows on and is
 * thrown away, so the client can read the 413 (see refuse).
 */
function streamBody(req: express.Request, limit: number) {
  let size = 0;
  let tooLarge = false;
  const stop = () => {
    req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onError);
    req.resume();
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      tooLarge = true;
      stop();
      controller.error(new Error('Request body over the limit'));
      return;
    }
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => {
    stop();
    controller.close();
  };
  // The client went away or was too slow (the server's request timeout).
  const onError = () => {
    stop();
    controller.error(new Error('Request body not received'));
  };
  const stream = new ReadableStream<Uint8Array>({
    start(own) {
      controller = own;
      req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onError);
    },
    pull() {
      req.resume();
    },
    // The route did not want the rest (a form it refused early): it is read and thrown away.
    cancel: stop,
  });
  return {
    stream,
    tooLarge: () => tooLarge,
    discardRest: stop,
  };
}

/**
 * A folder under the system's temporary folder (TMPDIR) for one request's uploads: made when a
 * route first asks for it, removed with everything in it once the route has answered.
 */
function uploadFolder() {
  let made: Promise<string> | undefined;
  return {
    path: () => (made ??= mkdtemp(join(tmpdir(), 'vitrine-upload-'))),
    async remove() {
      const path = await made?.catch(() => undefined);
      if (path) await rm(path, { recursive: true, force: true });
    },
  };
}

/** The request's headers; `cookie`, when given, stands for the request's own cookies. */
function requestHeaders(req: express.Request, cookie?: string): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    if (cookie !== undefined && raw[index]!.toLowerCase() === 'cookie') continue;
    headers.append(raw[index]!, raw[index + 1]!);
  }
  if (cookie) headers.set('Cookie', cookie);
  return headers;
}

function writeHead(res: express.Response, response: Response, secure: boolean) {
  // A route's pt-BR status text (see routeError) is for its page's data; a status line is ASCII.
  if (/^[\x20-\x7e]*$/.test(response.statusText)) res.statusMessage = response.statusText;
  res.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') res.append(key, value);
  });
  for (const cookie of response.headers.getSetCookie()) {
    res.append(
      'Set-Cookie',
      secure && !/;\s*secure\b/i.test(cookie) ? `${cookie}; Secure` : cookie,
    );
  }
}

/** An answer already read whole: one write. */
function sendBuffered(res: express.Response, response: Response, body: Buffer, secure: boolean) {
  if (res.destroyed || res.writableEnded) return;
  writeHead(res, response, secure);
  res.end(body);
}

async function sendResponse(res: express.Response, response: Response, secure: boolean) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  // Pages and their data are sent in one write; only files such as a CSV export stream.
  if (/^text\/(?:html|x-script)/.test(response.headers.get('content-type') ?? '')) {
    sendBuffered(res, response, Buffer.from(await response.arrayBuffer()), secure);
    return;
  }
  writeHead(res, response, secure);
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!res.destroyed && !res.writableEnded) throw error;
  }
}

/**
 * React Router's handler for `build`. Given a function, React Router derives the handler again
 * on every request (flattening and ranking every route: about 5% of a page's CPU), which only
 * development's hot reload needs; elsewhere the build never changes, so it is derived once.
 */
function builtOnce(build: () => Promise<ServerBuild>, mode: string): RequestHandler {
  if (mode === 'development') return createRequestHandler(build, mode);
  let handler: Promise<RequestHandler> | undefined;
  return async (request, context) => {
    handler ??= build().then(
      (resolved) => createRequestHandler(resolved, mode),
      (error: unknown) => {
        handler = undefined;
        throw error;
      },
    );
    return (await handler)(request, context);
  };
}

type TargetRoute = RouteObject & { hasAction: boolean; hasLoader: boolean; resource: boolean };

/**
 * The methods to name in Allow when the route this request reaches cannot answer it: a form
 * sent to a route without an action, or a resource route without a loader asked for with GET;
 * null otherwise. React Router answers those itself with English ('You made a POST request
 * to…' in the page's data, 'Unexpected Server Error' from a resource route); the store answers
 * them in pt-BR instead, before reading any body. The route is the one React Router picks: the
 * leaf, or for an index route asked without `?index` the nearest route with a path above it.
 */
function unansweredMethod(
  build: () => Promise<ServerBuild>,
  mode: string,
): (method: string, url: string) => Promise<string | null> {
  let tree: Promise<TargetRoute[]> | undefined;
  // matchRoutes ranks every branch of the tree again on each call (a tenth of a purchase's CPU):
  // the answer only depends on the path, so recent paths keep theirs while the build is the same.
  const answers = new Map<string, string | null>();
  const routes = () => {
    if (mode === 'development' || !tree) {
      tree = build().then(routeTree);
      answers.clear();
    }
    return tree;
  };
  return async (method, url) => {
    const reading = method === 'GET' || method === 'HEAD';
    // Single fetch skips the routes without a loader: only a document GET can reach none.
    if (reading && /\.data(?:\?|$)/.test(url)) return null;
    // The path as React Router reads it: the URL is joined (never resolved: '//host/x' is a
    // path), then `.data` and a trailing slash go and the URL normalises what is left ('/a/..').
    const parsed = new URL(`http://localhost${url}`);
    const { pathname, searchParams } = parsed;
    let path = pathname === '/_root.data' ? '/' : pathname.replace(/\.data$/, '');
    if (path !== '/' && path.endsWith('/')) path = path.slice(0, -1);
    parsed.pathname = path;
    const indexed = searchParams.getAll('index').includes('');
    const tree = await routes();
    const key = `${reading ? 'read' : 'write'} ${indexed ? 'index' : 'path'} ${parsed.pathname}`;
    const known = answers.get(key);
    if (known !== undefined) return known;
    const answer = targetAnswer(tree, parsed.pathname, indexed, reading);
    // Bounded: a crawler's or a fuzzer's invented paths only push the oldest ones out.
    if (answers.size >= MATCHED_PATHS_KEPT) answers.delete(answers.keys().next().value!);
    answers.set(key, answer);
    return answer;
  };
}

const MATCHED_PATHS_KEPT = 2_000;

function targetAnswer(
  tree: TargetRoute[],
  path: string,
  indexed: boolean,
  reading: boolean,
): string | null {
  const matches = matchRoutes(tree, path) ?? [];
  const leaf = matches.at(-1);
  if (!leaf) return null;
  const target = (
    leaf.route.index && indexed
      ? leaf
      : matches.filter((match, at) => at === 0 || match.route.path).at(-1)!
  ).route as TargetRoute;
  if (reading) return target.resource && !target.hasLoader ? 'POST' : null;
  return target.hasAction ? null : 'GET, HEAD';
}

function routeTree(build: ServerBuild): TargetRoute[] {
  const children = new Map<string | undefined, TargetRoute[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const siblings = children.get(route.parentId) ?? [];
    siblings.push({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      hasAction: typeof route.module.action === 'function',
      hasLoader: typeof route.module.loader === 'function',
      resource: route.module.default === undefined,
    } as TargetRoute);
    children.set(route.parentId, siblings);
  }
  const attach = (route: TargetRoute): TargetRoute =>
    route.index
      ? route
      : ({ ...route, children: (children.get(route.id) ?? []).map(attach) } as TargetRoute);
  return (children.get(undefined) ?? []).map(attach);
}
