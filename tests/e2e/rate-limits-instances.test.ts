import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
  uniqueDatabaseName,
} from '../support/postgres';
import { startServer, type TestServer } from '../support/server';
import { Visitor, visibleText, tally } from '../support/visitor';

const ADMIN = { email: 'gerente@loja.com.br', fullName: 'Gerente', password: 'senha-forte-123' };
const THROTTLED = /Muitas tentativas de acesso\. Aguarde 1[45] minutos e tente novamente\./;
const CHECKOUT_LIMITED =
  'Muitas tentativas de compra em pouco tempo. Aguarde um minuto e tente de novo.';

// The server trusts X-Forwarded-For from loopback (TRUST_PROXY's default): each request says
// which client address it comes from.
describe.runIf(TEST_DATABASE_URL)('rate limits with two instances on one PostgreSQL', () => {
  const name = uniqueDatabaseName('vitrine_limits');
  let servers: TestServer[] = [];
  /** The i-th request of a burst goes to one instance, the next to the other. */
  const post = (i: number, path: string, fields: Record<string, string>, address: string) =>
    new Visitor(servers[i % 2]!.url, { address }).post(path, fields);

  beforeAll(async () => {
    const url = await createDatabase(TEST_DATABASE_URL!, name);
    const env = { DATABASE_URL: url, CHECKOUT_RATE_LIMIT: '3' };
    // One after the other: the first creates the tables and the sample store.
    servers = [await startServer({ env })];
    servers.push(await startServer({ env }));
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await dropDatabase(TEST_DATABASE_URL!, name);
  });

  it('checks at most 5 of 30 wrong setup codes sent at once from one address to both', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(
          i,
          '/admin/login',
          { intent: 'create-admin', setupCode: 'AAAAA-BBBBB-CCCCC', ...ADMIN },
          '198.51.100.7',
        ),
      ),
    );
    expect(tally(answers)).toEqual({ 409: 5, 429: 25 });
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(visibleText(refused.text)).toMatch(THROTTLED);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);

    // The code either instance printed works from another address.
    const code = /"setupCode":"([A-Z0-9-]+)"/.exec(servers[1]!.output())![1]!;
    const created = await post(
      0,
      '/admin/login',
      { intent: 'create-admin', setupCode: code, ...ADMIN },
      '203.0.113.1',
    );
    expect(created.status).toBe(303);
  });

  it('checks at most 5 of 30 wrong passwords for one e-mail from one address, across both', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(
          i,
          '/admin/login',
          { intent: 'sign-in', email: ADMIN.email, password: `tentativa-${i}` },
          '198.51.100.8',
        ),
      ),
    );
    expect(tally(answers)).toEqual({ 401: 5, 429: 25 });
    expect(visibleText(answers.find((answer) => answer.status === 429)!.text)).toMatch(THROTTLED);
    // Locked at that address, even for the right password.
    const there = await post(1, '/admin/login', { intent: 'sign-in', ...ADMIN }, '198.51.100.8');
    expect(there.status).toBe(429);
  });

  it("signs the admin in from the admin's address during a burst of 200 from 20 others", async () => {
    const burst = Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(
          i,
          '/admin/login',
          { intent: 'sign-in', email: ADMIN.email, password: `chute-${i}` },
          `192.0.2.${i % 20}`,
        ),
      ),
    );
    const mine = post(1, '/admin/login', { intent: 'sign-in', ...ADMIN }, '203.0.113.1');
    const [answers, signedIn] = await Promise.all([burst, mine]);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/admin');
    // Each of the 20 addresses had its 5 checks, whichever instance it reached.
    expect(tally(answers)).toEqual({ 401: 100, 429: 100 });
    // A hundred scrypt checks on two shared cores.
  }, 180_000);

  it('holds the checkout limit (CHECKOUT_RATE_LIMIT=3) across both, with a pt-BR 429', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(i, '/checkout.data', { customerCpf: '123' }, '198.51.100.9'),
      ),
    );
    expect(tally(answers)).toEqual({ 400: 3, 429: 7 });
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.text).toContain(CHECKOUT_LIMITED);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('logged each failure and lock-out at warn with the e-mail, never the password', () => {
    const output = servers.map((server) => server.output()).join('\n');
    expect(output).toMatch(
      /"level":40[^\n]*"email":"gerente@loja\.com\.br"[^\n]*Admin sign-in failed/,
    );
    expect(output).toMatch(/"level":40[^\n]*"email":"gerente@loja\.com\.br"[^\n]*refused/);
    expect(output).not.toContain('tentativa-');
    expect(output).not.toContain(ADMIN.password);
    expect(output).not.toMatch(/"level":50/);
  });
});
