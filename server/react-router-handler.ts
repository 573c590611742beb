import { writeReadableStreamToWritable } from '@react-router/node';
import type express from 'express';
import { createRequestHandler, type AppLoadContext, type ServerBuild } from 'react-router';

import { MESSAGES, refuse } from './error-page';
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
}): express.RequestHandler {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req, res, next) => {
    try {
      let body: Buffer<ArrayBuffer> | undefined;
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        const read = await readBody(req, res, await options.maxBodyBytes(req, res));
        if (read === 'too-large') {
          refuse(res, 413, MESSAGES.tooLarge, 'body over the limit');
          return;
        }
        body = read;
      }
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const request = new Request(`${requestOrigins(res).router}${req.originalUrl}`, {
        method: req.method,
        headers: requestHeaders(req),
        body,
        signal: controller.signal,
      });
      const response = await handle(request, options.getLoadContext(req, res));
      await sendResponse(res, response, req.protocol === 'https');
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

function requestHeaders(req: express.Request): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    headers.append(raw[index]!, raw[index + 1]!);
  }
  return headers;
}

async function sendResponse(res: express.Response, response: Response, secure: boolean) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
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
