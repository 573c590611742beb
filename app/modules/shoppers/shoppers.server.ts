import { and, asc, eq, ne, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import type { SavedAddress, SavedAddressInput } from './account';
import {
  shopperAddresses,
  shopperCodes,
  shopperFavorites,
  shoppers,
  shopperSessions,
} from './schema';

/** The shopper with this e-mail (lower case), made on their first sign-in. */
export async function ensureShopper(db: Db, email: string): Promise<string> {
  await db.insert(shoppers).values({ email }).onConflictDoNothing();
  const [row] = await db
    .select({ id: shoppers.id })
    .from(shoppers)
    .where(eq(shoppers.email, email));
  return row!.id;
}

/**
 * Deletes the shopper and, through the foreign keys, their addresses, favourites, preferences
 * and sessions; their codes, kept by e-mail, go too.
 */
export async function deleteShopper(db: Db, shopper: { id: string; email: string }): Promise<void> {
  await db.delete(shopperCodes).where(eq(shopperCodes.email, shopper.email));
  await db.delete(shoppers).where(eq(shoppers.id, shopper.id));
}

/** A shopper may keep this many addresses. */
export const MAX_ADDRESSES = 10;

const addressColumns = {
  id: shopperAddresses.id,
  zipCode: shopperAddresses.zipCode,
  street: shopperAddresses.street,
  number: shopperAddresses.number,
  complement: shopperAddresses.complement,
  neighborhood: shopperAddresses.neighborhood,
  city: shopperAddresses.city,
  state: shopperAddresses.state,
  isDefault: shopperAddresses.isDefault,
};

/** The shopper's addresses, the default first. */
export function listAddresses(db: Db, shopperId: string): Promise<SavedAddress[]> {
  return db
    .select(addressColumns)
    .from(shopperAddresses)
    .where(eq(shopperAddresses.shopperId, shopperId))
    .orderBy(sql`${shopperAddresses.isDefault} desc`, asc(shopperAddresses.createdAt));
}

export type SaveAddressResult =
  { ok: true; id: string } | { ok: false; reason: 'missing' | 'limit' };

/**
 * Adds an address, or changes one of the shopper's own (`id`). The first address is the default;
 * `makeDefault` moves the default to this one. Under the shopper's row lock, so two forms sent
 * at once neither pass the limit nor leave two defaults.
 */
export async function saveAddress(
  db: Db,
  shopperId: string,
  input: SavedAddressInput & { id?: string; makeDefault?: boolean },
): Promise<SaveAddressResult> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: shoppers.id })
      .from(shoppers)
      .where(eq(shoppers.id, shopperId))
      .for('update');
    const existing = await tx
      .select({ id: shopperAddresses.id, isDefault: shopperAddresses.isDefault })
      .from(shopperAddresses)
      .where(eq(shopperAddresses.shopperId, shopperId));
    const values = {
      zipCode: input.zipCode,
      street: input.street,
      number: input.number,
      complement: input.complement ?? '',
      neighborhood: input.neighborhood,
      city: input.city,
      state: input.state,
    };
    let id = input.id;
    if (id) {
      if (!existing.some((row) => row.id === id)) return { ok: false, reason: 'missing' } as const;
      await tx
        .update(shopperAddresses)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(shopperAddresses.id, id));
    } else {
      if (existing.length >= MAX_ADDRESSES) return { ok: false, reason: 'limit' } as const;
      const [created] = await tx
        .insert(shopperAddresses)
        .values({ ...values, shopperId })
        .returning({ id: shopperAddresses.id });
      id = created!.id;
    }
    const hasDefault = existing.some((row) => row.isDefault && row.id !== id);
    if (input.makeDefault || !hasDefault) await makeDefault(tx, shopperId, id);
    return { ok: true, id } as const;
  });
}

async function makeDefault(db: Db, shopperId: string, id: string) {
  await db
    .update(shopperAddresses)
    .set({ isDefault: false })
    .where(and(eq(shopperAddresses.shopperId, shopperId), ne(shopperAddresses.id, id)));
  await db
    .update(shopperAddresses)
    .set({ isDefault: true })
    .where(and(eq(shopperAddresses.shopperId, shopperId), eq(shopperAddresses.id, id)));
}

/** 'Usar como padrão' on one of the shopper's addresses; false when it is not theirs. */
export async function setDefaultAddress(db: Db, shopperId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: shoppers.id })
      .from(shoppers)
      .where(eq(shoppers.id, shopperId))
      .for('update');
    const [own] = await tx
      .select({ id: shopperAddresses.id })
      .from(shopperAddresses)
      .where(and(eq(shopperAddresses.shopperId, shopperId), eq(shopperAddresses.id, id)));
    if (!own) return false;
    await makeDefault(tx, shopperId, id);
    return true;
  });
}

/** 'Remover' one of the shopper's addresses; the oldest left becomes the default if needed. */
export async function removeAddress(db: Db, shopperId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: shoppers.id })
      .from(shoppers)
      .where(eq(shoppers.id, shopperId))
      .for('update');
    const [removed] = await tx
      .delete(shopperAddresses)
      .where(and(eq(shopperAddresses.shopperId, shopperId), eq(shopperAddresses.id, id)))
      .returning({ isDefault: shopperAddresses.isDefault });
    if (!removed) return false;
    if (removed.isDefault) {
      const [next] = await listAddresses(tx, shopperId);
      if (next) await makeDefault(tx, shopperId, next.id);
    }
    return true;
  });
}

/** The account's favourite products, oldest first. */
export async function listFavoriteIds(db: Db, shopperId: string): Promise<string[]> {
  const rows = await db
    .select({ productId: shopperFavorites.productId })
    .from(shopperFavorites)
    .where(eq(shopperFavorites.shopperId, shopperId))
    .orderBy(asc(shopperFavorites.createdAt));
  return rows.map((row) => row.productId);
}

/**
 * Adds the browser's favourites to the account's (ids of products that exist; others are left
 * out by the caller) and answers the union, for the browser to keep.
 */
export async function addFavorites(
  db: Db,
  shopperId: string,
  productIds: string[],
): Promise<string[]> {
  if (productIds.length > 0) {
    await db
      .insert(shopperFavorites)
      .values(productIds.map((productId) => ({ shopperId, productId })))
      .onConflictDoNothing();
  }
  return listFavoriteIds(db, shopperId);
}

export async function removeFavorite(db: Db, shopperId: string, productId: string): Promise<void> {
  await db
    .delete(shopperFavorites)
    .where(
      and(eq(shopperFavorites.shopperId, shopperId), eq(shopperFavorites.productId, productId)),
    );
}

/** The shopper module's part of 'Baixar meus dados'. */
export async function shopperDataPart(db: Db, shopperId: string) {
  const [account] = await db
    .select({ email: shoppers.email, createdAt: shoppers.createdAt })
    .from(shoppers)
    .where(eq(shoppers.id, shopperId));
  const addresses = await listAddresses(db, shopperId);
  const favorites = await listFavoriteIds(db, shopperId);
  const sessions = await db
    .select({ startedAt: shopperSessions.createdAt, expiresAt: shopperSessions.expiresAt })
    .from(shopperSessions)
    .where(eq(shopperSessions.shopperId, shopperId))
    .orderBy(asc(shopperSessions.createdAt));
  return {
    account: account ?? null,
    addresses: addresses.map((address) => ({
      zipCode: address.zipCode,
      street: address.street,
      number: address.number,
      complement: address.complement,
      neighborhood: address.neighborhood,
      city: address.city,
      state: address.state,
      isDefault: address.isDefault,
    })),
    favoriteProductIds: favorites,
    sessions,
  };
}
