import { Writable } from 'node:stream';

import { renderToPipeableStream } from 'react-dom/server';
import {
  isRouteErrorResponse,
  ServerRouter,
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
} from 'react-router';

import { isAdminPath } from '~/lib/admin-path';
import { logger, redactUrl } from '~/lib/logger.server';
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
        const html = Buffer.concat(chunks).toString();
        // The staff's pages are used through their scripts: there those start at once.
        const adminPage = isAdminPath(new URL(request.url).pathname);
        const body = Buffer.from(adminPage ? html : deferScripts(html));
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
        // Never move a finished Suspense boundary (a hydration slice, ADR 023) out of its place
        // into a hidden element that an inline script puts back: the page is sent in one piece
        // anyway, and it must read the same before (or without) scripts.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
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
          if (shellRendered)
            logger.error({ err: error, url: redactUrl(request.url) }, 'Render error');
        },
      },
    );
  });
}

/**
 * The page works before its scripts run (it is all in the HTML), so they wait until it has been
 * drawn: fetched alongside the stylesheet, fonts and first pictures they took a slow phone's
 * bandwidth from the largest picture, and run before the first paint they held it back (Lighthouse
 * counts both in the Largest Contentful Paint). React Router's <Scripts> has no option for that, so
 * its module preloads leave the head, and its module script, which imports the route modules and
 * then the entry that hydrates, becomes one with no static import: once the page has loaded and
 * painted (or after LOAD_WAIT_LIMIT_MS: a slow third-party script holds up the load event), it
 * preloads the same modules (a task each: adding a preload costs the main thread), waits until the
 * browser has fetched and compiled them all, which it does off the main thread, and runs them one
 * at a time, so that no single task runs them all (each long task holds up a tap). Preloaded at
 * once and imported as they arrived, they cost the product page one task of 85–95 ms at 4× CPU
 * slowdown, and Lighthouse's trace showed them compiled on the main thread
 * (bench/hydration-profile.ts). The element keeps its place and attributes (its
 * nonce, `type="module"`), so hydration still finds it. A page whose scripts do not look as
 * expected is left as it is.
 */
function deferScripts(html: string): string {
  const script = ROUTE_MODULES_SCRIPT.exec(html);
  if (!script) return html;
  const [element, attributes = '', code = ''] = script;
  const entry = ENTRY_IMPORT.exec(code)?.[1];
  const imports = [...code.matchAll(STATIC_IMPORT)];
  if (!entry || imports.length === 0) return html;
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map(([, href]) => href!);
  // The entry hydrates as it runs, so it comes last, after the code that sets up the route modules.
  const ahead = preloads.filter((href) => JSON.stringify(href) !== entry);
  const routeModules = imports.map(([, name, specifier]) =>
    name ? `const ${name}=await load(${specifier});` : `await load(${specifier});`,
  );
  const deferred =
    `(async()=>{const nextTask=()=>new Promise(r=>setTimeout(r));` +
    `const load=async href=>{const module=await import(href);await nextTask();return module};` +
    `await new Promise(r=>{if(document.readyState==="complete")r();` +
    `else{addEventListener("load",r,{once:true});setTimeout(r,${LOAD_WAIT_LIMIT_MS})}});` +
    `await new Promise(r=>requestAnimationFrame(()=>requestAnimationFrame(r)));await nextTask();` +
    `const nonce=document.querySelector("script[nonce]")?.nonce;const preloaded=[];` +
    `for(const href of ${scriptJson(preloads)}){const link=document.createElement("link");` +
    `link.rel="modulepreload";link.href=href;if(nonce)link.nonce=nonce;` +
    `preloaded.push(new Promise(r=>{link.onload=link.onerror=r}));document.head.append(link);await nextTask()}` +
    `await Promise.all(preloaded);` +
    `for(const href of ${scriptJson(ahead)})await load(href);` +
    `${routeModules.join('')}\n${code.replaceAll(STATIC_IMPORT, '')}\n})();`;
  const withoutPreloads = (part: string) => part.replaceAll(MODULE_PRELOAD, '');
  return (
    withoutPreloads(html.slice(0, script.index)) +
    `<script${attributes}>${deferred}</script>` +
    withoutPreloads(html.slice(script.index + element.length))
  );
}

const LOAD_WAIT_LIMIT_MS = 3000;
const ROUTE_MODULES_SCRIPT =
  /<script((?: nonce="[^"]*")? type="module" async="")>([^<]*)<\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]* href="([^"]+)"[^>]*\/>/g;
/** `import * as route0 from "…";` and `import "…";`, not `import("…")`. */
const STATIC_IMPORT = /\bimport\s*(?:\*\s*as\s+(\w+)\s+from\s*)?("[^"]*")\s*;?/g;
const ENTRY_IMPORT = /\bimport\(("[^"]*")\);?\s*$/;

/** JSON that cannot end the <script> it is written in. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests (the shopper navigated away) and 4xx answers are not errors of ours.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  logger.error(
    { err: error, method: request.method, url: redactUrl(request.url) },
    'Request failed',
  );
};
