import { inArray, sql } from 'drizzle-orm';

import { cachedRead, type ChangeFeed } from '~/db/changes.server';
import type { Db } from '~/db/database.server';
import type { Env } from '~/lib/env.server';
import { logger } from '~/lib/logger.server';

import {
  CONNECTION_ENV,
  CONNECTION_FIELDS,
  isSecretField,
  PLAIN_CONNECTION_FIELDS,
  type ConnectionField,
  type ConnectionSource,
  type ConnectionsView,
  type PlainConnectionField,
} from './connections';
import { storeConnections } from './schema';
import { openSecret, sealSecret, type SecretsKey } from './secrets.server';

/** The environment variables that can set a connection (and then win over the admin). */
export type ConnectionsEnv = Partial<
  Pick<
    Env,
    | 'PAYMENT_PROVIDER'
    | 'PAYMENT_GATEWAY_URL'
    | 'PAYMENT_GATEWAY_SECRET_KEY'
    | 'MERCADOPAGO_ACCESS_TOKEN'
    | 'MERCADOPAGO_WEBHOOK_SECRET'
    | 'SMTP_URL'
    | 'SMTP_FROM'
    | 'MELHOR_ENVIO_TOKEN'
    | 'MELHOR_ENVIO_WEBHOOK_SECRET'
    | 'PIX_API_URL'
    | 'PIX_API_TOKEN_URL'
    | 'PIX_API_CLIENT_ID'
    | 'PIX_API_CLIENT_SECRET'
    | 'PIX_API_CERT'
    | 'PIX_API_CERT_PASSWORD'
    | 'BLING_CLIENT_ID'
    | 'BLING_CLIENT_SECRET'
  >
>;

/**
 * The connections in force: each field's value (the environment's when set, else the admin's)
 * and where it came from. Server only: it holds the secrets in clear. One object per version of
 * the table, so what is built from it (the payment provider) can be kept beside it.
 */
export interface Connections {
  values: Partial<Record<ConnectionField, string>>;
  sources: Record<ConnectionField, ConnectionSource>;
  canStoreSecrets: boolean;
}

interface StoredRow {
  name: string;
  value: string | null;
  sealed: string | null;
}

/** Reads what the admin stored and lays the environment over it. */
export function resolveConnections(
  rows: readonly StoredRow[],
  env: ConnectionsEnv,
  key: SecretsKey | null,
): Connections {
  const values: Connections['values'] = {};
  const sources = Object.fromEntries(CONNECTION_FIELDS.map((name) => [name, null])) as Record<
    ConnectionField,
    ConnectionSource
  >;
  for (const row of rows) {
    const name = row.name as ConnectionField;
    if (!CONNECTION_FIELDS.includes(name)) continue;
    if (isSecretField(name)) {
      const opened = key && row.sealed !== null ? openSecret(key, name, row.sealed) : null;
      if (opened === null) {
        sources[name] = 'unreadable';
        continue;
      }
      values[name] = opened;
    } else if (row.value !== null) {
      values[name] = row.value;
    }
    sources[name] = 'admin';
  }
  for (const name of CONNECTION_FIELDS) {
    const fromEnv = (env as Record<string, string | undefined>)[CONNECTION_ENV[name]];
    if (fromEnv === undefined) continue;
    values[name] = fromEnv;
    sources[name] = 'env';
  }
  return { values, sources, canStoreSecrets: key !== null };
}

/** What /admin/payments may show: the plain values and where each field comes from. */
export function connectionsView(connections: Connections): ConnectionsView {
  const plain = Object.fromEntries(
    PLAIN_CONNECTION_FIELDS.map((name) => [name, connections.values[name] ?? '']),
  ) as Record<PlainConnectionField, string>;
  return { plain, sources: connections.sources, canStoreSecrets: connections.canStoreSecrets };
}

export async function readStoredConnections(db: Db): Promise<StoredRow[]> {
  return db
    .select({
      name: storeConnections.name,
      value: storeConnections.value,
      sealed: storeConnections.sealed,
    })
    .from(storeConnections);
}

/**
 * A change staff made: a field set to a value, or removed (null). Secrets are sealed here, so
 * their clear text never reaches the database; without a key a secret cannot be stored.
 */
export async function writeConnections(
  db: Db,
  key: SecretsKey | null,
  changes: Partial<Record<ConnectionField, string | null>>,
): Promise<void> {
  const entries = Object.entries(changes) as [ConnectionField, string | null][];
  const removed = entries.filter(([, value]) => value === null).map(([name]) => name);
  const set = entries.filter((entry): entry is [ConnectionField, string] => entry[1] !== null);
  const rows = set.map(([name, value]) => {
    if (!isSecretField(name)) return { name, value, sealed: null };
    if (!key) throw new Error(`No secrets key: ${name} cannot be stored`);
    return { name, value: null, sealed: sealSecret(key, name, value) };
  });
  await db.transaction(async (tx) => {
    if (removed.length) {
      await tx.delete(storeConnections).where(inArray(storeConnections.name, removed));
    }
    if (rows.length) {
      await tx
        .insert(storeConnections)
        .values(rows)
        .onConflictDoUpdate({
          target: storeConnections.name,
          set: {
            value: sql`excluded.value`,
            sealed: sql`excluded.sealed`,
            updatedAt: sql`now()`,
          },
        });
    }
  });
}

export interface ConnectionsStore {
  get(): Promise<Connections>;
  write(changes: Partial<Record<ConnectionField, string | null>>): Promise<void>;
  close(): Promise<void>;
}

/**
 * The connections read through a cache that every instance drops when the table's trigger
 * announces a change (drizzle/0027), so what staff save on one instance is used by all.
 */
export function createConnectionsStore(options: {
  db: Db;
  changes: ChangeFeed;
  env: ConnectionsEnv;
  key: SecretsKey | null;
}): ConnectionsStore {
  const { db, changes, env, key } = options;
  const connections = cachedRead(
    changes,
    async () => resolveConnections(await readStoredConnections(db), env, key),
    {
      // Unreadable, only the environment's connections count: nothing typed is guessed at.
      fallback: () => resolveConnections([], env, key),
      failure: 'Could not read the connections; using the environment only',
    },
  );
  const unsubscribe = changes.subscribe((table) => {
    if (table === null || table === 'store_connections') connections.forget();
  });
  return {
    get: connections.read,
    async write(change) {
      await writeConnections(db, key, change);
      // This instance's next request may come before the notification does.
      connections.forget();
    },
    close: async () => unsubscribe(),
  };
}

/** At start: says when stored secrets cannot be opened with this key (SECRETS_KEY changed). */
export async function warnOfUnreadableSecrets(store: ConnectionsStore): Promise<void> {
  const { sources } = await store.get();
  const unreadable = CONNECTION_FIELDS.filter((name) => sources[name] === 'unreadable');
  if (unreadable.length) {
    logger.warn(
      { fields: unreadable },
      'Stored secrets cannot be read with this secrets key (was SECRETS_KEY changed?): type them ' +
        'again at /admin/payments',
    );
  }
}
