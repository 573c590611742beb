import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { startServer } from '../support/server';

const ROOT = new URL('../../', import.meta.url).pathname;

function db(command: string, dataDir: string) {
  const result = spawnSync('npx', ['tsx', 'scripts/db.ts', command], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

describe('npm run db:migrate / db:seed', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('migrate a new folder, and seed a store that started empty', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'vitrine-cli-'));
    expect(db('migrate', dataDir)).toMatchObject({ code: 0 });

    const empty = await startServer({ dataDir, env: { SEED: 'false' } });
    expect(await (await fetch(empty.url)).text()).toContain('Nenhum produto em destaque.');
    // The seed command refuses to share the folder with the running server.
    const refused = db('seed', dataDir);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('already in use by another Vitrine process');
    expect(await empty.stop()).toBe(0);

    expect(db('seed', dataDir)).toMatchObject({ code: 0 });
    const seeded = await startServer({ dataDir, env: { SEED: 'false' } });
    const html = await (await fetch(seeded.url)).text();
    expect(html.match(/data-testid="product-card"/g)).toHaveLength(8);
    await seeded.stop();
  });
});
