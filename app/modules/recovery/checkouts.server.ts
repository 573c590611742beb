import { createHash, randomBytes } from 'node:crypto';

import { and, count, desc, eq, gt, inArray, lte, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';

import type { Db } from '~/db/database.server';
import type { StatementPart } from '~/db/prepared-statements.server';
import type { DayRange } from '~/lib/periods';
import { isUuid } from '~/lib/uuid';

import { RECOVERY_MESSAGES } from './recovery';
import {
  abandonedCheckouts,
  recoveryKeys,
  recoveryOptOuts,
  type AbandonedStatus,
  type KeptLine,
  type RecoveryKeyPurpose,
} from './schema';

/** How long an unsubscribe link keeps working: well past any cart's life. */
const UNSUBSCRIBE_KEY_MS = 365 * 24 * 60 * 60_000;
/** Most checkouts one sweep claims: the rest wait for the next one. */
const SWEEP_BATCH = 50;

/** The checkout's contact as typed: a valid e-mail, and the name and phone if there yet. */
export const checkoutContactSchema = z.object({
  customerEmail: z
    .string({ error: RECOVERY_MESSAGES.email })
    .trim()
    .toLowerCase()
    .max(254, { error: RECOVERY_MESSAGES.email, abort: true })
    .pipe(z.email({ error: RECOVERY_MESSAGES.email })),
  customerName: z.string().trim().max(120).catch(''),
  customerPhone: z
    .string()
    .transform((value) => value.replace(/\D/g, ''))
    .pipe(z.string().max(11))
    .catch(''),
  recoveryOptOut: z
    .string()
    .optional()
    .transform((value) => value === 'on' || value === 'true'),
});

export type CheckoutContact = z.output<typeof checkoutContactSchema>;

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function newKey(): string {
  return randomBytes(24).toString('base64url');
}

function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Keeps the checkout's contact with its cart. `id` is the browser's saved checkout, if any: an
 * open one is updated (and its delay starts again), one already e-mailed stays as it is (never a
 * second e-mail for the same cart), and a converted or unknown one gives way to the address's
 * open checkout, made or updated (one per address). Answers the id to keep in the browser.
 */
export async function saveAbandonedCheckout(
  db: Db,
  input: {
    id: string | null;
    contact: Pick<CheckoutContact, 'customerEmail' | 'customerName' | 'customerPhone'>;
    lines: KeptLine[];
    valueCents: number;
    cartExpiresAt: Date;
    now: Date;
  },
): Promise<string> {
  const values = {
    email: normalEmail(input.contact.customerEmail),
    name: input.contact.customerName,
    phone: input.contact.customerPhone,
    lines: input.lines,
    valueCents: input.valueCents,
    typedAt: input.now,
    expiresAt: input.cartExpiresAt,
  };
  if (input.id && isUuid(input.id)) {
    const [kept] = await db
      .select({ status: abandonedCheckouts.status })
      .from(abandonedCheckouts)
      .where(eq(abandonedCheckouts.id, input.id))
      .for('update');
    if (kept?.status === 'emailed') return input.id;
    if (kept?.status === 'open') {
      // The address changed to one another browser left open: this browser's cart wins.
      await db
        .delete(abandonedCheckouts)
        .where(
          and(
            eq(abandonedCheckouts.email, values.email),
            eq(abandonedCheckouts.status, 'open'),
            ne(abandonedCheckouts.id, input.id),
          ),
        );
      await db.update(abandonedCheckouts).set(values).where(eq(abandonedCheckouts.id, input.id));
      return input.id;
    }
  }
  const [row] = await db
    .insert(abandonedCheckouts)
    .values(values)
    .onConflictDoUpdate({
      target: abandonedCheckouts.email,
      targetWhere: sql`${abandonedCheckouts.status} = 'open'`,
      set: values,
    })
    .returning({ id: abandonedCheckouts.id });
  return row!.id;
}

/**
 * Claims the open checkouts typed at least `delayMinutes` ago, whose cart has not expired and
 * whose e-mail did not opt out: each becomes `emailed` in this transaction, so of two sweeps at
 * once each row goes to one (row locks, the other skipping them). The caller queues their
 * e-mails in the same transaction. 0 minutes claims nothing: recovery is off.
 */
export async function claimDueCheckouts(
  db: Db,
  input: { delayMinutes: number; now: Date },
): Promise<string[]> {
  if (input.delayMinutes <= 0) return [];
  const now = input.now.toISOString();
  const dueBefore = new Date(input.now.getTime() - input.delayMinutes * 60_000).toISOString();
  const due = db
    .select({ id: abandonedCheckouts.id })
    .from(abandonedCheckouts)
    .where(
      and(
        eq(abandonedCheckouts.status, 'open'),
        lte(abandonedCheckouts.typedAt, sql`${dueBefore}::timestamptz`),
        gt(abandonedCheckouts.expiresAt, sql`${now}::timestamptz`),
        sql`not exists (select 1 from ${recoveryOptOuts} where ${recoveryOptOuts.email} = ${abandonedCheckouts.email})`,
      ),
    )
    .orderBy(abandonedCheckouts.typedAt)
    .limit(SWEEP_BATCH)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(abandonedCheckouts)
    .set({ status: 'emailed' })
    .where(and(inArray(abandonedCheckouts.id, due), eq(abandonedCheckouts.status, 'open')))
    .returning({ id: abandonedCheckouts.id });
  return claimed.map((row) => row.id);
}

export interface RecoveryMail {
  email: string;
  name: string;
  lines: KeptLine[];
  valueCents: number;
  restoreKey: string;
  unsubscribeKey: string;
}

/**
 * The keys of a claimed checkout's e-mail, made when it is sent (a retry makes new ones: the
 * e-mail that goes out is the one whose links work). Null when there is nothing to send any
 * more: the checkout became an order meanwhile, expired, was deleted, or its e-mail opted out.
 */
export async function issueRecoveryMail(
  db: Db,
  checkoutId: string,
  now: Date,
): Promise<RecoveryMail | null> {
  const [checkout] = await db
    .select()
    .from(abandonedCheckouts)
    .where(
      and(
        eq(abandonedCheckouts.id, checkoutId),
        eq(abandonedCheckouts.status, 'emailed'),
        gt(abandonedCheckouts.expiresAt, now),
      ),
    );
  if (!checkout || (await isRecoveryOptedOut(db, checkout.email))) return null;
  const restoreKey = newKey();
  const unsubscribeKey = newKey();
  await db.insert(recoveryKeys).values([
    {
      keyHash: hashKey(restoreKey),
      purpose: 'restore',
      checkoutId,
      email: checkout.email,
      expiresAt: checkout.expiresAt,
    },
    {
      keyHash: hashKey(unsubscribeKey),
      purpose: 'unsubscribe',
      checkoutId: null,
      email: checkout.email,
      expiresAt: new Date(now.getTime() + UNSUBSCRIBE_KEY_MS),
    },
  ]);
  return {
    email: checkout.email,
    name: checkout.name,
    lines: checkout.lines,
    valueCents: checkout.valueCents,
    restoreKey,
    unsubscribeKey,
  };
}

/** The claimed checkout's e-mail went (the admin list says when). */
export async function markRecoveryMailSent(db: Db, checkoutId: string, now: Date): Promise<void> {
  await db
    .update(abandonedCheckouts)
    .set({ emailedAt: now })
    .where(eq(abandonedCheckouts.id, checkoutId));
}

/** A restore link for staff to send by hand ('Copiar link', WhatsApp); null for a closed one. */
export async function issueRestoreKey(
  db: Db,
  checkoutId: string,
  now: Date,
): Promise<{ key: string; phone: string; name: string } | null> {
  if (!isUuid(checkoutId)) return null;
  const [checkout] = await db
    .select()
    .from(abandonedCheckouts)
    .where(
      and(
        eq(abandonedCheckouts.id, checkoutId),
        inArray(abandonedCheckouts.status, ['open', 'emailed']),
        gt(abandonedCheckouts.expiresAt, now),
      ),
    );
  if (!checkout) return null;
  const key = newKey();
  await db.insert(recoveryKeys).values({
    keyHash: hashKey(key),
    purpose: 'restore',
    checkoutId,
    email: checkout.email,
    expiresAt: checkout.expiresAt,
  });
  return { key, phone: checkout.phone, name: checkout.name };
}

async function findKey(db: Db, key: string, purpose: RecoveryKeyPurpose, now: Date) {
  if (key.length === 0 || key.length > 100) return null;
  const [found] = await db
    .select()
    .from(recoveryKeys)
    .where(
      and(
        eq(recoveryKeys.keyHash, hashKey(key)),
        eq(recoveryKeys.purpose, purpose),
        gt(recoveryKeys.expiresAt, now),
      ),
    );
  return found ?? null;
}

/**
 * The saved cart a restore key names, while that cart lives and has not become an order; the
 * checkout is marked restored, so an order placed from it counts as recovered.
 */
export async function restoreByKey(
  db: Db,
  key: string,
  now: Date,
): Promise<{ checkoutId: string; lines: KeptLine[] } | null> {
  const found = await findKey(db, key, 'restore', now);
  if (!found?.checkoutId) return null;
  const [checkout] = await db
    .update(abandonedCheckouts)
    .set({ restoredAt: now })
    .where(
      and(
        eq(abandonedCheckouts.id, found.checkoutId),
        inArray(abandonedCheckouts.status, ['open', 'emailed']),
        gt(abandonedCheckouts.expiresAt, now),
      ),
    )
    .returning({ id: abandonedCheckouts.id, lines: abandonedCheckouts.lines });
  return checkout ? { checkoutId: checkout.id, lines: checkout.lines } : null;
}

/** The e-mail an unsubscribe key names (for the confirmation page), or null. */
export async function unsubscribeKeyEmail(db: Db, key: string, now: Date): Promise<string | null> {
  return (await findKey(db, key, 'unsubscribe', now))?.email ?? null;
}

/** Opts out the e-mail an unsubscribe key names; false for an unknown or expired key. */
export async function unsubscribeByKey(db: Db, key: string, now: Date): Promise<boolean> {
  const email = await unsubscribeKeyEmail(db, key, now);
  if (!email) return false;
  await setRecoveryOptOut(db, email, true, now);
  return true;
}

/**
 * In the order's transaction: the browser's saved checkout, and any other still open with the
 * order's e-mail, become `converted`, never to be e-mailed; one restored by a recovery link
 * counts as recovered, with the order's total. A part of the order's own statement (insertOrder's
 * `alongside`), built once for a browser with a saved checkout and once for one without.
 */
export function markCheckoutsConverted(input: {
  checkoutId: string | null;
  email: string;
  orderId: string;
  totalCents: number;
  now: Date;
}): StatementPart<Db> {
  const byBrowser = input.checkoutId !== null && isUuid(input.checkoutId);
  return {
    key: byBrowser ? 'browser' : 'email',
    build: (db) => convertingCheckouts(db, byBrowser),
    values: {
      ...(byBrowser ? { convertedCheckout: input.checkoutId } : {}),
      convertedEmail: normalEmail(input.email),
      convertedOrder: input.orderId,
      convertedTotal: input.totalCents,
      convertedAt: input.now.toISOString(),
    },
  };
}

function convertingCheckouts(db: Db, byBrowser: boolean) {
  const checkoutId = sql.placeholder('convertedCheckout');
  const browsers = byBrowser
    ? and(
        eq(abandonedCheckouts.id, checkoutId),
        inArray(abandonedCheckouts.status, ['open', 'emailed']),
      )
    : undefined;
  const sameEmail = and(
    eq(abandonedCheckouts.email, sql.placeholder('convertedEmail')),
    eq(abandonedCheckouts.status, 'open'),
  );
  const recovered = byBrowser
    ? sql`${abandonedCheckouts.id} = ${checkoutId}::uuid and ${abandonedCheckouts.restoredAt} is not null`
    : sql`false`;
  // `set` takes a placeholder only inside SQL, so its values go as they are, the time as text.
  return db
    .update(abandonedCheckouts)
    .set({
      status: 'converted',
      convertedAt: sql`${sql.placeholder('convertedAt')}::timestamptz`,
      orderId: sql`${sql.placeholder('convertedOrder')}::uuid`,
      orderTotalCents: sql`${sql.placeholder('convertedTotal')}::int`,
      recovered,
    })
    .where(browsers ? or(browsers, sameEmail) : sameEmail);
}

export async function isRecoveryOptedOut(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ email: recoveryOptOuts.email })
    .from(recoveryOptOuts)
    .where(eq(recoveryOptOuts.email, normalEmail(email)));
  return row !== undefined;
}

/** The shopper's choice about recovery e-mails (the checkout's box, the unsubscribe link). */
export async function setRecoveryOptOut(
  db: Db,
  email: string,
  optedOut: boolean,
  now: Date,
): Promise<void> {
  const address = normalEmail(email);
  if (optedOut) {
    await db
      .insert(recoveryOptOuts)
      .values({ email: address, optedOutAt: now })
      .onConflictDoNothing();
  } else {
    await db.delete(recoveryOptOuts).where(eq(recoveryOptOuts.email, address));
  }
}

/** What the recovery holds about an e-mail, for the shopper's data export (LGPD art. 18). */
export interface RecoveryData {
  optedOutAt: Date | null;
  checkouts: {
    name: string;
    phone: string;
    lines: KeptLine[];
    valueCents: number;
    status: AbandonedStatus;
    typedAt: Date;
    emailedAt: Date | null;
    convertedAt: Date | null;
  }[];
}

export async function recoveryDataOf(db: Db, email: string): Promise<RecoveryData> {
  const address = normalEmail(email);
  const [optOut] = await db
    .select()
    .from(recoveryOptOuts)
    .where(eq(recoveryOptOuts.email, address));
  const checkouts = await db
    .select({
      name: abandonedCheckouts.name,
      phone: abandonedCheckouts.phone,
      lines: abandonedCheckouts.lines,
      valueCents: abandonedCheckouts.valueCents,
      status: abandonedCheckouts.status,
      typedAt: abandonedCheckouts.typedAt,
      emailedAt: abandonedCheckouts.emailedAt,
      convertedAt: abandonedCheckouts.convertedAt,
    })
    .from(abandonedCheckouts)
    .where(eq(abandonedCheckouts.email, address))
    .orderBy(desc(abandonedCheckouts.typedAt));
  return { optedOutAt: optOut?.optedOutAt ?? null, checkouts };
}

/**
 * For account deletion: the saved checkouts and links of an e-mail go. The opt-out stays (it
 * holds only the address): deleting it would let the next checkout typed with the address be
 * e-mailed against the shopper's word. Answers how many checkouts went.
 */
export async function deleteRecoveryData(db: Db, email: string): Promise<number> {
  const address = normalEmail(email);
  await db.delete(recoveryKeys).where(eq(recoveryKeys.email, address));
  const deleted = await db
    .delete(abandonedCheckouts)
    .where(eq(abandonedCheckouts.email, address))
    .returning({ id: abandonedCheckouts.id });
  return deleted.length;
}

/**
 * Going live: every saved checkout of the demo goes (its shoppers were the merchant trying the
 * store; its orders and sample products go too). The opt-outs stay: they are real people's word.
 */
export async function deleteAllAbandonedCheckouts(db: Db): Promise<number> {
  await db.delete(recoveryKeys).where(eq(recoveryKeys.purpose, 'restore'));
  const deleted = await db.delete(abandonedCheckouts).returning({ id: abandonedCheckouts.id });
  return deleted.length;
}

/** Saved checkouts whose cart expired, and expired links, go (the background sweep). */
export async function deleteExpiredRecovery(db: Db, now: Date): Promise<number> {
  await db.delete(recoveryKeys).where(lte(recoveryKeys.expiresAt, now));
  const deleted = await db
    .delete(abandonedCheckouts)
    .where(
      and(
        lte(abandonedCheckouts.expiresAt, now),
        inArray(abandonedCheckouts.status, ['open', 'emailed']),
      ),
    )
    .returning({ id: abandonedCheckouts.id });
  return deleted.length;
}

export interface AbandonedCheckoutRow {
  id: string;
  email: string;
  name: string;
  phone: string;
  lines: KeptLine[];
  valueCents: number;
  status: AbandonedStatus;
  typedAt: Date;
  emailedAt: Date | null;
  recovered: boolean;
  orderId: string | null;
  expired: boolean;
}

/** The admin list, newest first, one page at a time. */
export async function listAbandonedCheckouts(
  db: Db,
  page: { offset: number; limit: number },
  now: Date,
): Promise<{ rows: AbandonedCheckoutRow[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: abandonedCheckouts.id,
        email: abandonedCheckouts.email,
        name: abandonedCheckouts.name,
        phone: abandonedCheckouts.phone,
        lines: abandonedCheckouts.lines,
        valueCents: abandonedCheckouts.valueCents,
        status: abandonedCheckouts.status,
        typedAt: abandonedCheckouts.typedAt,
        emailedAt: abandonedCheckouts.emailedAt,
        recovered: abandonedCheckouts.recovered,
        orderId: abandonedCheckouts.orderId,
        expiresAt: abandonedCheckouts.expiresAt,
      })
      .from(abandonedCheckouts)
      .orderBy(desc(abandonedCheckouts.typedAt), desc(abandonedCheckouts.id))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ total: count() }).from(abandonedCheckouts),
  ]);
  return {
    rows: rows.map(({ expiresAt, ...row }) => ({ ...row, expired: expiresAt <= now })),
    total: counted?.total ?? 0,
  };
}

/** Orders that came through a recovery link in the store's days `range`: how many, and their total. */
export async function recoveredSales(
  db: Db,
  range: DayRange,
  timeZone: string,
): Promise<{ orders: number; cents: number }> {
  const day = sql`(${abandonedCheckouts.convertedAt} at time zone ${timeZone})::date`;
  const [row] = await db
    .select({
      orders: sql<number>`count(*)::int`.mapWith(Number),
      cents: sql<number>`coalesce(sum(${abandonedCheckouts.orderTotalCents}), 0)::bigint`.mapWith(
        Number,
      ),
    })
    .from(abandonedCheckouts)
    .where(
      and(
        eq(abandonedCheckouts.recovered, true),
        sql`${day} between ${range.from}::date and ${range.to}::date`,
      ),
    );
  return { orders: row?.orders ?? 0, cents: row?.cents ?? 0 };
}
