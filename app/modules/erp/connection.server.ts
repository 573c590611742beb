import { createHash, randomBytes } from 'node:crypto';

import { and, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import type { ErpConnectionState, ErpName } from './erp';
import { ErpError, type Erp, type TokenSet, type TokenVault } from './erp.server';
import { erpConnections, erpOauthStates } from './schema';

/** The access token is renewed this long before it expires. */
const RENEW_MARGIN_MS = 5 * 60_000;
/** How long the instance renewing the tokens holds the lease; the others wait for it. */
const REFRESH_LEASE_MS = 30_000;
const WAIT_STEP_MS = 50;
/** A 'Conectar ao Bling' must come back within this. */
const STATE_TTL_MS = 15 * 60_000;

const hashState = (state: string) => createHash('sha256').update(state).digest('base64url');
const accessName = (provider: ErpName) => `${provider}_access_token`;
const refreshName = (provider: ErpName) => `${provider}_refresh_token`;

/** Starts a connection: a single-use state for the callback, only its hash kept. */
export async function beginAuthorization(db: Db, provider: ErpName, now: Date): Promise<string> {
  const state = randomBytes(24).toString('base64url');
  await db.delete(erpOauthStates).where(lt(erpOauthStates.expiresAt, now));
  await db.insert(erpOauthStates).values({
    stateHash: hashState(state),
    provider,
    expiresAt: new Date(now.getTime() + STATE_TTL_MS),
  });
  return state;
}

/** Whether the callback's state is one this store issued and has not used yet (it is spent). */
export async function takeAuthorizationState(
  db: Db,
  provider: ErpName,
  state: string,
  now: Date,
): Promise<boolean> {
  const taken = await db
    .delete(erpOauthStates)
    .where(
      and(
        eq(erpOauthStates.stateHash, hashState(state)),
        eq(erpOauthStates.provider, provider),
        gt(erpOauthStates.expiresAt, now),
      ),
    )
    .returning({ stateHash: erpOauthStates.stateHash });
  return taken.length === 1;
}

function sealed(vault: TokenVault, provider: ErpName, tokens: TokenSet, now: Date) {
  return {
    sealedAccessToken: vault.seal(accessName(provider), tokens.accessToken),
    sealedRefreshToken: vault.seal(refreshName(provider), tokens.refreshToken),
    expiresAt: new Date(now.getTime() + tokens.expiresInSeconds * 1000),
  };
}

/** Stores a new authorization (sealed), replacing a revoked or older one. */
export async function saveAuthorization(
  db: Db,
  vault: TokenVault,
  provider: ErpName,
  tokens: TokenSet,
  now: Date,
): Promise<void> {
  const values = {
    ...sealed(vault, provider, tokens, now),
    revokedAt: null,
    refreshLeaseUntil: null,
  };
  await db
    .insert(erpConnections)
    .values({ provider, ...values })
    .onConflictDoUpdate({ target: erpConnections.provider, set: { ...values, updatedAt: now } });
}

export async function connectionState(
  db: Db,
  provider: ErpName,
): Promise<Exclude<ErpConnectionState, { state: 'not-configured' }>> {
  const [row] = await db
    .select({ expiresAt: erpConnections.expiresAt, revokedAt: erpConnections.revokedAt })
    .from(erpConnections)
    .where(eq(erpConnections.provider, provider));
  if (!row) return { state: 'disconnected' };
  if (row.revokedAt) return { state: 'revoked', revokedAt: row.revokedAt };
  return { state: 'connected', expiresAt: row.expiresAt };
}

/** Whether orders may be queued for the ERP now (connected, not revoked). */
export async function isConnected(db: Db, provider: ErpName): Promise<boolean> {
  return (await connectionState(db, provider)).state === 'connected';
}

/**
 * The access token good until `until` was refused before its time: the next call renews it. A
 * token renewed meanwhile (another call saw the refusal first) is left alone.
 */
export async function expireAccessToken(
  db: Db,
  provider: ErpName,
  until: Date,
  now: Date,
): Promise<void> {
  await db
    .update(erpConnections)
    .set({ expiresAt: now })
    .where(and(eq(erpConnections.provider, provider), eq(erpConnections.expiresAt, until)));
}

/**
 * An access token good for a while yet. One past (or near) its expiry is renewed by the one
 * instance (or call) that takes the lease; every other call waits for the new one meanwhile, so
 * the refresh token, which Bling accepts once, is spent once however many orders go at once.
 */
export async function accessToken(
  db: Db,
  vault: TokenVault,
  erp: Pick<Erp, 'name' | 'refresh'>,
  now: () => Date,
): Promise<{ token: string; expiresAt: Date }> {
  const provider = erp.name;
  const deadline = Date.now() + REFRESH_LEASE_MS * 2;
  for (;;) {
    const at = now();
    const [row] = await db
      .select()
      .from(erpConnections)
      .where(eq(erpConnections.provider, provider));
    if (!row) throw new ErpError('revoked', 'ERP não conectado');
    if (row.revokedAt) throw new ErpError('revoked', 'Autorização do ERP revogada');
    if (row.expiresAt.getTime() - RENEW_MARGIN_MS > at.getTime()) {
      const token = vault.open(accessName(provider), row.sealedAccessToken);
      if (token === null) throw new ErpError('revoked', 'Tokens do ERP ilegíveis com esta chave');
      return { token, expiresAt: row.expiresAt };
    }
    const [claimed] = await db
      .update(erpConnections)
      .set({ refreshLeaseUntil: new Date(at.getTime() + REFRESH_LEASE_MS) })
      .where(
        and(
          eq(erpConnections.provider, provider),
          isNull(erpConnections.revokedAt),
          lte(erpConnections.expiresAt, new Date(at.getTime() + RENEW_MARGIN_MS)),
          or(isNull(erpConnections.refreshLeaseUntil), lt(erpConnections.refreshLeaseUntil, at)),
        ),
      )
      .returning({ sealedRefreshToken: erpConnections.sealedRefreshToken });
    if (!claimed) {
      if (Date.now() > deadline) throw new ErpError('unavailable', 'Renovação do token demorou');
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      continue;
    }
    const refresh = vault.open(refreshName(provider), claimed.sealedRefreshToken);
    try {
      if (refresh === null) throw new ErpError('revoked', 'Tokens do ERP ilegíveis com esta chave');
      const tokens = await erp.refresh(refresh);
      const done = now();
      const renewed = sealed(vault, provider, tokens, done);
      await db
        .update(erpConnections)
        .set({ ...renewed, refreshLeaseUntil: null, updatedAt: done })
        .where(eq(erpConnections.provider, provider));
      return { token: tokens.accessToken, expiresAt: renewed.expiresAt };
    } catch (error) {
      const revoked = error instanceof ErpError && error.failure === 'revoked';
      await db
        .update(erpConnections)
        .set({
          refreshLeaseUntil: null,
          ...(revoked ? { revokedAt: now() } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(erpConnections.provider, provider));
      throw error;
    }
  }
}
