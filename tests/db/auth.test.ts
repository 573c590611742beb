import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { adminSetupCodes, adminUsers, rateLimits, sessions } from '~/db/schema';
import {
  checkCredentials,
  createAdmin,
  createFirstAdmin,
  endSession,
  findSignedInAdmin,
  hashSessionToken,
  issueSetupCode,
  SESSION_IDLE_MS,
  SESSION_MAX_AGE_MS,
  sessionCookie,
  setAdminActive,
  SIGN_IN_MESSAGES,
  startSession,
  type SignInResult,
} from '~/modules/auth/index.server';
import { hashPassword, verifyPassword } from '~/modules/auth/password.server';

import { describeDb } from '../support/db';

const ADMIN = { email: 'ana@loja.com.br', fullName: 'Ana', password: 'senha-forte-1' };

/** A request carrying the session that a Set-Cookie header gave. */
async function requestWith(setCookie: string): Promise<Request> {
  const token: string = await sessionCookie.parse(setCookie.split(';')[0]!);
  return new Request('http://loja.test/admin', {
    headers: { Cookie: (await sessionCookie.serialize(token)).split(';')[0]! },
  });
}

it('hashes passwords with scrypt and a salt of their own', async () => {
  const [a, b] = [await hashPassword('segredo-123'), await hashPassword('segredo-123')];
  expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
  expect(a).not.toBe(b);
  expect(await verifyPassword('segredo-123', a)).toBe(true);
  expect(await verifyPassword('segredo-124', a)).toBe(false);
  expect(await verifyPassword('segredo-123', 'md5$abc')).toBe(false);
});

describeDb('admin sessions', ({ db }) => {
  it('open the admin until signed out, and slide their end forward with use', async () => {
    const created = await createAdmin(db(), ADMIN);
    if (!created.ok) throw new Error(created.error);
    const setCookie = await startSession(db(), new Request('http://loja.test/'), created.id);
    const request = await requestWith(setCookie);
    expect(await findSignedInAdmin(db(), request.headers.get('Cookie'))).toMatchObject({
      email: ADMIN.email,
    });

    // An hour from its end, a request pushes the end a whole idle period away again.
    const id = hashSessionToken(await sessionCookie.parse(setCookie.split(';')[0]!));
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(sessions.id, id));
    await findSignedInAdmin(db(), request.headers.get('Cookie'));
    const [slid] = await db().select().from(sessions).where(eq(sessions.id, id));
    expect(slid!.expiresAt.getTime()).toBeGreaterThan(Date.now() + SESSION_IDLE_MS - 60_000);

    // Idle past its end: gone.
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(sessions.id, id));
    expect(await findSignedInAdmin(db(), request.headers.get('Cookie'))).toBeNull();

    const again = await requestWith(await startSession(db(), request, created.id));
    expect(await findSignedInAdmin(db(), again.headers.get('Cookie'))).not.toBeNull();
    expect(await endSession(db(), again)).toMatch(/Max-Age=0/);
    expect(await findSignedInAdmin(db(), again.headers.get('Cookie'))).toBeNull();
  });

  it('end a week after sign-in, however recently used', async () => {
    const created = await createAdmin(db(), ADMIN);
    if (!created.ok) throw new Error(created.error);
    const setCookie = await startSession(db(), new Request('http://loja.test/'), created.id);
    const request = await requestWith(setCookie);
    const id = hashSessionToken(await sessionCookie.parse(setCookie.split(';')[0]!));
    const startedAgo = async (ms: number) => {
      // Used a minute ago: the idle deadline is almost 12 hours away.
      await db()
        .update(sessions)
        .set({
          createdAt: new Date(Date.now() - ms),
          expiresAt: new Date(Date.now() + SESSION_IDLE_MS - 60_000),
        })
        .where(eq(sessions.id, id));
      return findSignedInAdmin(db(), request.headers.get('Cookie'));
    };
    expect(await startedAgo(SESSION_MAX_AGE_MS - 60_000)).not.toBeNull();
    expect(await startedAgo(SESSION_MAX_AGE_MS + 60_000)).toBeNull();

    // Such a session is cleared away when the next one starts.
    await startSession(db(), new Request('http://loja.test/'), created.id);
    expect(await db().select().from(sessions).where(eq(sessions.id, id))).toEqual([]);
  });

  it('are written to a __Host- cookie over https, and read from it', async () => {
    const created = await createAdmin(db(), ADMIN);
    if (!created.ok) throw new Error(created.error);
    const setCookie = await startSession(db(), new Request('https://loja.test/'), created.id);
    expect(setCookie).toMatch(
      /^__Host-vitrine_session=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    const cookie = setCookie.split(';')[0]!;
    expect(await findSignedInAdmin(db(), cookie)).toMatchObject({ email: ADMIN.email });
    const signOut = new Request('https://loja.test/admin/logout', { headers: { Cookie: cookie } });
    expect(await endSession(db(), signOut)).toMatch(/^__Host-vitrine_session=; .*Max-Age=0/);
    expect(await findSignedInAdmin(db(), cookie)).toBeNull();
  });

  it('end for an admin who is deactivated, at once', async () => {
    const first = await createAdmin(db(), ADMIN);
    const second = await createAdmin(db(), { ...ADMIN, email: 'bia@loja.com.br' });
    if (!first.ok || !second.ok) throw new Error('admins not created');
    const request = await requestWith(
      await startSession(db(), new Request('http://loja.test/'), second.id),
    );
    expect(await findSignedInAdmin(db(), request.headers.get('Cookie'))).not.toBeNull();
    expect(
      await setAdminActive(db(), { actorId: first.id, adminUserId: second.id, active: false }),
    ).toEqual({ ok: true, id: second.id });
    expect(await findSignedInAdmin(db(), request.headers.get('Cookie'))).toBeNull();
    // Nor can they sign in again, and the answer gives nothing away.
    expect(
      await checkCredentials(db(), { email: 'bia@loja.com.br', password: ADMIN.password, ip: '1' }),
    ).toEqual({ ok: false, error: SIGN_IN_MESSAGES.wrong, throttled: false });
  });
});

describeDb('the first admin', ({ db }) => {
  it('needs a valid, unexpired setup code, once; two forms at once make one admin', async () => {
    const code = await issueSetupCode(db());
    expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(await issueSetupCode(db(), { onlyIfNone: true })).toBeNull();

    const wrong = await createFirstAdmin(db(), {
      ...ADMIN,
      setupCode: 'XXXXX-XXXXX-XXXXX',
      ip: '1',
    });
    expect(wrong).toEqual({ ok: false, error: SIGN_IN_MESSAGES.badSetupCode });

    const results = await Promise.all(
      ['ana', 'bia', 'caio'].map((name) =>
        createFirstAdmin(db(), {
          ...ADMIN,
          email: `${name}@loja.com.br`,
          // Typed from the log with other spacing and case.
          setupCode: ` ${code!.toLowerCase().replaceAll('-', ' ')} `,
          ip: name,
        }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([
      { ok: false, error: SIGN_IN_MESSAGES.adminExists },
      { ok: false, error: SIGN_IN_MESSAGES.adminExists },
    ]);
    expect(await db().select().from(adminUsers)).toHaveLength(1);
    expect(await db().select().from(adminSetupCodes)).toEqual([]);
    expect(await issueSetupCode(db())).toBeNull();
  });

  it('refuses an expired code', async () => {
    const code = await issueSetupCode(db());
    await db()
      .update(adminSetupCodes)
      .set({ expiresAt: new Date(Date.now() - 1_000) });
    expect(await createFirstAdmin(db(), { ...ADMIN, setupCode: code!, ip: '1' })).toEqual({
      ok: false,
      error: SIGN_IN_MESSAGES.badSetupCode,
    });
    // A visit to the login page then prints a new one.
    expect(await issueSetupCode(db(), { onlyIfNone: true })).toMatch(/^[A-Z2-9-]{17}$/);
  });

  it('checks at most 5 of 30 wrong codes sent at once from one address, and says how long to wait', async () => {
    const code = await issueSetupCode(db());
    const attempt = (setupCode: string, ip = '203.0.113.9') =>
      createFirstAdmin(db(), { ...ADMIN, setupCode, ip });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => attempt('XXXXX-XXXXX-XXXXX')),
    );
    const checked = answers.filter((answer) => !answer.ok && !answer.throttled);
    expect(checked).toHaveLength(5);
    expect(checked[0]).toEqual({ ok: false, error: SIGN_IN_MESSAGES.badSetupCode });
    const refused = answers.filter((answer) => !answer.ok && answer.throttled);
    expect(refused).toHaveLength(25);
    expect(refused[0]).toMatchObject({
      error: 'Muitas tentativas de acesso. Aguarde 15 minutos e tente novamente.',
      retryAfterSeconds: expect.any(Number),
    });
    // Even the right code waits there; another address is not held back.
    expect(await attempt(code!)).toMatchObject({ ok: false, throttled: true });
    expect(await db().select().from(adminUsers)).toEqual([]);
    expect(await attempt(code!, '198.51.100.1')).toMatchObject({ ok: true });
  });
});

describeDb('signing in', ({ db }) => {
  const ip = '203.0.113.20';
  const wrong = (email: string, address: string, i = 0) =>
    checkCredentials(db(), { email, password: `tentativa-${i}`, ip: address });

  it('checks at most 5 of 30 wrong passwords sent at once for one e-mail from one address', async () => {
    await createAdmin(db(), ADMIN);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => wrong(ADMIN.email, '198.51.100.7', i)),
    );
    expect(answers.filter((answer) => !answer.ok && !answer.throttled)).toHaveLength(5);
    const refused = answers.filter((answer) => !answer.ok && answer.throttled);
    expect(refused).toHaveLength(25);
    expect(refused[0]!.error).toBe(SIGN_IN_MESSAGES.throttled(900));
    expect(SIGN_IN_MESSAGES.throttled(900)).toBe(
      'Muitas tentativas de acesso. Aguarde 15 minutos e tente novamente.',
    );
  });

  it("lets the right password in from the admin's address during a burst from 20 others", async () => {
    await createAdmin(db(), ADMIN);
    const burst = Array.from({ length: 200 }, (_, i) =>
      wrong(ADMIN.email, `198.51.100.${i % 20}`, i),
    );
    const mine = checkCredentials(db(), { ...ADMIN, ip });
    const [answers, signedIn] = await Promise.all([Promise.all(burst), mine]);
    expect(signedIn.ok).toBe(true);
    // Each of the 20 addresses had its 5 checks.
    expect(answers.filter((answer) => !answer.ok && !answer.throttled)).toHaveLength(100);
    expect((await checkCredentials(db(), { ...ADMIN, ip })).ok).toBe(true);
    // A hundred scrypt checks on shared cores.
  }, 120_000);

  it('doubles the lock at each failure after one, and a success forgets the count', async () => {
    await createAdmin(db(), ADMIN);
    for (let i = 0; i < 4; i++) expect(isThrottled(await wrong(ADMIN.email, ip, i))).toBe(false);
    // A success clears the e-mail's count at this address: five more tries.
    expect((await checkCredentials(db(), { ...ADMIN, ip })).ok).toBe(true);
    for (let i = 0; i < 5; i++) expect(isThrottled(await wrong(ADMIN.email, ip, i))).toBe(false);
    expect(await wrong(ADMIN.email, ip)).toMatchObject({ throttled: true });
    // The lock passes: one more try, whose failure locks for twice as long.
    await endLocks(db());
    expect(await wrong(ADMIN.email, ip)).toMatchObject({ throttled: false });
    const twice = await wrong(ADMIN.email, ip);
    expect(twice).toMatchObject({
      throttled: true,
      error: 'Muitas tentativas de acesso. Aguarde 30 minutos e tente novamente.',
    });
    await endLocks(db());
    expect(await wrong(ADMIN.email, ip)).toMatchObject({ throttled: false });
    expect(await wrong(ADMIN.email, ip)).toMatchObject({
      error: 'Muitas tentativas de acesso. Aguarde 1 hora e tente novamente.',
    });
    // After the lock, the right password gets in and starts the count again.
    await endLocks(db());
    expect((await checkCredentials(db(), { ...ADMIN, ip })).ok).toBe(true);
    for (let i = 0; i < 5; i++) expect(isThrottled(await wrong(ADMIN.email, ip, i))).toBe(false);
  });

  it('locks an address after 20 failures across e-mails; its successes do not count', async () => {
    await createAdmin(db(), ADMIN);
    for (let i = 0; i < 19; i++) {
      expect(isThrottled(await wrong(`pessoa${i}@loja.com.br`, ip))).toBe(false);
      expect((await checkCredentials(db(), { ...ADMIN, ip })).ok).toBe(true);
    }
    expect(isThrottled(await wrong('pessoa19@loja.com.br', ip))).toBe(false);
    expect(await checkCredentials(db(), { ...ADMIN, ip })).toMatchObject({ throttled: true });
    expect((await checkCredentials(db(), { ...ADMIN, ip: '198.51.100.99' })).ok).toBe(true);
    // About forty password hashes, slow by design: a few seconds on a quiet machine, 19-31 s with
    // both cores taken by other work (a CPU burner, browser tests beside it).
  }, 90_000);
});

function isThrottled(result: SignInResult): boolean {
  return !result.ok && result.throttled;
}

/** Moves every lock into the past, as if its time had passed. */
async function endLocks(db: Db) {
  await db
    .update(rateLimits)
    .set({ blockedUntil: sql`now() - interval '1 second'` })
    .where(sql`${rateLimits.blockedUntil} is not null`);
}
