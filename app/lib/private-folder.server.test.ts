import { chmod, lstat, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { makePrivate } from './private-folder.server';

const mode = async (path: string) => (await lstat(path)).mode & 0o777;

describe('makePrivate', () => {
  const made: string[] = [];
  afterEach(async () => {
    for (const folder of made.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  it('closes a folder and everything under it to other users, links left alone', async () => {
    const root = await mkdtemp(join(tmpdir(), 'vitrine-private-'));
    made.push(root);
    const data = join(root, 'data');
    const outside = join(root, 'outside.txt');
    await mkdir(join(data, 'db', 'pg_wal'), { recursive: true });
    await writeFile(join(data, 'db', 'pg_wal', '000000010000000000000001'), 'cliente@example.com');
    await writeFile(join(data, 'secrets.key'), 'key');
    await writeFile(join(data, 'run.sh'), '#!/bin/sh');
    await writeFile(outside, 'not the store’s');
    await symlink(outside, join(data, 'link'));
    for (const folder of [data, join(data, 'db'), join(data, 'db', 'pg_wal')]) {
      await chmod(folder, 0o777);
    }
    await chmod(join(data, 'db', 'pg_wal', '000000010000000000000001'), 0o666);
    await chmod(join(data, 'secrets.key'), 0o644);
    await chmod(join(data, 'run.sh'), 0o755);
    await chmod(outside, 0o644);

    await makePrivate(data);

    expect(await mode(data)).toBe(0o700);
    expect(await mode(join(data, 'db'))).toBe(0o700);
    expect(await mode(join(data, 'db', 'pg_wal'))).toBe(0o700);
    expect(await mode(join(data, 'db', 'pg_wal', '000000010000000000000001'))).toBe(0o600);
    expect(await mode(join(data, 'secrets.key'))).toBe(0o600);
    expect(await mode(join(data, 'run.sh'))).toBe(0o700);
    expect(await mode(outside)).toBe(0o644);
  });

  it('makes a missing folder private', async () => {
    const root = await mkdtemp(join(tmpdir(), 'vitrine-private-'));
    made.push(root);
    await makePrivate(join(root, 'a', 'b'));
    expect((await stat(join(root, 'a'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, 'a', 'b'))).mode & 0o777).toBe(0o700);
  });
});
