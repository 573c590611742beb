// The Node entry: loads the app (the server build, or the sources through Vite with --dev),
// listens, and shuts down gracefully. Everything else lives in server/app.ts.
import express from 'express';

const dev = process.argv.includes('--dev');
// Another folder lets several builds (say, parallel test runs) live side by side.
const buildDirectory = process.env.VITRINE_BUILD_DIR || 'build';
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
  appModule = await import(new URL(`../${buildDirectory}/server/index.js`, import.meta.url).href);
}
const { logger, parseEnv, startApp } = appModule;

/** @type {ReturnType<typeof parseEnv>} */
let env;
/** @type {Awaited<ReturnType<typeof startApp>>} */
let app;
try {
  env = parseEnv();
  app = await startApp(env, vite ? vite.middlewares : staticFiles());
} catch (error) {
  logger.fatal(error instanceof Error ? error.message : String(error));
  await vite?.close();
  process.exit(1);
}

const server = app.handler.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  logger.info(
    { port, host: env.HOST, mode: env.NODE_ENV },
    `Vitrine listening on http://localhost:${port}`,
  );
});
server.on('error', (error) => {
  logger.fatal({ err: error }, 'Could not start the HTTP server');
  process.exit(1);
});

let stopping = false;
/** @param {NodeJS.Signals} signal */
async function shutdown(signal) {
  if (stopping) {
    logger.warn({ signal }, 'Second signal: exiting now');
    process.exit(1);
  }
  stopping = true;
  logger.info({ signal }, 'Shutting down: refusing new connections, finishing requests in flight');
  app.beginShutdown();
  const force = setTimeout(() => {
    logger.warn('Requests still running after the shutdown timeout; closing their connections');
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
    logger.info('Stopped');
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'Error while closing');
    process.exit(1);
  }
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

function staticFiles() {
  const client = new URL(`../${buildDirectory}/client/`, import.meta.url).pathname;
  const router = express.Router();
  // File names under /assets carry a content hash: they can be cached for good.
  router.use(
    '/assets',
    express.static(`${client}assets`, { immutable: true, maxAge: '1y', index: false }),
  );
  router.use(express.static(client, { maxAge: '1h', index: false }));
  return router;
}
