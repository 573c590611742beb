import { createHash, randomBytes } from 'node:crypto';

import { and, count, eq, gt, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';

import { spendDecoyHash, hashPassword, verifyPassword } from './password.server';
import { adminSetupCodes, adminUsers, loginAttempts } from './schema';

/** Failed attempts allowed in a window, per client address and per e-mail. */
export const SIGN_IN_LIMITS = { perIp: 20, perEmail: 5, windowMs: 15 * 60 * 1000 } as const;

export const SIGN_IN_MESSAGES = {
  // The same words whether the e-mail exists, the password is wrong or the admin is inactive.
  wrong: 'E-mail ou senha incorretos.',
  throttled: `Muitas tentativas de acesso. Aguarde ${SIGN_IN_LIMITS.windowMs / 60_000} minutos e tente novamente.`,
  badSetupCode:
    'Código de configuração inválido ou expirado. Veja o código no registro do servidor.',
  adminExists: 'Já existe um administrador. Entre com o seu e-mail e senha.',
} as const;

type AttemptKey = { key: string; limit: number };

function attemptKeys(ip: string, email: string): AttemptKey[] {
  return [
    { key: `ip:${ip}`, limit: SIGN_IN_LIMITS.perIp },
    { key: `email:${email.toLowerCase()}`, limit: SIGN_IN_LIMITS.perEmail },
  ];
}

async function isThrottled(db: Db, keys: AttemptKey[]): Promise<boolean> {
  const since = new Date(Date.now() - SIGN_IN_LIMITS.windowMs);
  for (const { key, limit } of keys) {
    const [row] = await db
      .select({ failures: loginAttempts.failures })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.windowStartedAt, since)));
    if (row && row.failures >= limit) return true;
  }
  return false;
}

/** Counts a failure for each key; a window that has passed starts again at one. */
async function recordFailure(db: Db, keys: AttemptKey[]): Promise<void> {
  const windowStart = sql`now() - make_interval(secs => ${SIGN_IN_LIMITS.windowMs / 1000})`;
  for (const { key } of keys) {
    await db
      .insert(loginAttempts)
      .values({ key, failures: 1, windowStartedAt: new Date() })
      .onConflictDoUpdate({
        target: loginAttempts.key,
        set: {
          failures: sql`case when ${loginAttempts.windowStartedAt} > ${windowStart} then ${loginAttempts.failures} + 1 else 1 end`,
          windowStartedAt: sql`case when ${loginAttempts.windowStartedAt} > ${windowStart} then ${loginAttempts.windowStartedAt} else now() end`,
        },
      });
  }
  // Old windows are forgotten as new failures come.
  await db.delete(loginAttempts).where(sql`${loginAttempts.windowStartedAt} < ${windowStart}`);
}

export type SignInResult =
  { ok: true; adminUserId: string } | { ok: false; error: string; throttled: boolean };

/**
 * Checks an e-mail and password. Too many failures from one address or for one e-mail lock
 * sign-in for the window, whether or not that e-mail has an account.
 */
export async function checkCredentials(
  db: Db,
  input: { email: string; password: string; ip: string },
): Promise<SignInResult> {
  const keys = attemptKeys(input.ip, input.email);
  if (await isThrottled(db, keys)) {
    return { ok: false, error: SIGN_IN_MESSAGES.throttled, throttled: true };
  }
  const [admin] = await db
    .select({
      id: adminUsers.id,
      passwordHash: adminUsers.passwordHash,
      isActive: adminUsers.isActive,
    })
    .from(adminUsers)
    .where(eq(sql`lower(${adminUsers.email})`, input.email.toLowerCase()))
    .limit(1);
  const valid = admin
    ? await verifyPassword(input.password, admin.passwordHash)
    : (await spendDecoyHash(input.password), false);
  if (!admin || !valid || !admin.isActive) {
    await recordFailure(db, keys);
    return { ok: false, error: SIGN_IN_MESSAGES.wrong, throttled: false };
  }
  // A success clears the e-mail's count (not the address's: one office shares an address).
  await db.delete(loginAttempts).where(eq(loginAttempts.key, keys[1]!.key));
  return { ok: true, adminUserId: admin.id };
}

export async function hasAnyAdmin(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(adminUsers);
  return (row?.n ?? 0) > 0;
}

const SETUP_CODE_TTL_MS = 24 * 60 * 60 * 1000;

function hashCode(code: string): string {
  // Typed by hand from a log: case, spaces and dashes do not matter.
  return createHash('sha256')
    .update(code.toUpperCase().replace(/[^A-Z0-9]/g, ''))
    .digest('hex');
}

/**
 * With no admin yet, makes a one-time code for the 'Criar administrador' form and returns it for
 * the server log; null when an admin exists (or, with `onlyIfNone`, while a code is still valid).
 * Each instance makes its own at start; any of them works.
 */
export async function issueSetupCode(
  db: Db,
  options: {
    onlyIfNone?: boolean;
    /** The caller has just found no admin (the login page asks first), so this need not ask. */
    knownNoAdmin?: boolean;
  } = {},
): Promise<string | null> {
  if (!options.knownNoAdmin && (await hasAnyAdmin(db))) return null;
  if (options.onlyIfNone) {
    const [valid] = await db
      .select({ n: count() })
      .from(adminSetupCodes)
      .where(gt(adminSetupCodes.expiresAt, new Date()));
    if ((valid?.n ?? 0) > 0) return null;
  }
  // 15 characters from an alphabet without look-alikes (no 0/O, 1/I/L): about 75 bits.
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(15);
  const chars = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
  const code = `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10)}`;
  await db
    .insert(adminSetupCodes)
    .values({ codeHash: hashCode(code), expiresAt: new Date(Date.now() + SETUP_CODE_TTL_MS) });
  return code;
}

export type CreateAdminResult =
  { ok: true; adminUserId: string } | { ok: false; error: string; throttled?: true };

/**
 * Creates the first admin with a setup code. Two forms sent at once create one admin: the check
 * and the insert run under one lock.
 */
export async function createFirstAdmin(
  db: Db,
  input: { setupCode: string; email: string; fullName: string; password: string; ip: string },
): Promise<CreateAdminResult> {
  const keys = [{ key: `setup:${input.ip}`, limit: SIGN_IN_LIMITS.perEmail }];
  if (await isThrottled(db, keys)) {
    return { ok: false, error: SIGN_IN_MESSAGES.throttled, throttled: true };
  }
  const passwordHash = await hashPassword(input.password);
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vitrine:first-admin'))`);
    const [existing] = await tx.select({ n: count() }).from(adminUsers);
    if ((existing?.n ?? 0) > 0) return { ok: false, error: SIGN_IN_MESSAGES.adminExists } as const;
    const [code] = await tx
      .select({ codeHash: adminSetupCodes.codeHash })
      .from(adminSetupCodes)
      .where(
        and(
          eq(adminSetupCodes.codeHash, hashCode(input.setupCode)),
          gt(adminSetupCodes.expiresAt, new Date()),
        ),
      );
    if (!code) return { ok: false, error: SIGN_IN_MESSAGES.badSetupCode } as const;
    const [admin] = await tx
      .insert(adminUsers)
      .values({ email: input.email, fullName: input.fullName, passwordHash })
      .returning({ id: adminUsers.id });
    await tx.delete(adminSetupCodes);
    return { ok: true, adminUserId: admin!.id } as const;
  });
  if (!result.ok && result.error === SIGN_IN_MESSAGES.badSetupCode) await recordFailure(db, keys);
  return result;
}

export function logSetupCode(code: string): void {
  logger.warn(
    { setupCode: code },
    `No admin yet: open /admin/login and create one with the setup code ${code} ` +
      '(or run npm run admin:create)',
  );
}
