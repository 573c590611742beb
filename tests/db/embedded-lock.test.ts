import { spawn } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'drizzle-orm';
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
    await expect(second).rejects.toThrow(/já está em uso por outro processo do Vitrine/);

    await opened.pop()!.close();
    const again = await openDatabase({ dataDir });
    opened.push(again);
    await expect(again.ping()).resolves.toBeUndefined();
  });

  it('is readable by its owner only, from its first files to those written later', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vitrine-lock-'));
    const folder = join(dataDir, 'data');
    const database = await openDatabase({ dataDir: folder });
    opened.push(database);
    await database.db.execute(
      sql`create table shoppers as select 'cliente' || i || '@example.com' as email
          from generate_series(1, 5000) as i`,
    );
    await database.db.execute(sql`checkpoint`);
    const open = readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .map((name) => join(folder, name))
      .concat(folder)
      .filter((path) => (lstatSync(path).mode & 0o077) !== 0);
    expect(open).toEqual([]);
  });
});

describe('a lock left by a process that died', () => {
  let dataDir: string | undefined;
  const opened: Database[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A folder locked by a process on this machine that then ended without unlocking (kill -9). */
  async function lockedByTheDead(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'vitrine-lock-'));
    const script = `
      const lockfile = require('proper-lockfile');
      const { mkdirSync, writeFileSync } = require('node:fs');
      const { hostname } = require('node:os');
      const db = ${JSON.stringify(join(dir, 'db'))};
      mkdirSync(db, { recursive: true });
      lockfile.lock(db, { lockfilePath: db + '.lock', stale: 10000 }).then(() => {
        writeFileSync(db + '.owner', JSON.stringify({ pid: process.pid, host: hostname() }));
        process.kill(process.pid, 'SIGKILL');
      });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'inherit' });
    await new Promise((resolve) => child.on('exit', resolve));
    return dir;
  }

  it('is taken over at once when its owner ran here and is gone', async () => {
    dataDir = await lockedByTheDead();
    const database = await openDatabase({ dataDir });
    opened.push(database);
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it('is respected while its owner is still running', async () => {
    dataDir = await lockedByTheDead();
    // This process now claims it, as a live owner would.
    await writeFile(
      join(dataDir, 'db.owner'),
      JSON.stringify({ pid: process.ppid, host: hostname() }),
    );
    await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DatabaseLockedError);
  });
});
