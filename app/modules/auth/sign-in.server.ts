import { createHash, randomBytes } from 'node:crypto';

import { and, count, eq, gt, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { logger } from '~/lib/logger.server';
import { boxed } from '~/lib/terminal-box';
import {
  clearRateLimit,
  hitRateLimit,
  RATE_LIMITS,
  refundRateLimit,
  waitText,
} from '~/modules/rate-limits/index.server';

import { spendDecoyHash, hashPassword, verifyPassword } from './password.server';
import { adminSetupCodes, adminUsers } from './schema';

export const SIGN_IN_MESSAGES = {
  // The same words whether the e-mail exists, the password is wrong or the admin is inactive.
  wrong: 'E-mail ou senha incorretos.',
  throttled: (retryAfterSeconds: number) =>
    `Muitas tentativas de acesso. Aguarde ${waitText(retryAfterSeconds)} e tente novamente.`,
  badSetupCode:
    'Código de configuração inválido ou expirado. Veja o código no registro do servidor.',
  adminExists: 'Já existe um administrador. Entre com o seu e-mail e senha.',
} as const;

/** Refused before any check: too many recent failures. */
export type Throttled = { ok: false; error: string; throttled: true; retryAfterSeconds: number };

function throttled(verdict: { retryAfterSeconds: number }): Throttled {
  const { retryAfterSeconds } = verdict;
  return {
    ok: false,
    error: SIGN_IN_MESSAGES.throttled(retryAfterSeconds),
    throttled: true,
    retryAfterSeconds,
  };
}

/**
 * Counts a password check for an e-mail from an address before it is made, against the
 * e-mail-and-address limit and the address limit; null when it may go on. Only that address's
 * own failures ever lock an e-mail there, so nobody elsewhere can lock an admin out.
 */
export async function beginPasswordCheck(
  db: Db,
  who: { email: string; ip: string },
): Promise<Throttled | null> {
  const account = { address: who.ip, account: who.email.toLowerCase() };
  const address = { address: who.ip };
  const byAccount = await hitRateLimit(db, RATE_LIMITS.passwordForAccount, account);
  if (!byAccount.allowed) {
    logger.warn(
      { email: account.account, ip: who.ip, retryAfterSeconds: byAccount.retryAfterSeconds },
      'Admin password check refused: too many failures for this e-mail from this address',
    );
    return throttled(byAccount);
  }
  const byAddress = await hitRateLimit(db, RATE_LIMITS.passwordForAddress, address);
  if (!byAddress.allowed) {
    // Not a check, so not the e-mail's failure either.
    await refundRateLimit(db, RATE_LIMITS.passwordForAccount, account);
    logger.warn(
      { email: account.account, ip: who.ip, retryAfterSeconds: byAddress.retryAfterSeconds },
      'Admin password check refused: too many failures from this address',
    );
    return throttled(byAddress);
  }
  return null;
}

/** After beginPasswordCheck: a right password clears the e-mail's count at that address. */
export async function endPasswordCheck(
  db: Db,
  who: { email: string; ip: string },
  outcome: { ok: boolean; what: string },
): Promise<void> {
  const email = who.email.toLowerCase();
  if (!outcome.ok) {
    logger.warn({ email, ip: who.ip }, `${outcome.what} failed`);
    return;
  }
  await clearRateLimit(db, RATE_LIMITS.passwordForAccount, { address: who.ip, account: email });
  await refundRateLimit(db, RATE_LIMITS.passwordForAddress, { address: who.ip });
}

export type SignInResult =
  { ok: true; adminUserId: string } | { ok: false; error: string; throttled: false } | Throttled;

/**
 * Checks an e-mail and password, unless this address failed too often lately, for this e-mail
 * or for any (whether or not that e-mail has an account).
 */
export async function checkCredentials(
  db: Db,
  input: { email: string; password: string; ip: string },
): Promise<SignInResult> {
  const refused = await beginPasswordCheck(db, input);
  if (refused) return refused;
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
  const ok = !!admin && valid && admin.isActive;
  await endPasswordCheck(db, input, { ok, what: 'Admin sign-in' });
  if (!ok) return { ok: false, error: SIGN_IN_MESSAGES.wrong, throttled: false };
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
  { ok: true; adminUserId: string } | { ok: false; error: string; throttled?: false } | Throttled;

/**
 * Creates the first admin with a setup code. Two forms sent at once create one admin: the check
 * and the insert run under one lock.
 */
export async function createFirstAdmin(
  db: Db,
  input: { setupCode: string; email: string; fullName: string; password: string; ip: string },
): Promise<CreateAdminResult> {
  const verdict = await hitRateLimit(db, RATE_LIMITS.setupCode, { address: input.ip });
  if (!verdict.allowed) {
    logger.warn(
      { email: input.email, ip: input.ip, retryAfterSeconds: verdict.retryAfterSeconds },
      'Setup code refused: too many failures from this address',
    );
    return throttled(verdict);
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
  if (!result.ok && result.error === SIGN_IN_MESSAGES.badSetupCode) {
    logger.warn({ email: input.email, ip: input.ip }, 'Setup code failed: wrong or expired code');
  }
  return result;
}

/**
 * Tells whoever starts the store how to create its first admin: a JSON log line for the logs,
 * and the same in a box on stderr, where a person reading the terminal finds it.
 */
export function logSetupCode(code: string, loginUrl: string): void {
  logger.warn(
    { setupCode: code },
    `Nenhum administrador ainda: abra ${loginUrl} e crie um com o código de configuração ` +
      `${code} (ou rode npm run admin:create)`,
  );
  process.stderr.write(
    boxed([
      `Código de configuração: ${code}`,
      `Abra ${loginUrl} e crie o primeiro administrador com ele`,
      '(ou rode npm run admin:create). O código vale 24 horas.',
    ]),
  );
}
