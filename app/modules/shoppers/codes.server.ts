import { createHash, randomInt } from 'node:crypto';

import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { CODE_TRIES, CODE_TTL_MS } from './account';
import { shopperCodes, type ShopperCodePurpose } from './schema';

// Used and expired codes stay a day (for the export's and the logs' sake), then go.
const KEEP_MS = 24 * 60 * 60_000;

// Salted with the row's id: the same six digits hash differently in every row.
const hashCode = (id: string, code: string) =>
  createHash('sha256').update(`${id}:${code}`).digest('hex');

/**
 * A new code for this e-mail and purpose, valid CODE_TTL_MS from `now`; its id for the e-mail
 * (queued by the caller in the same transaction). The e-mail's earlier codes of the same purpose
 * stop working: only the newest one in the inbox counts.
 */
export async function requestShopperCode(
  db: Db,
  email: string,
  purpose: ShopperCodePurpose,
  now: Date,
): Promise<string> {
  await db
    .delete(shopperCodes)
    .where(lt(shopperCodes.expiresAt, new Date(now.getTime() - KEEP_MS)));
  await db
    .update(shopperCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(shopperCodes.email, email),
        eq(shopperCodes.purpose, purpose),
        isNull(shopperCodes.usedAt),
      ),
    );
  const [created] = await db
    .insert(shopperCodes)
    .values({ email, purpose, expiresAt: new Date(now.getTime() + CODE_TTL_MS) })
    .returning({ id: shopperCodes.id });
  return created!.id;
}

export interface ShopperCodeMail {
  code: string;
  email: string;
  purpose: ShopperCodePurpose;
  expiresAt: Date;
}

/**
 * The six digits for a code's e-mail, made as it is sent: only their hash is kept, and a
 * retried e-mail gets new digits (the ones in the message that goes out are the ones that work).
 * Null when the code was used, replaced or expired meanwhile: nothing to send.
 */
export async function issueShopperCode(
  db: Db,
  codeId: string,
  now: Date,
): Promise<ShopperCodeMail | null> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const [issued] = await db
    .update(shopperCodes)
    .set({ codeHash: hashCode(codeId, code) })
    .where(
      and(
        eq(shopperCodes.id, codeId),
        isNull(shopperCodes.usedAt),
        gt(shopperCodes.expiresAt, now),
      ),
    )
    .returning({
      email: shopperCodes.email,
      purpose: shopperCodes.purpose,
      expiresAt: shopperCodes.expiresAt,
    });
  return issued ? { code, ...issued } : null;
}

/** 'ok' once per code; 'wrong' while tries are left; 'spent' when none can work any more. */
export type CodeCheck = 'ok' | 'wrong' | 'spent';

/**
 * Checks a code typed for an e-mail against its newest live code of that purpose. Each check
 * spends a try with one UPDATE … RETURNING that only matches while tries are left: PostgreSQL
 * re-reads the row under its lock, so checks sent at once never spend more than CODE_TRIES,
 * and the (CODE_TRIES + 1)-th and later are refused even with the right digits. A right code is
 * consumed by another conditional UPDATE: of two sent at once, one signs in.
 */
export async function checkShopperCode(
  db: Db,
  input: { email: string; purpose: ShopperCodePurpose; code: string },
  now: Date,
): Promise<CodeCheck> {
  const newest = db
    .select({ id: shopperCodes.id })
    .from(shopperCodes)
    .where(
      and(
        eq(shopperCodes.email, input.email),
        eq(shopperCodes.purpose, input.purpose),
        isNull(shopperCodes.usedAt),
        gt(shopperCodes.expiresAt, now),
      ),
    )
    .orderBy(desc(shopperCodes.createdAt))
    .limit(1);
  const [tried] = await db
    .update(shopperCodes)
    .set({ tries: sql`${shopperCodes.tries} + 1` })
    .where(
      and(
        eq(shopperCodes.id, sql`(${newest})`),
        lt(shopperCodes.tries, CODE_TRIES),
        isNull(shopperCodes.usedAt),
      ),
    )
    .returning({ id: shopperCodes.id, codeHash: shopperCodes.codeHash });
  if (!tried) return 'spent';
  if (tried.codeHash === null || tried.codeHash !== hashCode(tried.id, input.code)) return 'wrong';
  const [used] = await db
    .update(shopperCodes)
    .set({ usedAt: now })
    .where(and(eq(shopperCodes.id, tried.id), isNull(shopperCodes.usedAt)))
    .returning({ id: shopperCodes.id });
  return used ? 'ok' : 'spent';
}
