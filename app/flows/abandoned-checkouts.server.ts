import type { AppLoadContext } from 'react-router';

import type { Db } from '~/db/database.server';
import { isUniqueViolation } from '~/db/errors.server';
import { canonicalOrigin } from '~/lib/canonical-origin';
import type { Env } from '~/lib/env.server';
import { parseForm } from '~/lib/form.server';
import { logger } from '~/lib/logger.server';
import type { CartLine } from '~/modules/cart';
import { cartCookieHeader, priceCart, readCart } from '~/modules/cart/index.server';
import { enqueue, type OutboxHandler } from '~/modules/jobs/index.server';
import { abandonedCheckoutEmail } from '~/modules/notifications';
import { type MailSending } from '~/modules/notifications/index.server';
import { RECOVER_PATH, RECOVERY_KEY_PARAM, UNSUBSCRIBE_PATH } from '~/modules/recovery';
import {
  ABANDONED_RECOVERY_TOPIC,
  CART_LIFE_MS,
  checkoutContactSchema,
  checkoutRecoveryCookieHeader,
  claimDueCheckouts,
  issueRecoveryMail,
  markRecoveryMailSent,
  readCheckoutRecoveryCookie,
  restoreByKey,
  saveAbandonedCheckout,
  setRecoveryOptOut,
  type RecoveryMailPayload,
} from '~/modules/recovery/index.server';
import type { SettingsStore } from '~/modules/settings/index.server';

import { emailStoreOf, sendStoreMail } from './mail-sending.server';

/**
 * The checkout's contact as typed (the e-mail field holds a valid address): kept with the cart
 * as it is now, for one recovery e-mail should no order follow; with the checkout's opt-out box
 * ticked, the address is opted out too. One transaction; answers the cookie that names the saved
 * checkout in this browser. An empty cart saves nothing.
 */
export async function saveCheckoutContact(
  context: Pick<AppLoadContext, 'db' | 'settings'>,
  request: Request,
  now: Date,
): Promise<
  { ok: true; headers: Headers } | { ok: false; error: string; fieldErrors: Record<string, string> }
> {
  const parsed = await parseForm(request, checkoutContactSchema);
  if (!parsed.ok) return { ok: false, error: parsed.error, fieldErrors: parsed.fieldErrors };
  const cart = await readCart(request);
  const headers = new Headers();
  if (cart.length === 0) return { ok: true, headers };
  const settings = await context.settings.get();
  const known = await readCheckoutRecoveryCookie(request);
  const save = () =>
    context.db.transaction(async (tx) => {
      const priced = await priceCart(tx, cart, settings, { paymentMethod: null, coupon: null });
      if (priced.lines.length === 0) return null;
      if (parsed.data.recoveryOptOut) {
        await setRecoveryOptOut(tx, parsed.data.customerEmail, true, now);
      }
      return saveAbandonedCheckout(tx, {
        id: known,
        contact: parsed.data,
        lines: priced.lines.map((line) => ({
          productId: line.productId,
          variantId: line.variantId,
          quantity: line.quantity,
          name: line.name,
        })),
        valueCents: priced.subtotalCents,
        cartExpiresAt: new Date(now.getTime() + CART_LIFE_MS),
        now,
      });
    });
  let id: string | null;
  try {
    id = await save();
  } catch (error) {
    // Another browser left the same address open at the same moment: the second try sees it.
    if (!isUniqueViolation(error)) throw error;
    id = await save();
  }
  if (id && id !== known) headers.append('Set-Cookie', await checkoutRecoveryCookieHeader(id));
  return { ok: true, headers };
}

/**
 * The recovery link: the saved cart's lines join this browser's cart (a line it already has
 * keeps the larger quantity), priced again now by the pricing pipeline, never by the e-mail.
 * Null for a key that no longer restores anything.
 */
export async function restoreAbandonedCart(
  context: Pick<AppLoadContext, 'db' | 'settings'>,
  request: Request,
  key: string,
  now: Date,
): Promise<Headers | null> {
  const settings = await context.settings.get();
  const current = await readCart(request);
  const restored = await context.db.transaction(async (tx) => {
    const found = await restoreByKey(tx, key, now);
    if (!found) return null;
    const merged = new Map<string, CartLine>();
    for (const line of current) merged.set(line.variantId ?? line.productId, line);
    for (const line of found.lines) {
      const id = line.variantId ?? line.productId;
      const had = merged.get(id);
      merged.set(id, {
        productId: line.productId,
        variantId: line.variantId,
        quantity: Math.max(line.quantity, had?.quantity ?? 0),
        seenPriceCents: had?.seenPriceCents ?? 0,
        seenName: line.name,
      });
    }
    const priced = await priceCart(tx, [...merged.values()], settings, {
      paymentMethod: null,
      coupon: null,
    });
    // The prices shown from now on are today's: what the pipeline said, not the saved cart's.
    const lines = priced.corrected.map((line) => {
      const pricedLine = priced.lines.find((candidate) => candidate.variantId === line.variantId);
      return pricedLine ? { ...line, seenPriceCents: pricedLine.unitPriceCents } : line;
    });
    return { checkoutId: found.checkoutId, lines };
  });
  if (!restored) return null;
  const headers = new Headers();
  headers.append('Set-Cookie', await cartCookieHeader(restored.lines));
  headers.append('Set-Cookie', await checkoutRecoveryCookieHeader(restored.checkoutId));
  return headers;
}

/**
 * One round of the abandoned checkouts' sweep: the checkouts due (typed longer ago than the
 * store's `abandoned_checkout_delay_minutes`, 0 = off) are claimed and their e-mails queued in
 * the same transaction: of several instances sweeping at once, each checkout goes to one.
 */
export async function sweepAbandonedCheckouts(
  db: Db,
  settings: Pick<SettingsStore, 'get'>,
  now: Date,
): Promise<number> {
  const delayMinutes = (await settings.get()).abandoned_checkout_delay_minutes;
  if (delayMinutes === 0) return 0;
  return db.transaction(async (tx) => {
    const claimed = await claimDueCheckouts(tx, { delayMinutes, now });
    for (const checkoutId of claimed) {
      const payload: RecoveryMailPayload = { checkoutId };
      await enqueue(tx, ABANDONED_RECOVERY_TOPIC, payload);
    }
    return claimed.length;
  });
}

function checkoutIdOf(payload: unknown): string {
  const checkoutId = (payload as { checkoutId?: unknown } | null)?.checkoutId;
  if (typeof checkoutId !== 'string') throw new Error('Outbox payload without a checkout id');
  return checkoutId;
}

/** The background worker's handler for ABANDONED_RECOVERY_TOPIC. */
export function abandonedCheckoutHandlers({
  env,
  db,
  settings,
  mailSending,
  now = () => new Date(),
}: {
  env: Env;
  db: Db;
  settings: SettingsStore;
  mailSending: () => Promise<MailSending>;
  now?: () => Date;
}): Record<string, OutboxHandler> {
  return {
    [ABANDONED_RECOVERY_TOPIC]: async (payload) => {
      const checkoutId = checkoutIdOf(payload);
      // Checked again now: an order, an opt-out or the cart's expiry since the claim stops it.
      const mail = await issueRecoveryMail(db, checkoutId, now());
      if (!mail) {
        logger.info({ checkoutId }, 'Abandoned checkout closed before its e-mail ran; skipped');
        return;
      }
      const store = await settings.get();
      // The order e-mails' rule: PUBLIC_URL, else canonical_url's origin.
      const origin =
        env.PUBLIC_URL ?? canonicalOrigin(store.canonical_url) ?? `http://localhost:${env.PORT}`;
      const link = (path: string, key: string) =>
        `${origin}${path}?${new URLSearchParams({ [RECOVERY_KEY_PARAM]: key })}`;
      const message = abandonedCheckoutEmail(
        {
          email: mail.email,
          customerName: mail.name,
          items: mail.lines.map((line) => ({ name: line.name, quantity: line.quantity })),
          recoverUrl: link(RECOVER_PATH, mail.restoreKey),
          unsubscribeUrl: link(UNSUBSCRIBE_PATH, mail.unsubscribeKey),
        },
        emailStoreOf(store),
      );
      await sendStoreMail(
        { dataDir: env.DATA_DIR, storeName: store.store_name, mailSending },
        { to: mail.email, ...message },
      );
      await markRecoveryMailSent(db, checkoutId, now());
    },
  };
}
