import { createHash, randomBytes } from 'node:crypto';

import { and, eq, gt, lt } from 'drizzle-orm';
import { createCookie } from 'react-router';

import type { Db } from '~/db/database.server';

import { shoppers, shopperSessions } from './schema';

/** A shopper stays signed in on a browser this long after proving the e-mail (no sliding). */
export const SHOPPER_SESSION_MS = 90 * 24 * 60 * 60_000;

/**
 * Apart from the staff's `vitrine_session` (modules/auth): another name, another table, another
 * lifetime. The cookie carries a random token, the table only its SHA-256. Over https the name
 * takes the `__Host-` prefix, as the staff's does, so no sibling host can plant one.
 */
const options = {
  path: '/',
  sameSite: 'lax' as const,
  httpOnly: true,
  maxAge: SHOPPER_SESSION_MS / 1000,
};
const plainCookie = createCookie('vitrine_conta', options);
const hostCookie = createCookie('__Host-vitrine_conta', { ...options, secure: true });

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function cookieFor(request: Request) {
  return new URL(request.url).protocol === 'https:' ? hostCookie : plainCookie;
}

async function readToken(request: Request): Promise<string | null> {
  const header = request.headers.get('Cookie');
  for (const cookie of [hostCookie, plainCookie]) {
    let token: unknown;
    try {
      token = await cookie.parse(header);
    } catch {
      continue;
    }
    if (typeof token === 'string' && token.length >= 32 && token.length <= 256) return token;
  }
  return null;
}

export interface SignedInShopper {
  id: string;
  email: string;
}

/** The shopper whose unexpired session the request's cookie carries, if any. */
export async function findSignedInShopper(
  db: Db,
  request: Request,
  now: Date,
): Promise<SignedInShopper | null> {
  const token = await readToken(request);
  if (!token) return null;
  const [found] = await db
    .select({ id: shoppers.id, email: shoppers.email })
    .from(shopperSessions)
    .innerJoin(shoppers, eq(shoppers.id, shopperSessions.shopperId))
    .where(and(eq(shopperSessions.id, hashToken(token)), gt(shopperSessions.expiresAt, now)))
    .limit(1);
  return found ?? null;
}

/**
 * Signs this browser in as the shopper: a session the browser already had ends first (a token
 * planted before sign-in never becomes a signed-in one). Returns the Set-Cookie header.
 */
export async function startShopperSession(
  db: Db,
  request: Request,
  shopperId: string,
  now: Date,
): Promise<string> {
  const previous = await readToken(request);
  const token = randomBytes(32).toString('base64url');
  if (previous) await db.delete(shopperSessions).where(eq(shopperSessions.id, hashToken(previous)));
  // Ended sessions go away as new ones come, with no job of their own.
  await db.delete(shopperSessions).where(lt(shopperSessions.expiresAt, now));
  await db.insert(shopperSessions).values({
    id: hashToken(token),
    shopperId,
    expiresAt: new Date(now.getTime() + SHOPPER_SESSION_MS),
    createdAt: now,
  });
  return cookieFor(request).serialize(token);
}

/** 'Sair': ends this browser's session; the Set-Cookie header that clears its cookie. */
export async function endShopperSession(db: Db, request: Request): Promise<string> {
  const token = await readToken(request);
  if (token) await db.delete(shopperSessions).where(eq(shopperSessions.id, hashToken(token)));
  return cookieFor(request).serialize('', { maxAge: 0 });
}

/** The cookie that clears a session (after the account is deleted). */
export function clearShopperCookie(request: Request): Promise<string> {
  return cookieFor(request).serialize('', { maxAge: 0 });
}
