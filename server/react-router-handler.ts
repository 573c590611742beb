import { writeReadableStreamToWritable } from '@react-router/node';
import type express from 'express';
import {
  createRequestHandler,
  type AppLoadContext,
  type RequestHandler,
  type ServerBuild,
} from 'react-router';

import { MESSAGES, refuse } from './error-page';
import type { CachePlan, PageCache } from './page-cache';
import { requestOrigins } from './request-guard';

/**
 * React Router behind Express. Unlike @react-router/express, it builds the request's URL from
 * the origin the guard checked (never from raw Host headers), reads at most `maxBodyBytes` of a
 * body before the route sees it, and marks cookies Secure when the request came over https.
 */
export function reactRouterHandler(options: {
  build: () => Promise<ServerBuild>;
  mode: string;
  /** The largest body this request may send (larger for admins' uploads). */
  maxBodyBytes: (req: express.Request, res: express.Response) => number | Promise<number>;
  getLoadContext: (req: express.Request, res: express.Response) => AppLoadContext;
  pageCache?: PageCache;
}): express.RequestHandler {
  const handle = builtOnce(options.build, options.mode);
  const { pageCache } = options;

  const render = async (
    req: express.Request,
    res: express.Response,
    body: Buffer<ArrayBuffer> | undefined,
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
    });
    return handle(request, options.getLoadContext(req, res));
  };

  return async (req, res, next) => {
    try {
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
      let body: Buffer<ArrayBuffer> | undefined;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        const read = await readBody(req, res, await options.maxBodyBytes(req, res));
        if (read === 'too-large') {
          refuse(res, 413, MESSAGES.tooLarge, 'body over the limit');
          return;
        }
        body = read;
      }
      if (plan === null) res.setHeader('X-Page-Cache', 'bypass');
      await sendResponse(res, await render(req, res, body), secure);
    } catch (error) {
      next(error);
    }
  };
}

/** The body, or 'too-large' as soon as it passes the limit (the rest is never kept). */
function readBody(
  req: express.Request,
  res: express.Response,
  limit: number,
): Promise<Buffer<ArrayBuffer> | 'too-large'> {
  // A client that asked before sending ("Expect: 100-continue") is told to go ahead only now.
  if (req.get('Expect')?.toLowerCase() === '100-continue') res.writeContinue();
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
  res.statusMessage = response.statusText;
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
