// The Node entry: loads the app (the server build, or the sources through Vite with --dev),
// listens, and shuts down gracefully. Everything else lives in server/app.ts.
import cluster from 'node:cluster';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import express from 'express';

import { answerForMetrics, STOP_COPY, superviseCopies } from './cluster.js';

// Everything the server writes holds shoppers' data or none: DATA_DIR (the database's new WAL
// and cache files, e-mails, backups, keys) and each request's upload folder under TMPDIR. It
// serves no file it writes and starts no program, so no one else needs to read them.
process.umask(0o077);

const dev = process.argv.includes('--dev');
// Another folder lets several builds (say, parallel test runs) live side by side: relative to
// the repository, or absolute (a build under /tmp).
const buildDirectory = resolve(
  fileURLToPath(new URL('..', import.meta.url)),
  process.env.VITRINE_BUILD_DIR || 'build',
);
process.env.NODE_ENV ??= dev ? 'development' : 'production';

/** @typedef {typeof import('./app')} AppModule */

/** @type {AppModule} */
let appModule;
/** @type {import('vite').ViteDevServer | undefined} */
let vite;
if (dev) {
  const { createServer } = await import('vite');
  vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
  appModule = /** @type {AppModule} */ (await vite.ssrLoadModule('./server/app.ts'));
} else {
  appModule = await import(pathToFileURL(resolve(buildDirectory, 'server/index.js')).href);
}
const { logger, parseEnv, startApp, PUBLIC_FILES_VERSION } = appModule;

/** @type {ReturnType<typeof parseEnv>} */
let env;
/** @type {Awaited<ReturnType<typeof startApp>>} */
let app;
try {
  env = parseEnv();
} catch (error) {
  logger.fatal(error instanceof Error ? error.message : String(error));
  await vite?.close();
  process.exit(1);
}
if (cluster.isWorker) answerForMetrics();
if (!dev && cluster.isPrimary && env.WEB_CONCURRENCY > 1) {
  // This process only looks after the copies (server/cluster.js); each of them runs what follows.
  logger.level = env.LOG_LEVEL;
  await superviseCopies(env.WEB_CONCURRENCY, logger);
}
try {
  app = await startApp(
    env,
    // Development sets no Content-Security-Policy: files need not be told apart from pages.
    vite ? { handler: vite.middlewares, serves: () => false } : staticFiles(),
  );
} catch (error) {
  logger.fatal(error instanceof Error ? error.message : String(error));
  await vite?.close();
  process.exit(1);
}

// Slow or idle clients must not hold connections: a request's headers, then the whole request,
// have this long to arrive (checked every second, not Node's default 30 s); an idle kept-alive
// connection is closed after its own timeout.
const server = createServer(
  {
    headersTimeout: env.HEADERS_TIMEOUT_MS,
    requestTimeout: env.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: env.KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: 1_000,
  },
  app.handler,
);
server.maxConnections = env.MAX_CONNECTIONS;
server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  logger.info(
    { port, host: env.HOST, mode: env.NODE_ENV },
    `Vitrine no ar em http://localhost:${port}`,
  );
});
server.on('error', (error) => {
  logger.fatal({ err: error }, 'Não foi possível iniciar o servidor HTTP');
  process.exit(1);
});
// The app says "100 Continue" only once it will read the body (server/react-router-handler.ts).
server.on('checkContinue', app.handler);
// What Node cannot parse as HTTP never reaches the app: answer 400 and log it briefly.
server.on('clientError', (error, socket) => {
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  if (code !== 'ECONNRESET') logger.warn({ code }, 'Malformed request refused');
  if (socket.writable && !socket.writableEnded) {
    const status =
      code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }
});

let stopping = false;
/** @param {NodeJS.Signals} signal */
async function shutdown(signal) {
  if (stopping) {
    logger.warn({ signal }, 'Segundo sinal: saindo agora');
    process.exit(1);
  }
  stopping = true;
  app.beginShutdown();
  if (env.SHUTDOWN_DELAY_MS > 0) {
    // A load balancer reads the 503 from /healthz and stops sending traffic meanwhile.
    logger.info(
      { signal, delayMs: env.SHUTDOWN_DELAY_MS },
      'Encerrando: /healthz agora responde 503',
    );
    await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DELAY_MS));
  }
  logger.info(
    { signal },
    'Encerrando: novas conexões recusadas, terminando as requisições em curso',
  );
  const force = setTimeout(() => {
    logger.warn('Requisições ainda em curso no fim do prazo de encerramento; fechando as conexões');
    server.closeAllConnections();
  }, env.SHUTDOWN_TIMEOUT_MS);
  // A connection kept alive after its last response would hold close() open until it times out.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  await new Promise((resolve) => server.close(resolve));
  clearInterval(sweep);
  clearTimeout(force);
  try {
    await app.close();
    await vite?.close();
    logger.info('Servidor parado');
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'Erro ao encerrar');
    process.exit(1);
  }
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// A copy is told to stop by the process that started it (server/cluster.js); a terminal's Ctrl-C
// may have told it already, which is no second signal.
if (cluster.isWorker) {
  process.on('message', (/** @type {{ type?: string, signal?: NodeJS.Signals }} */ message) => {
    if (message?.type === STOP_COPY && !stopping) void shutdown(message.signal ?? 'SIGTERM');
  });
}
// A promise nobody awaited is a bug to log, not a reason to drop every shopper's request.
process.on('unhandledRejection', (reason) => {
  logger.error({ err: reason }, 'Unhandled promise rejection');
});

/** @returns {import('./app').StaticFiles} */
function staticFiles() {
  const client = `${resolve(buildDirectory, 'client')}/`;
  const router = express.Router();
  // File names under /assets carry a content hash: they can be cached for good, and are never
  // asked again, so no validator (ETag, Last-Modified) nor range support rides along: 90 bytes of
  // headers less on each of a first visit's nine scripts (bench/bundle-size.ts counts them).
  router.use(
    '/assets',
    precompressed(`${client}assets`),
    express.static(`${client}assets`, {
      immutable: true,
      maxAge: '1y',
      index: false,
      etag: false,
      lastModified: false,
      acceptRanges: false,
    }),
    notEncodedOnError,
    // A missing build file (an old page asking for the previous deploy's chunk): a plain 404,
    // not a store page that would cost database queries.
    missingBuildFile,
  );
  // public/'s files keep their names from one release to the next. Pages ask for them with the
  // folder's version (app/lib/public-files.ts): those bytes never change under that address, so
  // it is kept for a year. Any other address of them (a link typed somewhere, a page cached
  // before a release) is fresh for an hour, then used while checked again in the background (a
  // 304, by its ETag) for a week: a changed file shows on the visit after.
  const publicFiles = new Set(
    readdirSync(client, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(client, join(entry.parentPath, entry.name)))
      .filter((name) => !name.startsWith('assets/') && !name.startsWith('.')),
  );
  router.use(
    // Any other path is a page: express.static would look for it on disk on every request.
    /** @type {import('express').RequestHandler} */
    (req, _res, next) => next(publicFiles.has(req.path.slice(1)) ? undefined : 'router'),
    precompressed(client, publicFiles),
    express.static(client, {
      index: false,
      cacheControl: false,
      setHeaders: (res) => {
        const versioned =
          PUBLIC_FILES_VERSION !== undefined && res.req.query.v === PUBLIC_FILES_VERSION;
        res.setHeader(
          'Cache-Control',
          versioned
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600, stale-while-revalidate=604800',
        );
      },
    }),
    notEncodedOnError,
  );
  return {
    handler: router,
    serves: (path) => path.startsWith('/assets/') || publicFiles.has(path.slice(1)),
  };
}

/**
 * @param {import('express').Request} _req
 * @param {import('express').Response} res
 */
function missingBuildFile(_req, res) {
  res.status(404).type('text').set('Cache-Control', 'no-store').send('Arquivo não encontrado.');
}

/**
 * An error answered in place of a precompressed file (an unsatisfiable Range: 416) carries the
 * error page's plain body, not the file's encoded bytes: it must not say Content-Encoding.
 * @param {unknown} error
 * @param {import('express').Request} _req
 * @param {import('express').Response} res
 * @param {import('express').NextFunction} next
 */
function notEncodedOnError(error, _req, res, next) {
  if (!res.headersSent) res.removeHeader('Content-Encoding');
  next(error);
}

const ENCODED_SUFFIX = { br: '.br', gzip: '.gz' };

/**
 * Sends the .br or .gz the build wrote beside a file (vite.config.ts) to a browser that takes
 * it, so no asset is compressed per request.
 * @param {string} folder
 * @param {Set<string>} [files] the files in it, as paths relative to it (default: its own files)
 * @returns {import('express').RequestHandler}
 */
function precompressed(folder, files = new Set(readdirSync(folder))) {
  return (req, res, next) => {
    // Only what express.static answers: any other method falls through to a plain 404.
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!files.has(`${name}.br`) && !files.has(`${name}.gz`)) return next();
    res.vary('Accept-Encoding');
    // Brotli whenever the browser takes it: asked for the best of several, `accepts` answers the
    // first in the browser's own list, and Chromium lists gzip first (its scripts came 15% larger).
    const encoding = /** @type {const} */ (['br', 'gzip']).find(
      (candidate) =>
        req.acceptsEncodings(candidate) === candidate &&
        files.has(`${name}${ENCODED_SUFFIX[candidate]}`),
    );
    if (!encoding) return next();
    const suffix = ENCODED_SUFFIX[encoding];
    res.type(extname(name));
    res.setHeader('Content-Encoding', /** @type {string} */ (encoding));
    // The query stays: it says which version of a public/ file was asked for.
    const query = req.url.indexOf('?');
    req.url = `/${name}${suffix}${query === -1 ? '' : req.url.slice(query)}`;
    next();
  };
}
