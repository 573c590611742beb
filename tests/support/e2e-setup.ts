import { afterAll, afterEach, beforeEach } from 'vitest';

import { closeEachTestsPages } from './browser';
import { stopServersLeftRunning } from './server';

closeEachTestsPages({ beforeEach, afterEach });
// Workers run file after file (isolate: false): a server a file's hook could not stop (it timed
// out) would otherwise go on loading the machine for the rest of the run, not just the file.
// Registered first, so run after the file's own afterAll hooks.
afterAll(stopServersLeftRunning);
