import { and, count, desc, eq, ne, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { hashPassword, verifyPassword } from './password.server';
import { adminUsers, sessions } from './schema';
import { beginPasswordCheck, endPasswordCheck, type Throttled } from './sign-in.server';

export const ADMIN_MESSAGES = {
  emailTaken: 'Já existe um administrador com este e-mail.',
  notFound: 'Administrador não encontrado.',
  notYourself: 'Você não pode desativar a sua própria conta.',
  lastActive: 'Não é possível desativar o último administrador ativo.',
  wrongPassword: 'A senha atual está incorreta.',
} as const;

export interface AdminUserRow {
  id: string;
  email: string;
  fullName: string;
  role: 'admin';
  isActive: boolean;
  createdAt: Date;
}

/** Newest first, as SPEC's users table lists them. */
export function listAdmins(db: Db): Promise<AdminUserRow[]> {
  return db
    .select({
      id: adminUsers.id,
      email: adminUsers.email,
      fullName: adminUsers.fullName,
      role: adminUsers.role,
      isActive: adminUsers.isActive,
      createdAt: adminUsers.createdAt,
    })
    .from(adminUsers)
    .orderBy(desc(adminUsers.createdAt), desc(adminUsers.id));
}

export type AdminChange =
  { ok: true; id: string } | { ok: false; error: string; throttled?: false } | Throttled;

export async function createAdmin(
  db: Db,
  input: { email: string; fullName: string; password: string },
): Promise<AdminChange> {
  const passwordHash = await hashPassword(input.password);
  const [created] = await db
    .insert(adminUsers)
    .values({ email: input.email.toLowerCase(), fullName: input.fullName, passwordHash })
    .onConflictDoNothing()
    .returning({ id: adminUsers.id });
  return created ? { ok: true, id: created.id } : { ok: false, error: ADMIN_MESSAGES.emailTaken };
}

/**
 * Activates or deactivates an admin. Nobody deactivates themselves, and the last active admin
 * stays (the store would be locked out). A deactivated admin's sessions end at once.
 */
export async function setAdminActive(
  db: Db,
  input: { actorId: string; adminUserId: string; active: boolean },
): Promise<AdminChange> {
  if (!input.active && input.actorId === input.adminUserId) {
    return { ok: false, error: ADMIN_MESSAGES.notYourself };
  }
  return db.transaction(async (tx) => {
    // One lock for every change of who is active, so two admins deactivating each other at
    // the same moment cannot leave none.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vitrine:admin-active'))`);
    if (!input.active) {
      const [others] = await tx
        .select({ n: count() })
        .from(adminUsers)
        .where(and(eq(adminUsers.isActive, true), ne(adminUsers.id, input.adminUserId)));
      if ((others?.n ?? 0) === 0) return { ok: false, error: ADMIN_MESSAGES.lastActive } as const;
    }
    const [updated] = await tx
      .update(adminUsers)
      .set({ isActive: input.active, updatedAt: new Date() })
      .where(eq(adminUsers.id, input.adminUserId))
      .returning({ id: adminUsers.id });
    if (!updated) return { ok: false, error: ADMIN_MESSAGES.notFound } as const;
    if (!input.active) await tx.delete(sessions).where(eq(sessions.adminUserId, updated.id));
    return { ok: true, id: updated.id } as const;
  });
}

/**
 * Changes an admin's own password after checking the current one. Every other session of theirs
 * ends (someone who knew the old password is signed out); `keepSessionId`, the session making
 * the change (its hashed id), stays.
 */
export async function changePassword(
  db: Db,
  input: {
    adminUserId: string;
    currentPassword: string;
    newPassword: string;
    keepSessionId?: string | null;
    /** The client's address: guesses at the current password count as sign-in failures. */
    ip: string;
  },
): Promise<AdminChange> {
  const [admin] = await db
    .select({ email: adminUsers.email, passwordHash: adminUsers.passwordHash })
    .from(adminUsers)
    .where(eq(adminUsers.id, input.adminUserId));
  if (!admin) return { ok: false, error: ADMIN_MESSAGES.notFound };
  // A stolen session must not become a way to guess the password (or to spend scrypt's CPU).
  const who = { email: admin.email, ip: input.ip };
  const refused = await beginPasswordCheck(db, who);
  if (refused) return refused;
  const valid = await verifyPassword(input.currentPassword, admin.passwordHash);
  await endPasswordCheck(db, who, { ok: valid, what: 'Admin password change (current password)' });
  if (!valid) return { ok: false, error: ADMIN_MESSAGES.wrongPassword };
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(adminUsers)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(adminUsers.id, input.adminUserId));
    await tx
      .delete(sessions)
      .where(
        and(
          eq(sessions.adminUserId, input.adminUserId),
          input.keepSessionId ? ne(sessions.id, input.keepSessionId) : undefined,
        ),
      );
  });
  return { ok: true, id: input.adminUserId };
}
