import { createHash, randomBytes } from 'node:crypto';

import { and, eq, gt, lt, or } from 'drizzle-orm';
import { createCookie, redirect } from 'react-router';

import type { Db } from '~/db/database.server';

import { adminUsers, sessions } from './schema';

/**
 * The cookie carries a random token; the table keeps only its SHA-256 (see schema.ts). No
 * Max-Age: the server decides when a session ends (SESSION_IDLE_MS without a request,
 * SESSION_MAX_AGE_MS after sign-in). Over plain http it is `vitrine_session` (the adapter adds
 * Secure when a request came over https).
 */
export const sessionCookie = createCookie('vitrine_session', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
});

/**
 * Over https the session is `__Host-vitrine_session`: browsers keep such a cookie only when it
 * is Secure, for Path=/ and without Domain, so no other host (a sibling subdomain) and no plain
 * http page can set or overwrite it.
 */
const hostSessionCookie = createCookie('__Host-vitrine_session', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  secure: true,
});

/** The names a session cookie may have, the `__Host-` one first. */
export const SESSION_COOKIE_NAMES = [hostSessionCookie.name, sessionCookie.name] as const;

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** …and this long after sign-in, however much it is used (a stolen cookie does not last). */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
// Writing the new deadline on every request would make each page a write; once in a while will do.
const TOUCH_AFTER_MS = 5 * 60 * 1000;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface SignedInAdmin {
  id: string;
  email: string;
  fullName: string;
}

/** The cookie this request's session is written to: `__Host-` whenever the request is https. */
function cookieFor(request: Request) {
  return new URL(request.url).protocol === 'https:' ? hostSessionCookie : sessionCookie;
}

async function readToken(request: Request): Promise<string | null> {
  return tokenFrom(request.headers.get('Cookie'));
}

/**
 * The token of the `__Host-` cookie, else of the plain one: sessions started over https before
 * the prefix existed keep working until they end (SESSION_MAX_AGE_MS at most).
 */
async function tokenFrom(cookieHeader: string | null): Promise<string | null> {
  for (const cookie of [hostSessionCookie, sessionCookie]) {
    let token: unknown;
    try {
      token = await cookie.parse(cookieHeader);
    } catch {
      continue;
    }
    if (typeof token === 'string' && token.length >= 32 && token.length <= 256) return token;
  }
  return null;
}

/** The hashed id of the session the request carries (valid or not), to tell it from others. */
export async function currentSessionId(request: Request): Promise<string | null> {
  const token = await readToken(request);
  return token ? hashSessionToken(token) : null;
}

/**
 * The active admin whose unexpired session the Cookie header carries, if any. Each call pushes
 * the session's end further (sliding expiry), at most once every few minutes, but never past
 * SESSION_MAX_AGE_MS from its start, which the row's created_at says. The server asks
 * once per request (the load context's `admin`), before the body is read.
 */
export async function findSignedInAdmin(
  db: Db,
  cookieHeader: string | null,
): Promise<SignedInAdmin | null> {
  const token = await tokenFrom(cookieHeader);
  if (!token) return null;
  const id = hashSessionToken(token);
  const now = Date.now();
  const [found] = await db
    .select({
      id: adminUsers.id,
      email: adminUsers.email,
      fullName: adminUsers.fullName,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(adminUsers, eq(adminUsers.id, sessions.adminUserId))
    .where(
      and(
        eq(sessions.id, id),
        gt(sessions.expiresAt, new Date(now)),
        gt(sessions.createdAt, new Date(now - SESSION_MAX_AGE_MS)),
        eq(adminUsers.isActive, true),
      ),
    )
    .limit(1);
  if (!found) return null;
  if (found.expiresAt.getTime() - now < SESSION_IDLE_MS - TOUCH_AFTER_MS) {
    await db
      .update(sessions)
      .set({ expiresAt: new Date(now + SESSION_IDLE_MS) })
      .where(eq(sessions.id, id));
  }
  return { id: found.id, email: found.email, fullName: found.fullName };
}

/**
 * Starts a session for an admin who has just proved who they are. A session the browser already
 * had is ended first, so a token planted before sign-in never becomes a signed-in one.
 * Returns the Set-Cookie header.
 */
export async function startSession(db: Db, request: Request, adminUserId: string): Promise<string> {
  const previous = await readToken(request);
  const token = randomBytes(32).toString('base64url');
  // A session's times are all this clock's, the one findSignedInAdmin weighs them by, not the
  // database's.
  const now = Date.now();
  await db.transaction(async (tx) => {
    if (previous) await tx.delete(sessions).where(eq(sessions.id, hashSessionToken(previous)));
    // Ended sessions go away as new ones come, with no job of their own.
    await tx
      .delete(sessions)
      .where(
        or(
          lt(sessions.expiresAt, new Date(now)),
          lt(sessions.createdAt, new Date(now - SESSION_MAX_AGE_MS)),
        ),
      );
    await tx.insert(sessions).values({
      id: hashSessionToken(token),
      adminUserId,
      createdAt: new Date(now),
      expiresAt: new Date(now + SESSION_IDLE_MS),
    });
  });
  return cookieFor(request).serialize(token);
}

/** Ends the request's session on the server; returns the Set-Cookie header that clears it. */
export async function endSession(db: Db, request: Request): Promise<string> {
  const token = await readToken(request);
  if (token) await db.delete(sessions).where(eq(sessions.id, hashSessionToken(token)));
  return cookieFor(request).serialize('', { maxAge: 0 });
}

/**
 * The signed-in admin, or a redirect to the sign-in page (which brings them back here after).
 * Every admin loader and action calls this itself: a parent layout's check does not cover a
 * child's action or its .data request.
 */
export async function requireAdmin(
  context: { admin(): Promise<SignedInAdmin | null> },
  request: Request,
): Promise<SignedInAdmin> {
  const admin = await context.admin();
  if (admin) return admin;
  const url = new URL(request.url);
  const back = url.pathname.replace(/\.data$/, '') + url.search;
  const query = back === '/admin' ? '' : `?${new URLSearchParams({ redirectTo: back })}`;
  // The cookie of a session that ended (expired, signed out elsewhere, admin deactivated) goes.
  throw redirect(`/admin/login${query}`, {
    headers: (await readToken(request))
      ? { 'Set-Cookie': await cookieFor(request).serialize('', { maxAge: 0 }) }
      : undefined,
  });
}
