import { createHash, randomBytes } from 'node:crypto';

import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { hashPassword } from './password.server';
import { adminPasswordResets, adminUsers, sessions } from './schema';

/** A reset link works for an hour after it was asked for. */
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
// Used and expired requests stay a day, so their links can say why they no longer work.
const KEEP_MS = 24 * 60 * 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const byEmail = (email: string) => eq(sql`lower(${adminUsers.email})`, email.toLowerCase());

/**
 * 'Esqueci minha senha' for an e-mail: a request valid for an hour when an active admin has it,
 * its id for the e-mail (queued by the caller in the same transaction); null when no active
 * admin has that e-mail, which the caller must not tell apart in its answer.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  now = new Date(),
): Promise<string | null> {
  const [admin] = await db
    .select({ id: adminUsers.id })
    .from(adminUsers)
    .where(and(byEmail(email), eq(adminUsers.isActive, true)))
    .limit(1);
  if (!admin) return null;
  // Old requests go as new ones come, with no job of their own.
  await db
    .delete(adminPasswordResets)
    .where(lt(adminPasswordResets.expiresAt, new Date(now.getTime() - KEEP_MS)));
  const [created] = await db
    .insert(adminPasswordResets)
    .values({ adminUserId: admin.id, expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MS) })
    .returning({ id: adminPasswordResets.id });
  return created!.id;
}

export interface PasswordResetMail {
  token: string;
  email: string;
  fullName: string;
  expiresAt: Date;
}

/**
 * The token for a request's e-mail, made as it is sent: only its hash is kept, and a retried
 * e-mail gets a new token (the one in the message that goes out is the one that works). Null
 * when the request was used, expired or its admin deactivated meanwhile: nothing to send.
 */
export async function issuePasswordResetToken(
  db: Db,
  resetId: string,
  now = new Date(),
): Promise<PasswordResetMail | null> {
  const token = randomBytes(32).toString('base64url');
  const [issued] = await db
    .update(adminPasswordResets)
    .set({ tokenHash: hashToken(token) })
    .where(
      and(
        eq(adminPasswordResets.id, resetId),
        isNull(adminPasswordResets.usedAt),
        gt(adminPasswordResets.expiresAt, now),
      ),
    )
    .returning({
      adminUserId: adminPasswordResets.adminUserId,
      expiresAt: adminPasswordResets.expiresAt,
    });
  if (!issued) return null;
  const [admin] = await db
    .select({ email: adminUsers.email, fullName: adminUsers.fullName })
    .from(adminUsers)
    .where(and(eq(adminUsers.id, issued.adminUserId), eq(adminUsers.isActive, true)));
  return admin ? { token, ...admin, expiresAt: issued.expiresAt } : null;
}

export type PasswordResetState = 'valid' | 'used' | 'expired' | 'invalid';

function stateOf(
  row: { usedAt: Date | null; expiresAt: Date; isActive: boolean } | undefined,
  now: Date,
): PasswordResetState {
  if (!row || !row.isActive) return 'invalid';
  if (row.usedAt) return 'used';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'valid';
}

function findByToken(db: Db, token: string) {
  return db
    .select({
      id: adminPasswordResets.id,
      adminUserId: adminPasswordResets.adminUserId,
      usedAt: adminPasswordResets.usedAt,
      expiresAt: adminPasswordResets.expiresAt,
      isActive: adminUsers.isActive,
      email: adminUsers.email,
    })
    .from(adminPasswordResets)
    .innerJoin(adminUsers, eq(adminUsers.id, adminPasswordResets.adminUserId))
    .where(eq(adminPasswordResets.tokenHash, hashToken(token)))
    .limit(1);
}

/** What a reset link's token is now; the e-mail it resets while it is valid (for the form). */
export async function checkPasswordResetToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ state: PasswordResetState; email?: string }> {
  if (token.length < 20 || token.length > 100) return { state: 'invalid' };
  const [row] = await findByToken(db, token);
  const state = stateOf(row, now);
  return state === 'valid' ? { state, email: row!.email } : { state };
}

export type PasswordResetResult =
  { ok: true; adminUserId: string } | { ok: false; state: Exclude<PasswordResetState, 'valid'> };

/**
 * Sets a new password with a reset link's token, once: the token is marked used, the admin's
 * other reset links stop working and every session of theirs ends (whoever knew the old
 * password is signed out), all in one transaction under the request's row lock, so the same
 * link sent twice at once sets one password.
 */
export async function resetPasswordWithToken(
  db: Db,
  input: { token: string; newPassword: string },
  now = new Date(),
): Promise<PasswordResetResult> {
  if (input.token.length < 20 || input.token.length > 100) return { ok: false, state: 'invalid' };
  // scrypt's time is spent before the lock is taken.
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx): Promise<PasswordResetResult> => {
    const [row] = await findByToken(tx, input.token).for('update', { of: adminPasswordResets });
    const state = stateOf(row, now);
    if (state !== 'valid') return { ok: false, state };
    const { adminUserId } = row!;
    await tx
      .update(adminUsers)
      .set({ passwordHash, updatedAt: now })
      .where(eq(adminUsers.id, adminUserId));
    // This link and any other of theirs still open.
    await tx
      .update(adminPasswordResets)
      .set({ usedAt: now })
      .where(
        and(eq(adminPasswordResets.adminUserId, adminUserId), isNull(adminPasswordResets.usedAt)),
      );
    await tx.delete(sessions).where(eq(sessions.adminUserId, adminUserId));
    return { ok: true, adminUserId };
  });
}

/**
 * `npm run admin:reset-password`: a new password for the admin with this e-mail, from the
 * server's terminal. Every session of theirs ends and their reset links stop working. False
 * when no admin has that e-mail.
 */
export async function setAdminPassword(
  db: Db,
  input: { email: string; newPassword: string },
): Promise<boolean> {
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    const [admin] = await tx
      .update(adminUsers)
      .set({ passwordHash, updatedAt: new Date() })
      .where(byEmail(input.email))
      .returning({ id: adminUsers.id });
    if (!admin) return false;
    await tx
      .update(adminPasswordResets)
      .set({ usedAt: new Date() })
      .where(
        and(eq(adminPasswordResets.adminUserId, admin.id), isNull(adminPasswordResets.usedAt)),
      );
    await tx.delete(sessions).where(eq(sessions.adminUserId, admin.id));
    return true;
  });
}
