import type { Db } from '~/db/database.server';
import { formatDateTime } from '~/lib/date-format';
import { logger } from '~/lib/logger.server';
import {
  deleteRestockRequestsOfEmail,
  listProductsByIds,
  restockRequestsOfEmail,
} from '~/modules/catalog/index.server';
import { listOrdersForEmail } from '~/modules/orders/index.server';
import {
  deleteRecoveryData,
  isRecoveryOptedOut,
  recoveryDataOf,
  setRecoveryOptOut,
} from '~/modules/recovery/index.server';
import { anonymizeReviewsOfOrders, reviewsOfOrders } from '~/modules/reviews/index.server';
import {
  ACCOUNT_MESSAGES,
  SHOPPER_PREFERENCES,
  type AccountAction,
  type ShopperPreferenceKey,
} from '~/modules/shoppers';
import {
  addFavorites,
  checkShopperCode,
  deleteShopper,
  findSignedInShopper,
  listAddresses,
  listFavoriteIds,
  removeAddress,
  removeFavorite,
  saveAddress,
  setDefaultAddress,
  shopperDataPart,
  type SignedInShopper,
} from '~/modules/shoppers/index.server';

import { askForShopperCode } from './shopper-sign-in.server';

export { findSignedInShopper, type SignedInShopper };

/**
 * The account's e-mail preferences, each kept by the domain that sends those e-mails: the checkout
 * reminders' is recovery's opt-out by address, which their unsubscribe link writes too, so the
 * account and the link never disagree.
 */
async function readPreferences(
  db: Db,
  email: string,
): Promise<Record<ShopperPreferenceKey, boolean>> {
  return { checkout_reminders: !(await isRecoveryOptedOut(db, email)) };
}

/**
 * 'Minha conta': every order placed with the shopper's e-mail on any device (newest first), the
 * saved addresses, the account's favourites and the e-mail preferences.
 */
export async function accountPage(db: Db, shopper: SignedInShopper, timeZone: string) {
  const [orders, addresses, favoriteIds, preferences] = await Promise.all([
    listOrdersForEmail(db, shopper.email),
    listAddresses(db, shopper.id),
    listFavoriteIds(db, shopper.id),
    readPreferences(db, shopper.email),
  ]);
  const favorites = await listProductsByIds(db, favoriteIds);
  return {
    email: shopper.email,
    orders: orders.map((order) => ({
      id: order.id,
      number: order.number,
      status: order.status,
      placedAt: formatDateTime(order.createdAt, timeZone),
      totalCents: order.totalCents,
      lines: order.lines.map((line) => ({ name: line.name, quantity: line.quantity })),
      // Opens the order's page and its 'Pagar agora' here too, as its e-mails' links do.
      accessKey: order.accessKey,
    })),
    addresses,
    favorites: favorites.map((product) => ({ id: product.id, name: product.name })),
    favoriteIds,
    preferences,
  };
}

export type AccountActionResult =
  | { ok: true; message: string; favoriteIds?: string[] }
  | { ok: false; message: string; status: number; retryAfterSeconds?: number };

/**
 * One of '/conta''s forms, for the signed-in shopper; 'Excluir minha conta' is
 * deleteShopperAccount's, whose answer ends the session.
 */
export async function runAccountAction(
  db: Db,
  shopper: SignedInShopper,
  action: Exclude<AccountAction, { intent: 'delete' }>,
  context: { ip: string; now: Date },
): Promise<AccountActionResult> {
  switch (action.intent) {
    case 'save-address': {
      const { intent: _intent, addressId, isDefault, ...address } = action;
      const saved = await saveAddress(db, shopper.id, {
        ...address,
        id: addressId || undefined,
        makeDefault: isDefault === 'on',
      });
      if (saved.ok) return { ok: true, message: ACCOUNT_MESSAGES.addressSaved };
      return saved.reason === 'limit'
        ? { ok: false, message: ACCOUNT_MESSAGES.addressLimit, status: 409 }
        : { ok: false, message: ACCOUNT_MESSAGES.addressMissing, status: 404 };
    }
    case 'remove-address':
      return (await removeAddress(db, shopper.id, action.addressId))
        ? { ok: true, message: ACCOUNT_MESSAGES.addressRemoved }
        : { ok: false, message: ACCOUNT_MESSAGES.addressMissing, status: 404 };
    case 'default-address':
      return (await setDefaultAddress(db, shopper.id, action.addressId))
        ? { ok: true, message: ACCOUNT_MESSAGES.addressDefault }
        : { ok: false, message: ACCOUNT_MESSAGES.addressMissing, status: 404 };
    case 'preferences': {
      const enabled: readonly string[] = action.enabled ?? [];
      await setRecoveryOptOut(
        db,
        shopper.email,
        !enabled.includes('checkout_reminders'),
        context.now,
      );
      return { ok: true, message: ACCOUNT_MESSAGES.preferencesSaved };
    }
    case 'favorites': {
      // Only products that exist join the account; the answer is the union, for the browser.
      const asked = action.ids.split(',').map((id) => id.trim().toLowerCase());
      const known = await listProductsByIds(db, asked.slice(0, 100));
      const favoriteIds = await addFavorites(
        db,
        shopper.id,
        known.map((product) => product.id),
      );
      return { ok: true, message: ACCOUNT_MESSAGES.favoritesSaved, favoriteIds };
    }
    case 'remove-favorite':
      await removeFavorite(db, shopper.id, action.productId);
      return {
        ok: true,
        message: ACCOUNT_MESSAGES.favoritesSaved,
        favoriteIds: await listFavoriteIds(db, shopper.id),
      };
    case 'ask-delete': {
      const asked = await askForShopperCode(
        db,
        { email: shopper.email, ip: context.ip, purpose: 'delete' },
        context.now,
      );
      return asked.ok
        ? { ok: true, message: ACCOUNT_MESSAGES.deleteCodeSent(shopper.email) }
        : {
            ok: false,
            status: 429,
            message: asked.message,
            retryAfterSeconds: asked.retryAfterSeconds,
          };
    }
  }
}

/**
 * 'Baixar meus dados': everything the store holds on the shopper, each domain's part by the
 * e-mail or the account: orders (all of them), saved addresses, favourites, e-mail preferences
 * and sessions, reviews written from their orders, 'Avise-me' alerts and their confirmations.
 */
export async function shopperDataExport(db: Db, shopper: SignedInShopper, now: Date) {
  const [account, orders, restockAlerts, preferences, recovery] = await Promise.all([
    shopperDataPart(db, shopper.id),
    listOrdersForEmail(db, shopper.email, { all: true }),
    restockRequestsOfEmail(db, shopper.email),
    readPreferences(db, shopper.email),
    recoveryDataOf(db, shopper.email),
  ]);
  const reviews = await reviewsOfOrders(
    db,
    orders.map((order) => order.id),
  );
  return {
    exportedAt: now.toISOString(),
    ...account,
    emailPreferences: SHOPPER_PREFERENCES.map((preference) => ({
      key: preference.key,
      label: preference.label,
      enabled: preferences[preference.key],
    })),
    orders: orders.map((order) => ({
      number: order.number,
      status: order.status,
      placedAt: order.createdAt,
      paidAt: order.paidAt,
      customer: order.customer,
      address: order.address,
      lines: order.lines,
      subtotalCents: order.subtotalCents,
      shippingCents: order.shippingCents,
      adjustments: order.adjustments,
      totalCents: order.totalCents,
      paymentMethod: order.paymentMethod,
      trackingCode: order.trackingCode,
    })),
    reviews,
    // Each alert's confirmation is the consent it was sent under.
    restockAlerts,
    // Checkouts left with this e-mail (what was saved as typed) and the reminders' opt-out.
    abandonedCheckouts: recovery.checkouts,
    checkoutRemindersOptedOutAt: recovery.optedOutAt,
  };
}

export type DeleteAccountResult = 'deleted' | 'wrong' | 'spent';

/**
 * 'Excluir minha conta', with a code just e-mailed for it: in one transaction the account goes
 * (addresses, favourites, preferences, sessions) with the e-mail's 'Avise-me' alerts, and the
 * reviews written from its orders are signed 'Cliente'. The orders stay, as tax law requires.
 */
export async function deleteShopperAccount(
  db: Db,
  shopper: SignedInShopper,
  code: string,
  now: Date,
): Promise<DeleteAccountResult> {
  const check = await checkShopperCode(db, { email: shopper.email, purpose: 'delete', code }, now);
  if (check !== 'ok') return check;
  await db.transaction(async (tx) => {
    const orders = await listOrdersForEmail(tx, shopper.email, { all: true });
    await anonymizeReviewsOfOrders(
      tx,
      orders.map((order) => order.id),
    );
    await deleteRestockRequestsOfEmail(tx, shopper.email);
    // A reminders' opt-out stays, so the address is never sent one after the account is gone.
    await deleteRecoveryData(tx, shopper.email);
    await deleteShopper(tx, shopper);
  });
  logger.info({ shopperId: shopper.id }, 'Shopper account deleted at their request');
  return 'deleted';
}
