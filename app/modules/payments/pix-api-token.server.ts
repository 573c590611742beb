import { eq, isNull, lt, or, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { providerTokens } from './schema';

/** An access token and when it stops working. */
export interface AccessToken {
  token: string;
  expiresAt: Date;
}

/**
 * Where every instance keeps the one token (ADR 045): read, a lease to renew it taken by one
 * caller at a time, and the renewed token saved (which ends the lease).
 */
export interface SharedTokens {
  read(): Promise<AccessToken | null>;
  /** True for the one caller that may renew now; the lease lapses after `ms` if it dies. */
  lease(now: Date, ms: number): Promise<boolean>;
  save(token: AccessToken): Promise<void>;
  release(): Promise<void>;
}

/** How a token is sealed at rest: the connections' secrets key (ADR 038). */
export interface TokenSeal {
  seal(value: string): string;
  open(sealed: string): string | null;
}

/** The token row `name` of provider_tokens, sealed with `seal`. */
export function databaseTokens(db: Db, name: string, seal: TokenSeal): SharedTokens {
  return {
    async read() {
      const [row] = await db
        .select({ sealed: providerTokens.sealed, expiresAt: providerTokens.expiresAt })
        .from(providerTokens)
        .where(eq(providerTokens.name, name));
      if (!row?.sealed || !row.expiresAt) return null;
      const token = seal.open(row.sealed);
      return token === null ? null : { token, expiresAt: row.expiresAt };
    },
    async lease(now, ms) {
      const until = new Date(now.getTime() + ms);
      const taken = await db
        .insert(providerTokens)
        .values({ name, renewingUntil: until })
        .onConflictDoUpdate({
          target: providerTokens.name,
          set: { renewingUntil: until },
          setWhere: or(
            isNull(providerTokens.renewingUntil),
            lt(providerTokens.renewingUntil, sql`${now.toISOString()}::timestamptz`),
          ),
        })
        .returning({ name: providerTokens.name });
      return taken.length > 0;
    },
    async save(token) {
      await db
        .update(providerTokens)
        .set({
          sealed: seal.seal(token.token),
          expiresAt: token.expiresAt,
          renewingUntil: null,
          updatedAt: new Date(),
        })
        .where(eq(providerTokens.name, name));
    },
    async release() {
      await db
        .update(providerTokens)
        .set({ renewingUntil: null })
        .where(eq(providerTokens.name, name));
    },
  };
}

/**
 * Without a secrets key (PostgreSQL with no SECRETS_KEY) a token cannot be kept in the database
 * unsealed: each instance keeps its own, and still asks for one at a time.
 */
export function processTokens(): SharedTokens {
  let kept: AccessToken | null = null;
  let renewing = false;
  return {
    read: async () => kept,
    async lease() {
      if (renewing) return false;
      renewing = true;
      return true;
    },
    async save(token) {
      kept = token;
      renewing = false;
    },
    async release() {
      renewing = false;
    },
  };
}
