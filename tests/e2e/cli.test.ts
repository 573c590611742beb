import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { startServer } from '../support/server';
import { Visitor } from '../support/visitor';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Each command is a process of its own that compiles with tsx and opens PGlite (about 3 s); a
 * test runs several, one after another. Alone one takes about 25 s; beside the other browser
 * tests on a 2-core machine, more than the default minute. They run as `npm run` would, through
 * tsx, but without npx's own second of CPU before each.
 */
const CLI_TIMEOUT = 180_000;

function db(command: string, dataDir: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db.ts', command], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

/** `npm run <script> -- args`, with ADMIN_PASSWORD set (no terminal to type it on). */
function admin(script: string, args: string[], dataDir: string, password: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: password },
    encoding: 'utf8',
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

describe('npm run admin:reset-password', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'sets a new password for an admin by e-mail, and says when the e-mail has none',
    async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'vitrine-cli-'));
      const email = 'gerente@loja.com.br';
      expect(
        admin('admin-create', ['--email', email, '--name', 'Gerente'], dataDir, 'senha-antiga-1'),
      ).toMatchObject({ code: 0 });

      const unknown = admin(
        'admin-reset-password',
        ['--email', 'ninguem@loja.com.br'],
        dataDir,
        'x',
      );
      expect(unknown.code).toBe(1);
      // The password is checked first: too short.
      expect(unknown.output).toContain('A senha deve ter entre 8 e 128 caracteres.');
      const none = admin(
        'admin-reset-password',
        ['--email', 'ninguem@loja.com.br'],
        dataDir,
        'senha-nova-123',
      );
      expect(none.code).toBe(1);
      expect(none.output).toContain('Nenhum administrador com o e-mail ninguem@loja.com.br.');
      const usage = admin('admin-reset-password', [], dataDir, 'senha-nova-123');
      expect(usage.code).toBe(1);
      expect(usage.output).toContain('Uso: npm run admin:reset-password -- --email E');

      const done = admin(
        'admin-reset-password',
        ['--email', 'Gerente@Loja.com.br'],
        dataDir,
        'senha-nova-123',
      );
      expect(done).toMatchObject({ code: 0 });
      expect(done.output).toContain('Senha redefinida: gerente@loja.com.br.');

      const server = await startServer({ dataDir, env: { SEED: 'false' } });
      const signIn = (password: string) =>
        new Visitor(server.url).post('/admin/login', { intent: 'sign-in', email, password });
      expect((await signIn('senha-antiga-1')).status).toBe(401);
      expect((await signIn('senha-nova-123')).status).toBe(303);
      await server.stop();
    },
    CLI_TIMEOUT,
  );
});

describe('npm run db:migrate / db:seed', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'migrate a new folder, and seed a store that started empty',
    async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'vitrine-cli-'));
      expect(db('migrate', dataDir)).toMatchObject({ code: 0 });

      const empty = await startServer({ dataDir, env: { SEED: 'false' } });
      expect(await (await fetch(empty.url)).text()).toContain('Nenhum produto em destaque.');
      // The seed command refuses to share the folder with the running server.
      const refused = db('seed', dataDir);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('já está em uso por outro processo do Vitrine');
      expect(await empty.stop()).toBe(0);

      expect(db('seed', dataDir)).toMatchObject({ code: 0 });
      const seeded = await startServer({ dataDir, env: { SEED: 'false' } });
      const html = await (await fetch(seeded.url)).text();
      expect(html.match(/data-testid="product-card"/g)).toHaveLength(8);
      await seeded.stop();
    },
    CLI_TIMEOUT,
  );
});
