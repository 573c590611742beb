import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { adminSetupCodes, adminUsers, sessions } from '~/db/schema';
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
  SIGN_IN_LIMITS,
  SIGN_IN_MESSAGES,
  startSession,
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

  it('locks an address out after too many wrong codes, saying so (the page answers 429)', async () => {
    const code = await issueSetupCode(db());
    const attempt = (setupCode: string) =>
      createFirstAdmin(db(), { ...ADMIN, setupCode, ip: '203.0.113.9' });
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) {
      expect(await attempt('XXXXX-XXXXX-XXXXX')).toEqual({
        ok: false,
        error: SIGN_IN_MESSAGES.badSetupCode,
      });
    }
    expect(await attempt(code!)).toEqual({
      ok: false,
      error: SIGN_IN_MESSAGES.throttled,
      throttled: true,
    });
    expect(SIGN_IN_MESSAGES.throttled).toContain('Aguarde 15 minutos');
    expect(await db().select().from(adminUsers)).toEqual([]);
  });
});
