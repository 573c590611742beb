import { afterEach, beforeEach } from 'vitest';

import { closeEachTestsPages } from './browser';

closeEachTestsPages({ beforeEach, afterEach });
