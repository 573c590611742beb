import { createHash } from 'node:crypto';

import { and, eq, gt } from 'drizzle-orm';
import { createCookie } from 'react-router';

import type { Db } from '~/db/database.server';

import { adminUsers, sessions } from './schema';

// The cookie carries a random token; the table keeps only its SHA-256 (see schema.ts).
export const sessionCookie = createCookie('vitrine_session', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
});

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface SignedInAdmin {
  id: string;
  email: string;
  fullName: string;
}

/** The active admin whose unexpired session the request carries, if any. */
export async function findSignedInAdmin(db: Db, request: Request): Promise<SignedInAdmin | null> {
  const token: unknown = await sessionCookie.parse(request.headers.get('Cookie'));
  if (typeof token !== 'string' || token.length < 32 || token.length > 256) return null;
  const [admin] = await db
    .select({ id: adminUsers.id, email: adminUsers.email, fullName: adminUsers.fullName })
    .from(sessions)
    .innerJoin(adminUsers, eq(adminUsers.id, sessions.adminUserId))
    .where(
      and(
        eq(sessions.id, hashSessionToken(token)),
        gt(sessions.expiresAt, new Date()),
        eq(adminUsers.isActive, true),
      ),
    )
    .limit(1);
  return admin ?? null;
}
