import { Writable } from 'node:stream';

import { renderToPipeableStream } from 'react-dom/server';
import {
  isRouteErrorResponse,
  ServerRouter,
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
} from 'react-router';

import { logger } from '~/lib/logger.server';
import { NonceProvider } from '~/lib/nonce';

export const streamTimeout = 5_000;

/**
 * The whole document, rendered before anything is sent and answered in one write. No route
 * streams (every loader's data is awaited), so streaming gained nothing, and each of React's
 * dozen chunks cost a compressor flush; one buffer is also what the page cache keeps.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const collector = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        const body = Buffer.from(lowPriorityScripts(Buffer.concat(chunks).toString()));
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        responseHeaders.set('Content-Length', String(body.length));
        resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(collector);
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell is ready reach handleError through the rejection.
          if (shellRendered) logger.error({ err: error, url: request.url }, 'Render error');
        },
      },
    );
  });
}

/**
 * The page works before its scripts run (it is all in the HTML), so the stylesheet, the fonts
 * and the first images go first: React Router's <Scripts> has no way to say so on the module
 * preloads it writes. Lighthouse counts high-priority scripts as holding up the first paint.
 */
function lowPriorityScripts(html: string): string {
  return html.replaceAll(
    '<link rel="modulepreload"',
    '<link rel="modulepreload" fetchPriority="low"',
  );
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests (the shopper navigated away) and 4xx answers are not errors of ours.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  logger.error({ err: error, method: request.method, url: request.url }, 'Request failed');
};
