import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';

import { CHROMIUM_PATH } from './browser';
import { createStoreTemplate, STORE_TEMPLATE_ENV } from './store';

// Browser tests run against the production build, as shoppers get it.
export default async function setup() {
  execFileSync(process.execPath, ['scripts/ensure-build.js'], { stdio: 'inherit' });
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with "apt-get install -y chromium" ` +
        'or set CHROMIUM_PATH.',
    );
  }
  // Migrated and seeded once for the run; the test workers, started after this, inherit the
  // variable and copy the folder.
  const template = await createStoreTemplate();
  process.env[STORE_TEMPLATE_ENV] = template;
  return async () => {
    delete process.env[STORE_TEMPLATE_ENV];
    await rm(template, { recursive: true, force: true });
  };
}
