import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { DatabaseLockedError, openDatabase, type Database } from '~/db/database.server';

describe('embedded database folder', () => {
  const opened: Database[] = [];
  let dataDir: string | undefined;
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('cannot be opened twice at once, and can be reopened once closed', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vitrine-lock-'));
    const first = await openDatabase({ dataDir });
    opened.push(first);

    const second = openDatabase({ dataDir });
    await expect(second).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(second).rejects.toThrow(/already in use by another Vitrine process/);

    await opened.pop()!.close();
    const again = await openDatabase({ dataDir });
    opened.push(again);
    await expect(again.ping()).resolves.toBeUndefined();
  });
});
