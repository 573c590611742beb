import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { CHROMIUM_PATH } from './browser';

// Browser tests run against the production build, as shoppers get it.
export default function setup() {
  execFileSync(process.execPath, ['scripts/ensure-build.js'], { stdio: 'inherit' });
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with "apt-get install -y chromium" ` +
        'or set CHROMIUM_PATH.',
    );
  }
}
