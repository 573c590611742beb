import type { Db } from '~/db/database.server';
import type { Env } from '~/lib/env.server';
import { logger } from '~/lib/logger.server';
import { enqueue, type OutboxHandler } from '~/modules/jobs/index.server';
import { shopperCodeEmail } from '~/modules/notifications';
import { type MailSending } from '~/modules/notifications/index.server';
import {
  ANY_ADDRESS,
  hitRateLimit,
  RATE_LIMITS,
  waitText,
} from '~/modules/rate-limits/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';
import { ACCOUNT_MESSAGES } from '~/modules/shoppers';
import {
  checkShopperCode,
  ensureShopper,
  issueShopperCode,
  requestShopperCode,
  startShopperSession,
  type ShopperCodePurpose,
} from '~/modules/shoppers/index.server';

import { emailStoreOf, sendStoreMail } from './mail-sending.server';

/** The outbox topic of the six-digit code's e-mail. */
export const SHOPPER_CODE_TOPIC = 'email.shopper-code';

/** The payload: the code's id (its digits are made when the e-mail is sent). */
export interface ShopperCodePayload {
  codeId: string;
}

export type AskCodeResult =
  { ok: true } | { ok: false; message: string; retryAfterSeconds: number };

/**
 * A new code for the e-mail and, in the same transaction, its e-mail in the outbox. Limited per
 * client address and per e-mail from anywhere, both told: a shopper waiting for a code must
 * know why none comes. The e-mail's own limit is what bounds guessing (each code has five tries).
 */
export async function askForShopperCode(
  db: Db,
  input: { email: string; ip: string; purpose: ShopperCodePurpose },
  now: Date,
): Promise<AskCodeResult> {
  for (const [policy, subject] of [
    [RATE_LIMITS.shopperCodeForAddress, { address: input.ip }],
    [RATE_LIMITS.shopperCodeForAccount, { address: ANY_ADDRESS, account: input.email }],
  ] as const) {
    const verdict = await hitRateLimit(db, policy, subject);
    if (!verdict.allowed) {
      logger.warn({ ip: input.ip, limit: policy.name }, 'Shopper code refused: too many asked for');
      return {
        ok: false,
        message: ACCOUNT_MESSAGES.throttled(waitText(verdict.retryAfterSeconds)),
        retryAfterSeconds: verdict.retryAfterSeconds,
      };
    }
  }
  await db.transaction(async (tx) => {
    const codeId = await requestShopperCode(tx, input.email, input.purpose, now);
    await enqueue(tx, SHOPPER_CODE_TOPIC, { codeId } satisfies ShopperCodePayload);
  });
  return { ok: true };
}

export type SignInResult =
  { ok: true; setCookie: string } | { ok: false; message: string; spent: boolean };

/**
 * '/conta/entrar': the code typed for the e-mail. Right, the shopper (made on the first sign-in)
 * is signed in on this browser; every order placed with the e-mail, as a guest too, is theirs.
 */
export async function signInWithCode(
  db: Db,
  request: Request,
  input: { email: string; code: string },
  now: Date,
): Promise<SignInResult> {
  const check = await checkShopperCode(db, { ...input, purpose: 'sign-in' }, now);
  if (check !== 'ok') {
    logger.warn({ result: check }, 'Shopper sign-in code refused');
    return check === 'wrong'
      ? { ok: false, message: ACCOUNT_MESSAGES.wrongCode, spent: false }
      : { ok: false, message: ACCOUNT_MESSAGES.codeSpent, spent: true };
  }
  const setCookie = await db.transaction(async (tx) => {
    const shopperId = await ensureShopper(tx, input.email);
    return startShopperSession(tx, request, shopperId, now);
  });
  return { ok: true, setCookie };
}

function codeIdOf(payload: unknown): string {
  const codeId = (payload as { codeId?: unknown } | null)?.codeId;
  if (typeof codeId !== 'string') throw new Error('Outbox payload without a code id');
  return codeId;
}

/** The background worker's handler for SHOPPER_CODE_TOPIC. */
export function shopperCodeHandlers({
  env,
  db,
  settings,
  mailSending,
}: {
  env: Env;
  db: Db;
  settings: SettingsStore;
  mailSending: () => Promise<MailSending>;
}): Record<string, OutboxHandler> {
  return {
    [SHOPPER_CODE_TOPIC]: async (payload) => {
      const codeId = codeIdOf(payload);
      // A retry makes new digits: the e-mail that goes out holds the ones that work.
      const mail = await issueShopperCode(db, codeId, new Date());
      if (!mail) {
        logger.info({ codeId }, 'Shopper code used, replaced or expired before its e-mail ran');
        return;
      }
      const store = await settings.get();
      const message = shopperCodeEmail(mail, emailStoreOf(store));
      await sendStoreMail(
        { dataDir: env.DATA_DIR, storeName: store.store_name, mailSending },
        { to: mail.email, ...message },
      );
    },
  };
}
