import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { asc, eq } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';

import type { Db } from '~/db/database.server';
import { adminPasswordResets, adminUsers, outbox, sessions } from '~/db/schema';
import {
  askForPasswordReset,
  PASSWORD_RESET_TOPIC,
  passwordResetHandlers,
} from '~/flows/admin-password-reset.server';
import { parseEnv } from '~/lib/env.server';
import {
  checkCredentials,
  checkPasswordResetToken,
  createAdmin,
  issuePasswordResetToken,
  PASSWORD_RESET_TTL_MS,
  resetPasswordWithToken,
  setAdminActive,
  setAdminPassword,
} from '~/modules/auth/index.server';
import { RATE_LIMITS } from '~/modules/rate-limits/index.server';
import { defaultSettings } from '~/modules/settings';
import type { SettingsStore } from '~/modules/settings/index.server';

import { describeDb } from '../support/db';

const ADMIN = {
  email: 'gerente@loja.com.br',
  fullName: 'Gerente da Loja',
  password: 'senha-antiga-1',
};
const NEW_PASSWORD = 'senha-nova-123';
const HOUR = 60 * 60_000;

const resetJobs = (db: Db) =>
  db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(eq(outbox.topic, PASSWORD_RESET_TOPIC))
    .orderBy(asc(outbox.id));

/** 'Esqueci minha senha' for the test admin, then the token its e-mail would carry. */
async function tokenFor(db: Db, ip = '203.0.113.7'): Promise<string> {
  await askForPasswordReset(db, { email: ADMIN.email, ip });
  const jobs = await resetJobs(db);
  const { resetId } = jobs.at(-1)!.payload as { resetId: string };
  const mail = await issuePasswordResetToken(db, resetId);
  if (!mail) throw new Error('No token issued');
  return mail.token;
}

async function startSessionRow(db: Db, adminUserId: string, id: string) {
  await db.insert(sessions).values({ id, adminUserId, expiresAt: new Date(Date.now() + HOUR) });
}

describeDb('admin password reset', ({ db }) => {
  let adminId = '';
  beforeEach(async () => {
    const created = await createAdmin(db(), ADMIN);
    if (!created.ok) throw new Error(created.error);
    adminId = created.id;
  });

  it('answers the same for an unknown e-mail, and queues an e-mail only for an admin', async () => {
    const known = await askForPasswordReset(db(), { email: ADMIN.email, ip: '203.0.113.7' });
    const unknown = await askForPasswordReset(db(), {
      email: 'ninguem@loja.com.br',
      ip: '203.0.113.7',
    });
    expect(known).toEqual({ ok: true });
    expect(unknown).toEqual(known);
    expect(await resetJobs(db())).toHaveLength(1);
    const rows = await db().select().from(adminPasswordResets);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.adminUserId).toBe(adminId);
    // Valid for one hour from the request.
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBeGreaterThan(
      HOUR - 5_000,
    );
    expect(rows[0]!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(HOUR);
  });

  it('sends nothing to a deactivated admin', async () => {
    const other = await createAdmin(db(), { ...ADMIN, email: 'outro@loja.com.br' });
    if (!other.ok) throw new Error(other.error);
    await setAdminActive(db(), { actorId: other.id, adminUserId: adminId, active: false });
    expect(await askForPasswordReset(db(), { email: ADMIN.email, ip: '203.0.113.7' })).toEqual({
      ok: true,
    });
    expect(await resetJobs(db())).toHaveLength(0);
  });

  it('keeps only the hash of the token, which opens the form for its admin', async () => {
    const token = await tokenFor(db());
    const [row] = await db().select().from(adminPasswordResets);
    expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await db().select().from(adminPasswordResets))).not.toContain(token);
    expect(JSON.stringify(await db().select().from(outbox))).not.toContain(token);
    expect(await checkPasswordResetToken(db(), token)).toEqual({
      state: 'valid',
      email: ADMIN.email,
    });
    expect(await checkPasswordResetToken(db(), `${token.slice(0, -2)}xy`)).toEqual({
      state: 'invalid',
    });
    expect(await checkPasswordResetToken(db(), '')).toEqual({ state: 'invalid' });
  });

  it('sets the new password once, ends every session and says the link was used', async () => {
    const token = await tokenFor(db());
    await startSessionRow(db(), adminId, 'sessao-1');
    await startSessionRow(db(), adminId, 'sessao-2');

    const [first, second] = await Promise.all([
      resetPasswordWithToken(db(), { token, newPassword: NEW_PASSWORD }),
      resetPasswordWithToken(db(), { token, newPassword: 'outra-senha-999' }),
    ]);
    expect([first, second]).toContainEqual({ ok: true, adminUserId: adminId });
    expect([first, second]).toContainEqual({ ok: false, state: 'used' });
    const winner = first!.ok ? NEW_PASSWORD : 'outra-senha-999';

    expect(await db().select().from(sessions)).toEqual([]);
    expect(
      await checkCredentials(db(), { email: ADMIN.email, password: winner, ip: '::1' }),
    ).toMatchObject({ ok: true });
    expect(
      await checkCredentials(db(), { email: ADMIN.email, password: ADMIN.password, ip: '::1' }),
    ).toMatchObject({ ok: false });
    expect(await checkPasswordResetToken(db(), token)).toEqual({ state: 'used' });
    expect(await resetPasswordWithToken(db(), { token, newPassword: NEW_PASSWORD })).toEqual({
      ok: false,
      state: 'used',
    });
  });

  it('closes the other open links of the admin when one is used', async () => {
    const older = await tokenFor(db());
    const newer = await tokenFor(db());
    expect(
      await resetPasswordWithToken(db(), { token: newer, newPassword: NEW_PASSWORD }),
    ).toMatchObject({ ok: true });
    expect(await checkPasswordResetToken(db(), older)).toEqual({ state: 'used' });
  });

  it('refuses a link past its hour, and issues no token for it', async () => {
    const token = await tokenFor(db());
    await db()
      .update(adminPasswordResets)
      .set({ expiresAt: new Date(Date.now() - 1_000) });
    expect(await checkPasswordResetToken(db(), token)).toEqual({ state: 'expired' });
    expect(await resetPasswordWithToken(db(), { token, newPassword: NEW_PASSWORD })).toEqual({
      ok: false,
      state: 'expired',
    });
    const [job] = await resetJobs(db());
    expect(
      await issuePasswordResetToken(db(), (job!.payload as { resetId: string }).resetId),
    ).toBeNull();
    // Still the old password.
    expect(
      await checkCredentials(db(), { email: ADMIN.email, password: ADMIN.password, ip: '::1' }),
    ).toMatchObject({ ok: true });
  });

  it('limits requests per address (told) and per e-mail from anywhere (not told)', async () => {
    for (let i = 0; i < RATE_LIMITS.passwordResetForAddress.limit; i++) {
      expect(
        await askForPasswordReset(db(), { email: `x${i}@loja.com.br`, ip: '198.51.100.1' }),
      ).toEqual({ ok: true });
    }
    expect(
      await askForPasswordReset(db(), { email: ADMIN.email, ip: '198.51.100.1' }),
    ).toMatchObject({ ok: false, throttled: true, retryAfterSeconds: expect.any(Number) });
    expect(await resetJobs(db())).toHaveLength(0);

    const limit = RATE_LIMITS.passwordResetForAccount.limit;
    for (let i = 0; i < limit + 2; i++) {
      expect(
        await askForPasswordReset(db(), { email: ADMIN.email, ip: `192.0.2.${i + 1}` }),
      ).toEqual({ ok: true });
    }
    expect(await resetJobs(db())).toHaveLength(limit);
  });

  it("lets no stranger keep the admin from a link: signed in, the admin has an allowance of their own, and the stranger's requests each mailed one that outlasts the count", async () => {
    const limit = RATE_LIMITS.passwordResetForAccount.limit;
    for (let i = 0; i < limit; i++) {
      await askForPasswordReset(db(), { email: ADMIN.email, ip: `192.0.2.${i + 1}` });
    }
    expect(await resetJobs(db())).toHaveLength(limit);
    // Signed in as another admin, or not at all: the e-mail's hour is spent.
    await askForPasswordReset(db(), {
      email: ADMIN.email,
      ip: '203.0.113.9',
      signedInAs: 'outro@loja.com.br',
    });
    expect(await resetJobs(db())).toHaveLength(limit);
    // The admin still signed in as this e-mail somewhere (the password forgotten) gets one.
    expect(
      await askForPasswordReset(db(), {
        email: ADMIN.email,
        ip: '203.0.113.9',
        signedInAs: ADMIN.email.toUpperCase(),
      }),
    ).toEqual({ ok: true });
    expect(await resetJobs(db())).toHaveLength(limit + 1);
    // The newest link a stranger's request mailed works until the count is forgotten.
    expect(PASSWORD_RESET_TTL_MS).toBeGreaterThanOrEqual(
      RATE_LIMITS.passwordResetForAccount.windowMs,
    );
  });

  it('e-mails a link to the admin page that carries the token', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-reset-mail-'));
    try {
      await askForPasswordReset(db(), { email: ADMIN.email, ip: '203.0.113.7' });
      const [job] = await resetJobs(db());
      const env = parseEnv({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PUBLIC_URL: 'https://loja.test',
      });
      const settings = {
        get: async () => ({ ...defaultSettings(), store_name: 'Loja Teste' }),
      } as unknown as SettingsStore;
      const handler = passwordResetHandlers({
        env,
        db: db(),
        settings,
        mailSending: async () => ({}),
      })[PASSWORD_RESET_TOPIC]!;
      await handler(job!.payload, new AbortController().signal);
      const names = await readdir(join(dataDir, 'mail'));
      expect(names).toHaveLength(1);
      const mail = (await readFile(join(dataDir, 'mail', names[0]!), 'utf8')).replace(
        /=\r?\n/g,
        '',
      );
      expect(mail).toContain(`To: ${ADMIN.email}`);
      expect(mail).toContain('Subject: Redefinir a senha do painel da loja Loja Teste');
      const link = /Criar uma nova senha: (https:\/\/\S+)/.exec(mail)![1]!.replaceAll('=3D', '=');
      const url = new URL(link);
      expect(`${url.origin}${url.pathname}`).toBe('https://loja.test/admin/redefinir-senha');
      expect(await checkPasswordResetToken(db(), url.searchParams.get('chave')!)).toEqual({
        state: 'valid',
        email: ADMIN.email,
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('sets a password from the terminal, by e-mail, ending sessions; an unknown e-mail changes nothing', async () => {
    await startSessionRow(db(), adminId, 'sessao-1');
    const token = await tokenFor(db());
    expect(
      await setAdminPassword(db(), { email: 'ninguem@loja.com.br', newPassword: NEW_PASSWORD }),
    ).toBe(false);
    expect(await db().select().from(sessions)).toHaveLength(1);
    expect(
      await setAdminPassword(db(), { email: 'Gerente@Loja.com.br', newPassword: NEW_PASSWORD }),
    ).toBe(true);
    expect(await db().select().from(sessions)).toEqual([]);
    expect(await checkPasswordResetToken(db(), token)).toEqual({ state: 'used' });
    const [admin] = await db().select().from(adminUsers);
    expect(admin!.passwordHash).not.toContain(NEW_PASSWORD);
    expect(
      await checkCredentials(db(), { email: ADMIN.email, password: NEW_PASSWORD, ip: '::1' }),
    ).toMatchObject({ ok: true });
  });
});
