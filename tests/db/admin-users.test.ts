import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

import { adminUsers, sessions } from '~/db/schema';
import {
  ADMIN_MESSAGES,
  changePassword,
  checkCredentials,
  createAdmin,
  currentSessionId,
  findSignedInAdmin,
  listAdmins,
  setAdminActive,
  startSession,
} from '~/modules/auth/index.server';

import { action as usersAction } from '~/routes/admin/users';

import { describeDb } from '../support/db';

describeDb('admin users', ({ db }) => {
  async function admin(email: string, password = 'senha-forte-123') {
    const created = await createAdmin(db(), { email, fullName: email.split('@')[0]!, password });
    if (!created.ok) throw new Error(created.error);
    return created.id;
  }
  /** Signs in like the login page does; returns a request carrying the session cookie. */
  async function signedInRequest(adminUserId: string): Promise<Request> {
    const cookie = await startSession(db(), new Request('http://loja.test/admin'), adminUserId);
    return new Request('http://loja.test/admin', { headers: { Cookie: cookie.split(';')[0]! } });
  }

  it('creates admins, refusing an e-mail already used in any capitals', async () => {
    const ana = await admin('ana@loja.com.br');

    expect(
      await createAdmin(db(), {
        email: 'ANA@Loja.com.br',
        fullName: 'Outra Ana',
        password: 'outra-senha-123',
      }),
    ).toEqual({ ok: false, error: ADMIN_MESSAGES.emailTaken });

    const listed = await listAdmins(db());
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: ana, email: 'ana@loja.com.br', isActive: true });
  });

  it('lists admins newest first', async () => {
    const first = await admin('primeiro@loja.com.br');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await admin('segundo@loja.com.br');
    expect((await listAdmins(db())).map((a) => a.id)).toEqual([second, first]);
  });

  it('never lets an admin deactivate themselves', async () => {
    const ana = await admin('ana@loja.com.br');
    await admin('bia@loja.com.br');

    expect(await setAdminActive(db(), { actorId: ana, adminUserId: ana, active: false })).toEqual({
      ok: false,
      error: ADMIN_MESSAGES.notYourself,
    });
    const [row] = await db().select().from(adminUsers).where(eq(adminUsers.id, ana));
    expect(row!.isActive).toBe(true);
  });

  /** The Usuários screen's action, posted by the signed-in `actorId`. */
  async function post(actorId: string, fields: Record<string, string>) {
    const request = new Request('http://loja.test/admin/users', {
      method: 'POST',
      body: new URLSearchParams(fields),
    });
    const context = {
      db: db(),
      clientIp: '127.0.0.1',
      admin: async () => ({ id: actorId }),
    };
    const answer = await usersAction({ request, context, params: {} } as unknown as Parameters<
      typeof usersAction
    >[0]);
    if (answer instanceof Response) return { status: answer.status, data: undefined };
    const result = answer as { data: { toast?: { message: string } }; init?: { status?: number } };
    return { status: result.init?.status ?? 200, data: result.data };
  }

  it('compares ids as the database writes them: no admin deactivates themselves in capitals', async () => {
    const ana = await admin('ana@loja.com.br');
    await admin('bia@loja.com.br');
    const answer = await post(ana, {
      intent: 'set-active',
      id: ana.toUpperCase(),
      active: 'false',
    });
    expect(answer).toMatchObject({
      status: 409,
      data: {
        toast: { message: `Erro ao atualizar status do usuário: ${ADMIN_MESSAGES.notYourself}` },
      },
    });
    const [row] = await db().select().from(adminUsers).where(eq(adminUsers.id, ana));
    expect(row!.isActive).toBe(true);
  });

  it('answers an intent named after what every object has in pt-BR, never with its code', async () => {
    const ana = await admin('ana@loja.com.br');
    for (const intent of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      const answer = await post(ana, { intent, id: ana, active: 'false' });
      expect(answer.status).toBe(400);
      const message = answer.data?.toast?.message ?? '';
      expect(message).toMatch(/^Erro ao salvar: /);
      expect(message).not.toMatch(/function|native code|\[object/);
    }
  });

  it('keeps the last active admin', async () => {
    const ana = await admin('ana@loja.com.br');
    const bia = await admin('bia@loja.com.br');
    const caio = await admin('caio@loja.com.br');
    await setAdminActive(db(), { actorId: ana, adminUserId: caio, active: false });
    await setAdminActive(db(), { actorId: ana, adminUserId: bia, active: false });
    // Only Ana is active now; she cannot be deactivated by an (inactive) colleague's old page.
    expect(await setAdminActive(db(), { actorId: bia, adminUserId: ana, active: false })).toEqual({
      ok: false,
      error: ADMIN_MESSAGES.lastActive,
    });

    // Two admins deactivating each other at the same moment leave one of them active.
    await setAdminActive(db(), { actorId: ana, adminUserId: bia, active: true });
    const both = await Promise.all([
      setAdminActive(db(), { actorId: ana, adminUserId: bia, active: false }),
      setAdminActive(db(), { actorId: bia, adminUserId: ana, active: false }),
    ]);
    expect(both.filter((result) => result.ok)).toHaveLength(1);
    const active = await db().select().from(adminUsers).where(eq(adminUsers.isActive, true));
    expect(active).toHaveLength(1);
  });

  it('signs a deactivated admin out at once, and lets them back in once reactivated', async () => {
    const ana = await admin('ana@loja.com.br');
    const bia = await admin('bia@loja.com.br', 'senha-da-bia-1');
    const biaRequest = await signedInRequest(bia);
    expect(await findSignedInAdmin(db(), biaRequest.headers.get('Cookie'))).toMatchObject({
      id: bia,
    });

    expect(await setAdminActive(db(), { actorId: ana, adminUserId: bia, active: false })).toEqual({
      ok: true,
      id: bia,
    });

    expect(await findSignedInAdmin(db(), biaRequest.headers.get('Cookie'))).toBeNull();
    expect(await db().select().from(sessions).where(eq(sessions.adminUserId, bia))).toEqual([]);
    const refused = await checkCredentials(db(), {
      email: 'bia@loja.com.br',
      password: 'senha-da-bia-1',
      ip: '203.0.113.9',
    });
    expect(refused.ok).toBe(false);

    await setAdminActive(db(), { actorId: ana, adminUserId: bia, active: true });
    expect(
      await checkCredentials(db(), {
        email: 'bia@loja.com.br',
        password: 'senha-da-bia-1',
        ip: '203.0.113.9',
      }),
    ).toEqual({ ok: true, adminUserId: bia });
  });

  it('answers not found for an admin that does not exist', async () => {
    const ana = await admin('ana@loja.com.br');
    const gone = '5a3b1e00-0000-4000-8000-000000000999';
    expect(await setAdminActive(db(), { actorId: ana, adminUserId: gone, active: true })).toEqual({
      ok: false,
      error: ADMIN_MESSAGES.notFound,
    });
  });

  it('changes the password only with the current one, ending the other sessions', async () => {
    const ana = await admin('ana@loja.com.br', 'senha-antiga-1');
    const here = await signedInRequest(ana);
    const elsewhere = await signedInRequest(ana);
    const hereId = await currentSessionId(here);
    expect(hereId).toMatch(/^[0-9a-f]{64}$/);

    expect(
      await changePassword(db(), {
        adminUserId: ana,
        currentPassword: 'senha-errada',
        newPassword: 'senha-nova-123',
        keepSessionId: hereId,
        ip: '203.0.113.10',
      }),
    ).toEqual({ ok: false, error: ADMIN_MESSAGES.wrongPassword });
    expect(await findSignedInAdmin(db(), elsewhere.headers.get('Cookie'))).toMatchObject({
      id: ana,
    });

    expect(
      await changePassword(db(), {
        adminUserId: ana,
        currentPassword: 'senha-antiga-1',
        newPassword: 'senha-nova-123',
        keepSessionId: hereId,
        ip: '203.0.113.10',
      }),
    ).toEqual({ ok: true, id: ana });

    expect(await findSignedInAdmin(db(), here.headers.get('Cookie'))).toMatchObject({ id: ana });
    expect(await findSignedInAdmin(db(), elsewhere.headers.get('Cookie'))).toBeNull();
    const ip = '203.0.113.10';
    expect(
      (await checkCredentials(db(), { email: 'ana@loja.com.br', password: 'senha-antiga-1', ip }))
        .ok,
    ).toBe(false);
    expect(
      await checkCredentials(db(), { email: 'ana@loja.com.br', password: 'senha-nova-123', ip }),
    ).toEqual({ ok: true, adminUserId: ana });
  });

  it('counts wrong current passwords as sign-in failures from that address only', async () => {
    const ana = await admin('ana@loja.com.br', 'senha-antiga-1');
    const change = (currentPassword: string, ip: string) =>
      changePassword(db(), {
        adminUserId: ana,
        currentPassword,
        newPassword: 'senha-nova-123',
        ip,
      });
    // Sent at once, as a script with a stolen session would: five are checked, no more.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => change(`chute-${i}`, '198.51.100.4')),
    );
    expect(answers.filter((answer) => answer.ok === false && !answer.throttled)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.ok === false && answer.throttled);
    expect(refused).toHaveLength(7);
    expect(refused[0]).toMatchObject({
      error: expect.stringMatching(/^Muitas tentativas de acesso\. Aguarde 1[45] minutos/),
    });
    // The right password is refused there too, and so is signing in from there...
    expect(await change('senha-antiga-1', '198.51.100.4')).toMatchObject({ throttled: true });
    expect(
      await checkCredentials(db(), {
        email: 'ana@loja.com.br',
        password: 'senha-antiga-1',
        ip: '198.51.100.4',
      }),
    ).toMatchObject({ ok: false, throttled: true });
    // ...but not from the admin's own address.
    expect(await change('senha-antiga-1', '203.0.113.10')).toEqual({ ok: true, id: ana });
  });
});
