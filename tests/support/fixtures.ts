import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

import { launchBrowser } from './browser';
import { startServer, type ServerOptions, type TestServer } from './server';

export interface StoreAndBrowser {
  readonly server: TestServer;
  readonly browser: Browser;
}

/** A production server (with these options) and Chromium for the tests of one describe block. */
export function useStoreAndBrowser(options?: ServerOptions): StoreAndBrowser {
  const started = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    [started.server, started.browser] = await Promise.all([startServer(options), launchBrowser()]);
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.stop();
  });
  return started;
}
