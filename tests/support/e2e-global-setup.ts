import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';

import { chromium } from 'playwright-core';

import { ADMIN_TEMPLATE_ENV, withAdmin } from './admin';
import { BROWSER_SERVER_ENV, CHROMIUM_OPTIONS, CHROMIUM_PATH } from './browser';
import { createStoreTemplate, createTemplateFrom, STORE_TEMPLATE_ENV } from './store';

const SETUP_DONE_ENV = 'VITRINE_TEST_E2E_SETUP';

// Browser tests run against the production build, as shoppers get it.
export default async function setup() {
  // The e2e and interaction projects share this setup, in one process: made once for both
  // (marked before the first await, in case the two start together).
  if (process.env[SETUP_DONE_ENV]) return async () => {};
  process.env[SETUP_DONE_ENV] = '1';
  execFileSync(process.execPath, ['scripts/ensure-build.js'], { stdio: 'inherit' });
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with ` +
        '"apt-get install -y chromium-headless-shell" ' +
        'or set CHROMIUM_PATH.',
    );
  }
  // Made once for the run; the test workers, started after this, inherit the variables: they copy
  // the store's folder, and connect to the one Chromium.
  // The second template holds the test admin, which a dozen files' servers start with.
  const [[template, adminTemplate], browser] = await Promise.all([
    createStoreTemplate().then(
      async (made) => [made, await createTemplateFrom(made, withAdmin())] as const,
    ),
    chromium.launchServer(CHROMIUM_OPTIONS),
  ]);
  process.env[STORE_TEMPLATE_ENV] = template;
  process.env[ADMIN_TEMPLATE_ENV] = adminTemplate;
  process.env[BROWSER_SERVER_ENV] = browser.wsEndpoint();
  return async () => {
    delete process.env[STORE_TEMPLATE_ENV];
    delete process.env[ADMIN_TEMPLATE_ENV];
    delete process.env[BROWSER_SERVER_ENV];
    delete process.env[SETUP_DONE_ENV];
    await browser.close();
    await Promise.all(
      [template, adminTemplate].map((folder) => rm(folder, { recursive: true, force: true })),
    );
  };
}
