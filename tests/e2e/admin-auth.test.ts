import { spawnSync } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ADMIN, adminVisitor, signIn, withAdmin } from '../support/admin';
import { seriousAxeViolations } from '../support/axe';
import { launchBrowser, openPage, VIEWPORTS } from '../support/browser';
import { startServer, type TestServer } from '../support/server';
import { prepareStoreFolder } from '../support/store';
import { Visitor, visibleText } from '../support/visitor';

import type { Browser } from 'playwright-core';

const ROOT = new URL('../../', import.meta.url).pathname;

const WRONG = 'E-mail ou senha incorretos.';
const THROTTLED = 'Muitas tentativas de acesso. Aguarde 15 minutos e tente novamente.';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function setupCodes(server: TestServer): string[] {
  return [...server.output().matchAll(/"setupCode":"([A-Z0-9-]+)"/g)].map((match) => match[1]!);
}

describe('the first admin of a new store', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is created on /admin/login with the one-time code from the server log, at 360 px', async () => {
    const [code] = setupCodes(server);
    expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}$/);
    // For the person at the terminal, the same code stands in a box of its own.
    expect(server.output()).toContain(`│  Código de configuração: ${code}`);

    const { page, problems } = await openPage(browser, `${server.url}/admin`, VIEWPORTS.mobile);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    expect(await page.getByRole('button', { name: 'Criar administrador' }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel('Código de configuração').fill('AAAAA-BBBBB-CCCCC');
    await page.getByLabel('Nome').fill('Ana Souza');
    await page.getByLabel('E-mail').fill('ana@loja.com.br');
    await page.getByLabel(/^Senha/).fill('uma-senha-boa');
    await page.getByRole('button', { name: 'Criar administrador' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain(
      'Código de configuração inválido ou expirado',
    );
    // What was typed stays, except the password.
    expect(await page.getByLabel('E-mail').inputValue()).toBe('ana@loja.com.br');

    await page.getByLabel('Código de configuração').fill(code!.toLowerCase());
    await page.getByLabel(/^Senha/).fill('uma-senha-boa');
    await page.getByRole('button', { name: 'Criar administrador' }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole('button', { name: 'Abrir menu do painel' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu do painel' });
    await drawer.getByText('ana@loja.com.br').waitFor();
    expect(await drawer.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe(
      'page',
    );
    // The wrong code's answer is a 409, which the browser reports.
    expect(problems.filter((problem) => !problem.includes('409'))).toEqual([]);
    await page.context().close();
  });

  it('cannot be created twice: the code is spent and the form is gone', async () => {
    const [code] = setupCodes(server);
    const visitor = new Visitor(server.url);
    const answer = await visitor.post('/admin/login', {
      intent: 'create-admin',
      setupCode: code!,
      email: 'intruso@example.com',
      fullName: 'Intruso',
      password: 'outra-senha-boa',
    });
    expect(answer.status).toBe(409);
    expect(visibleText(answer.text)).toContain('Já existe um administrador');
    const page = await visitor.get('/admin/login');
    expect(page.text).toContain('Entrar no painel');
    expect(page.text).not.toContain('Código de configuração');
  });
});

describe('signing in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ prepare: withAdmin() });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('says the same for a wrong password and an unknown e-mail, and keeps the e-mail typed', async () => {
    const { page, problems } = await openPage(browser, `${server.url}/admin/login`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Senha').fill('senha-errada');
    await page.getByRole('button', { name: 'Entrar no painel' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(WRONG);
    expect(await page.getByLabel('E-mail').inputValue()).toBe(ADMIN.email);
    expect(await page.getByLabel('Senha').inputValue()).toBe('');

    const stranger = await new Visitor(server.url, { address: '203.0.113.50' }).post(
      '/admin/login',
      { intent: 'sign-in', email: 'ninguem@loja.com.br', password: 'senha-errada' },
    );
    expect(stranger.status).toBe(401);
    expect(visibleText(stranger.text)).toContain(WRONG);
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.context().close();
  });

  it('locks an e-mail at one address after 5 failures, whether or not it has an account, even for the right password', async () => {
    for (const email of ['alvo@loja.com.br', ADMIN.email]) {
      const visitor = new Visitor(server.url, { address: '198.51.100.1' });
      for (let i = 0; i < 5; i++) {
        const answer = await visitor.post('/admin/login', {
          intent: 'sign-in',
          email,
          password: `tentativa-${i}`,
        });
        expect(answer.status).toBe(401);
      }
      const locked = await visitor.post('/admin/login', {
        intent: 'sign-in',
        email: email.toUpperCase(),
        password: email === ADMIN.email ? ADMIN.password : 'tentativa-x',
      });
      expect(locked.status).toBe(429);
      // Said in seconds and in words, truthfully: the lock began with the fifth failure.
      const retryAfter = Number(locked.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(840);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expect(visibleText(locked.text)).toContain(THROTTLED);
    }
    // Failures elsewhere never lock the admin out of their own address.
    await adminVisitor(server.url);
  });

  it('locks an address after 20 failures, across e-mails', async () => {
    const visitor = new Visitor(server.url, { address: '192.0.2.77' });
    for (let i = 0; i < 20; i++) {
      const answer = await visitor.post('/admin/login', {
        intent: 'sign-in',
        email: `pessoa${i}@loja.com.br`,
        password: 'qualquer-coisa',
      });
      expect(answer.status).toBe(401);
    }
    const locked = await visitor.post('/admin/login', {
      intent: 'sign-in',
      email: ADMIN.email,
      password: ADMIN.password,
    });
    expect(locked.status).toBe(429);
    expect(locked.location).toBeNull();
  });

  it('sets an httpOnly, SameSite=Lax session cookie, __Host- and Secure over https, and a new one at each sign-in', async () => {
    const visitor = new Visitor(server.url, { address: '192.0.2.10' });
    // A session id planted before sign-in must not become a signed-in one.
    visitor.cookies.set('vitrine_session', 'planted-token-planted-token-planted-token');
    const answer = await visitor.request('/admin/login', {
      method: 'POST',
      body: new URLSearchParams({
        intent: 'sign-in',
        email: ADMIN.email,
        password: ADMIN.password,
      }),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Forwarded-Proto': 'https',
      },
    });
    expect(answer.status).toBe(303);
    const cookie = answer.headers
      .getSetCookie()
      .find((c) => c.startsWith('__Host-vitrine_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Secure/i);
    const first = visitor.cookies.get('__Host-vitrine_session');
    expect(first).not.toContain('planted');

    const again = await adminVisitor(server.url);
    expect(again.cookies.get('vitrine_session')).not.toBe(first);
    const plain = (await again.get('/admin')).headers;
    expect(plain.get('cache-control')).toBe('private, no-store');
    expect(plain.get('x-robots-tag')).toBe('noindex, nofollow');
  });

  it('brings the admin back to the page asked for, and only to the admin', async () => {
    const anonymous = new Visitor(server.url);
    const asked = await anonymous.get('/admin/orders?status=pending');
    expect(asked.status).toBe(302);
    expect(asked.location).toBe('/admin/login?redirectTo=%2Fadmin%2Forders%3Fstatus%3Dpending');

    const visitor = new Visitor(server.url, { address: '192.0.2.11' });
    const fields = { intent: 'sign-in', email: ADMIN.email, password: ADMIN.password };
    const back = await visitor.post(`${asked.location}`, fields);
    expect(back.location).toBe('/admin/orders?status=pending');
    for (const target of ['//evil.example/admin', 'https://evil.example/', '/products']) {
      const other = new Visitor(server.url, { address: '192.0.2.12' });
      const signed = await other.post(
        `/admin/login?${new URLSearchParams({ redirectTo: target })}`,
        fields,
      );
      expect(signed.location).toBe('/admin');
    }
    // Signed in, the login page sends the admin on.
    expect((await visitor.get('/admin/login')).location).toBe('/admin');
  });

  it("ends the session on the server with 'Sair'", async () => {
    const { page, problems } = await openPage(browser, 'about:blank', VIEWPORTS.desktop);
    await signIn(page, server.url);
    const sidebar = page.getByRole('complementary');
    await sidebar.getByText(ADMIN.email).waitFor();
    const [stolen] = await page.context().cookies(server.url);
    await sidebar.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL(`${server.url}/admin/login`);

    // The old cookie, replayed, no longer opens the admin.
    const replay = new Visitor(server.url);
    replay.cookies.set(stolen!.name, stolen!.value);
    const answer = await replay.get('/admin');
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/admin/login');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('refuses a sign-in or a sign-out posted from another site', async () => {
    const visitor = await adminVisitor(server.url);
    const forged = await visitor.post(
      '/admin/login',
      { intent: 'sign-in', email: ADMIN.email, password: ADMIN.password },
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    );
    expect(forged.status).toBe(403);
    const logout = await visitor.post('/admin/logout', {}, { Origin: 'https://evil.example' });
    expect(logout.status).toBe(403);
    expect((await visitor.get('/admin')).status).toBe(200);
  });

  it('answers junk and other methods on the sign-in form with a pt-BR 4xx', async () => {
    const visitor = new Visitor(server.url, { address: '192.0.2.13' });
    const junk = await visitor.post('/admin/login', { intent: 'nada', email: 'x' });
    expect(junk.status).toBe(400);
    expect(visibleText(junk.text)).toContain('Envie os dados pelo formulário de acesso.');
    const noEmail = await visitor.post('/admin/login', { intent: 'sign-in', password: 'x' });
    expect(noEmail.status).toBe(400);
    expect(visibleText(noEmail.text)).toContain('Informe um e-mail válido.');
    const json = await visitor.request('/admin/login', {
      method: 'POST',
      body: '{"email":1}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(json.status).toBe(400);
    expect((await visitor.request('/admin/login', { method: 'PUT' })).status).toBe(405);
  });
});

describe('npm run admin:create', () => {
  // Its budget is five CLI runs (npm, then tsx compiling the script) and a server start: 279 s
  // with the CPU burner at load 17–30.
  it(
    'creates an admin who can then sign in; refuses a weak password and a taken e-mail',
    { timeout: 360_000 },
    async () => {
      const dataDir = await prepareStoreFolder({});
      const run = (args: string[], password?: string) => {
        const result = spawnSync('npm', ['run', '-s', 'admin:create', '--', ...args], {
          cwd: ROOT,
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            DATABASE_URL: '',
            ...(password === undefined ? {} : { ADMIN_PASSWORD: password }),
          },
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        return { code: result.status, output: result.stdout + result.stderr };
      };
      expect(run(['--email', 'Caixa@Loja.com.br', '--name', 'Caixa'], 'curta')).toMatchObject({
        code: 1,
        output: expect.stringContaining('A senha deve ter entre 8 e 128 caracteres.'),
      });
      expect(run(['--email', 'caixa@loja.com.br', '--name', 'Caixa'])).toMatchObject({
        code: 1,
        output: expect.stringContaining('ADMIN_PASSWORD'),
      });
      expect(run(['--email', 'caixa@loja.com.br'], 'senha-do-caixa')).toMatchObject({ code: 1 });
      expect(
        run(['--email', 'Caixa@Loja.com.br', '--name', 'Caixa'], 'senha-do-caixa'),
      ).toMatchObject({
        code: 0,
        output: expect.stringContaining('Administrador criado: caixa@loja.com.br'),
      });
      expect(
        run(['--email', 'caixa@loja.com.br', '--name', 'Outro'], 'senha-do-caixa'),
      ).toMatchObject({
        code: 1,
        output: expect.stringContaining('Já existe um administrador com este e-mail.'),
      });

      const server = await startServer({ dataDir });
      try {
        // An admin exists: no setup code is printed, and the sign-in form works for the new admin.
        expect(setupCodes(server)).toEqual([]);
        await adminVisitor(server.url, { email: 'caixa@loja.com.br', password: 'senha-do-caixa' });
      } finally {
        await server.stop();
      }
    },
  );
});
