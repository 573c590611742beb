import type { Db } from '~/db/database.server';
import type { Env } from '~/lib/env.server';
import { canonicalOrigin } from '~/lib/canonical-origin';
import { logger } from '~/lib/logger.server';
import { issuePasswordResetToken, requestPasswordReset } from '~/modules/auth/index.server';
import { enqueue, type OutboxHandler } from '~/modules/jobs/index.server';
import { passwordResetEmail } from '~/modules/notifications';
import { type MailSending } from '~/modules/notifications/index.server';
import {
  ANY_ADDRESS,
  hitRateLimit,
  OWNER_PROOF,
  RATE_LIMITS,
} from '~/modules/rate-limits/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';

import { emailStoreOf, sendStoreMail } from './mail-sending.server';

/** The outbox topic of the 'Redefinir a senha' e-mail. */
export const PASSWORD_RESET_TOPIC = 'email.password-reset';

/** Where the e-mail's link leads: the token travels as `chave`. */
export const PASSWORD_RESET_PATH = '/admin/redefinir-senha';

/** The payload: the request's id (its token is made when the e-mail is sent). */
export interface PasswordResetPayload {
  resetId: string;
}

export type ForgotPasswordResult =
  { ok: true } | { ok: false; throttled: true; retryAfterSeconds: number };

/**
 * 'Esqueci minha senha': when an active admin has this e-mail, a request valid for an hour and,
 * in the same transaction, its e-mail in the outbox. The caller answers the same whether or not
 * one was made: the work is one look-up either way, and the e-mail goes after the answer.
 * Limited per client address (told, with a 429) and per e-mail from anywhere (not told: past it
 * the address simply gets no more e-mails this hour).
 *
 * A stranger can spend the e-mail's hour, yet cannot keep its owner out: each request spent
 * e-mails the owner a link valid for an hour, as long as the count lasts, so the newest one
 * still works when the count is forgotten. And the admin signed in as that e-mail (forgot the
 * password, still signed in somewhere) has an allowance of its own (OWNER_PROOF).
 */
export async function askForPasswordReset(
  db: Db,
  input: {
    email: string;
    ip: string;
    /** The e-mail of the admin signed in on this request, if any. */
    signedInAs?: string | null;
  },
): Promise<ForgotPasswordResult> {
  const byAddress = await hitRateLimit(db, RATE_LIMITS.passwordResetForAddress, {
    address: input.ip,
  });
  if (!byAddress.allowed) {
    logger.warn(
      { ip: input.ip, retryAfterSeconds: byAddress.retryAfterSeconds },
      'Password reset refused: too many requests from this address',
    );
    return { ok: false, throttled: true, retryAfterSeconds: byAddress.retryAfterSeconds };
  }
  const owner = input.signedInAs?.toLowerCase() === input.email.toLowerCase();
  const byAccount = await hitRateLimit(db, RATE_LIMITS.passwordResetForAccount, {
    address: owner ? OWNER_PROOF : ANY_ADDRESS,
    account: input.email.toLowerCase(),
  });
  if (!byAccount.allowed) {
    logger.warn(
      { email: input.email, ip: input.ip },
      'Password reset not sent: too many for this e-mail',
    );
    return { ok: true };
  }
  const resetId = await db.transaction(async (tx) => {
    const id = await requestPasswordReset(tx, input.email);
    if (id) await enqueue(tx, PASSWORD_RESET_TOPIC, { resetId: id } satisfies PasswordResetPayload);
    return id;
  });
  logger.info(
    { email: input.email, ip: input.ip, sent: resetId !== null },
    'Password reset asked for',
  );
  return { ok: true };
}

function resetIdOf(payload: unknown): string {
  const resetId = (payload as { resetId?: unknown } | null)?.resetId;
  if (typeof resetId !== 'string') throw new Error('Outbox payload without a reset id');
  return resetId;
}

/** The background worker's handler for PASSWORD_RESET_TOPIC. */
export function passwordResetHandlers({
  env,
  db,
  settings,
  mailSending,
}: {
  env: Env;
  db: Db;
  settings: SettingsStore;
  /** The SMTP server and sender in force, read for every message. */
  mailSending: () => Promise<MailSending>;
}): Record<string, OutboxHandler> {
  return {
    [PASSWORD_RESET_TOPIC]: async (payload) => {
      const resetId = resetIdOf(payload);
      // A retry makes a new token: the e-mail that goes out is the one whose link works.
      const mail = await issuePasswordResetToken(db, resetId);
      if (!mail) {
        logger.info({ resetId }, 'Password reset used, expired or gone before its e-mail ran');
        return;
      }
      const store = await settings.get();
      // The admin's own origin when it has one (ADR 019), else the store's, as other e-mails.
      const origin =
        env.ADMIN_URL ??
        env.PUBLIC_URL ??
        canonicalOrigin(store.canonical_url) ??
        `http://localhost:${env.PORT}`;
      const message = passwordResetEmail(
        {
          email: mail.email,
          fullName: mail.fullName,
          resetUrl: `${origin}${PASSWORD_RESET_PATH}?${new URLSearchParams({ chave: mail.token })}`,
          expiresAt: mail.expiresAt,
        },
        emailStoreOf(store),
      );
      await sendStoreMail(
        { dataDir: env.DATA_DIR, storeName: store.store_name, mailSending },
        { to: mail.email, ...message },
      );
    },
  };
}
