import { createHash, randomBytes } from 'node:crypto';

import { and, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';

import type { Db } from '~/db/database.server';
import { textError } from '~/lib/form';
import { isUuid } from '~/lib/uuid';

import { RESTOCK_EMAIL_MAX, RESTOCK_LIST_LIMIT, RESTOCK_MESSAGES } from './restock';
import { products, restockRequests } from './schema';

/** The form on a sold-out product's page: which product, and where to write. */
export const restockFormSchema = z.object({
  productId: z
    .string({ error: textError(RESTOCK_MESSAGES.product) })
    .max(64, { error: RESTOCK_MESSAGES.product }),
  email: z
    .string({ error: textError(RESTOCK_MESSAGES.email) })
    .trim()
    .toLowerCase()
    .min(1, { error: RESTOCK_MESSAGES.email, abort: true })
    .max(RESTOCK_EMAIL_MAX, { error: RESTOCK_MESSAGES.email, abort: true })
    .pipe(z.email({ error: RESTOCK_MESSAGES.email })),
});

export type RestockForm = z.output<typeof restockFormSchema>;

/** The product a restock request is about, as its page and e-mail name it. */
export interface RestockProduct {
  id: string;
  name: string;
  slug: string;
}

/** The product of a restock form, with its stock; null for an unknown or malformed id. */
export async function findRestockProduct(
  db: Db,
  productId: string,
): Promise<(RestockProduct & { stock: number }) | null> {
  if (!isUuid(productId)) return null;
  const [product] = await db
    .select({
      id: products.id,
      name: products.name,
      slug: products.slug,
      stock: products.stockQuantity,
    })
    .from(products)
    .where(eq(products.id, productId));
  return product ?? null;
}

export type RestockRequestResult =
  /**
   * `confirmationDue` names the request whose confirmation e-mail is to be queued now: a new
   * request, or one still unconfirmed whose last e-mail is older than RESTOCK_RESEND_AFTER_MS.
   * Null when nothing is to be sent (already confirmed, or asked again too soon).
   */
  | { ok: true; confirmationDue: string | null; product: RestockProduct }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'in-stock'; product: RestockProduct };

/** An unconfirmed request asked again gets another confirmation e-mail only after this. */
export const RESTOCK_RESEND_AFTER_MS = 60 * 60_000;
/** An unconfirmed request is deleted this long after its latest confirmation e-mail. */
const RESTOCK_CONFIRM_DAYS = 7;

const confirmCutoff = (now: Date) => new Date(now.getTime() - RESTOCK_CONFIRM_DAYS * 86_400_000);

/**
 * Records that `email` wants to hear when the sold-out product returns, pending confirmation.
 * Asking twice leaves one open request (the unique index on open requests decides, even for two
 * requests at once), and queues at most one confirmation e-mail per RESTOCK_RESEND_AFTER_MS (the
 * row's lock decides between two at once). A product in stock is refused: nothing to wait for.
 * Call it in the transaction that queues the confirmation e-mail it answers.
 */
export async function requestRestockAlert(
  db: Db,
  input: { productId: string; email: string },
  now = new Date(),
): Promise<RestockRequestResult> {
  const product = await findRestockProduct(db, input.productId);
  if (!product) return { ok: false, reason: 'missing' };
  const { stock, ...named } = product;
  if (stock > 0) return { ok: false, reason: 'in-stock', product: named };
  const [inserted] = await db
    .insert(restockRequests)
    .values({
      productId: product.id,
      variantId: sql`(select id from product_variants where product_id = ${product.id} order by position, id limit 1)`,
      email: input.email,
      confirmationSentAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: restockRequests.id });
  if (inserted) return { ok: true, confirmationDue: inserted.id, product: named };
  const [resent] = await db
    .update(restockRequests)
    .set({ confirmationSentAt: now })
    .where(
      and(
        eq(restockRequests.productId, product.id),
        eq(restockRequests.email, input.email),
        isNull(restockRequests.notifiedAt),
        isNull(restockRequests.confirmedAt),
        lt(restockRequests.confirmationSentAt, new Date(now.getTime() - RESTOCK_RESEND_AFTER_MS)),
      ),
    )
    .returning({ id: restockRequests.id });
  return { ok: true, confirmationDue: resent?.id ?? null, product: named };
}

/** What a confirmation e-mail says, and the token its link carries. */
export interface RestockConfirmation {
  email: string;
  product: RestockProduct;
  token: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new token for the confirmation e-mail of this request: only its hash is kept, replacing the
 * previous one (a resent e-mail's link is the one that works). Null when there is nothing to
 * confirm any more: the request was confirmed, closed, or deleted with its product.
 */
export async function issueRestockConfirmation(
  db: Db,
  requestId: string,
): Promise<RestockConfirmation | null> {
  if (!isUuid(requestId)) return null;
  const token = randomBytes(32).toString('base64url');
  const [row] = await db
    .update(restockRequests)
    .set({ confirmTokenHash: hashToken(token) })
    .from(products)
    .where(
      and(
        eq(restockRequests.id, requestId),
        isNull(restockRequests.confirmedAt),
        isNull(restockRequests.notifiedAt),
        eq(products.id, restockRequests.productId),
      ),
    )
    .returning({
      email: restockRequests.email,
      id: products.id,
      name: products.name,
      slug: products.slug,
    });
  if (!row) return null;
  return { email: row.email, product: { id: row.id, name: row.name, slug: row.slug }, token };
}

/** The request a confirmation link names, while it can still be confirmed (or already is). */
export interface PendingRestockRequest {
  productId: string;
  email: string;
  product: RestockProduct;
  confirmed: boolean;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The open request of a confirmation token, or null for an unknown, expired or closed one. */
export async function findRestockRequestByToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<PendingRestockRequest | null> {
  if (!TOKEN.test(token)) return null;
  const [row] = await db
    .select({
      email: restockRequests.email,
      confirmedAt: restockRequests.confirmedAt,
      id: products.id,
      name: products.name,
      slug: products.slug,
    })
    .from(restockRequests)
    .innerJoin(products, eq(products.id, restockRequests.productId))
    .where(
      and(
        eq(restockRequests.confirmTokenHash, hashToken(token)),
        isNull(restockRequests.notifiedAt),
        or(
          isNotNull(restockRequests.confirmedAt),
          gte(restockRequests.confirmationSentAt, confirmCutoff(now)),
        ),
      ),
    );
  if (!row) return null;
  return {
    productId: row.id,
    email: row.email,
    product: { id: row.id, name: row.name, slug: row.slug },
    confirmed: row.confirmedAt !== null,
  };
}

/**
 * Confirms the request of this token (confirming twice is harmless). Answers the request, or
 * null for an unknown, expired or closed token. Call it in the transaction that then queues the
 * restock e-mail if the product is already back.
 */
export async function confirmRestockRequest(
  db: Db,
  token: string,
  now = new Date(),
): Promise<PendingRestockRequest | null> {
  const found = await findRestockRequestByToken(db, token, now);
  if (!found || found.confirmed) return found;
  const [confirmed] = await db
    .update(restockRequests)
    .set({ confirmedAt: now })
    .where(
      and(
        eq(restockRequests.confirmTokenHash, hashToken(token)),
        isNull(restockRequests.notifiedAt),
      ),
    )
    .returning({ id: restockRequests.id });
  return confirmed ? { ...found, confirmed: true } : null;
}

/** Deletes the requests left unconfirmed RESTOCK_CONFIRM_DAYS after their last e-mail. */
export async function deleteExpiredRestockRequests(db: Db, now = new Date()): Promise<number> {
  const deleted = await db
    .delete(restockRequests)
    .where(
      and(
        isNull(restockRequests.confirmedAt),
        lt(restockRequests.confirmationSentAt, confirmCutoff(now)),
      ),
    )
    .returning({ id: restockRequests.id });
  return deleted.length;
}

/** An open request closed because its product is back: the e-mail it is owed. */
export interface RestockAlert {
  requestId: string;
  productId: string;
  email: string;
}

// Ids per statement, as the CSV import writes products in chunks of this size.
const CHUNK = 500;

/**
 * Closes (notified_at = now()) every open, confirmed request of these products that are in stock
 * now (unconfirmed ones wait for their confirmation, or expire), and
 * answers them so the caller can queue their e-mails in the same transaction. Run it after
 * writing the stock: a product still at 0 keeps its requests, and a request closed once is never
 * answered again (two transactions at once: the second waits for the first's row locks, then
 * finds the rows closed).
 */
export async function takeRestockAlerts(
  db: Db,
  productIds: readonly string[],
): Promise<RestockAlert[]> {
  const ids = [...new Set(productIds)].filter(isUuid);
  const alerts: RestockAlert[] = [];
  for (let start = 0; start < ids.length; start += CHUNK) {
    const closed = await db
      .update(restockRequests)
      .set({ notifiedAt: sql`now()` })
      .from(products)
      .where(
        and(
          inArray(restockRequests.productId, ids.slice(start, start + CHUNK)),
          isNull(restockRequests.notifiedAt),
          isNotNull(restockRequests.confirmedAt),
          eq(products.id, restockRequests.productId),
          gt(products.stockQuantity, 0),
        ),
      )
      .returning({
        requestId: restockRequests.id,
        productId: restockRequests.productId,
        email: restockRequests.email,
      });
    alerts.push(...closed);
  }
  return alerts;
}

/** What the restock e-mail says: to whom, and about which product (null once deleted). */
export async function getRestockAlert(
  db: Db,
  requestId: string,
): Promise<{ email: string; product: RestockProduct } | null> {
  if (!isUuid(requestId)) return null;
  const [row] = await db
    .select({
      email: restockRequests.email,
      id: products.id,
      name: products.name,
      slug: products.slug,
    })
    .from(restockRequests)
    .innerJoin(products, eq(products.id, restockRequests.productId))
    .where(eq(restockRequests.id, requestId));
  if (!row) return null;
  return { email: row.email, product: { id: row.id, name: row.name, slug: row.slug } };
}

/**
 * The product's open requests for staff: how many are confirmed (the newest RESTOCK_LIST_LIMIT
 * of them listed), and how many still wait for their address to confirm.
 */
export async function listRestockRequests(
  db: Db,
  productId: string,
): Promise<{
  open: number;
  unconfirmed: number;
  requests: { email: string; createdAt: Date }[];
}> {
  if (!isUuid(productId)) return { open: 0, unconfirmed: 0, requests: [] };
  const open = and(eq(restockRequests.productId, productId), isNull(restockRequests.notifiedAt));
  const confirmed = and(open, isNotNull(restockRequests.confirmedAt));
  const [[total], requests] = await Promise.all([
    db
      .select({
        open: sql<number>`(count(*) filter (where ${restockRequests.confirmedAt} is not null))::int`,
        unconfirmed: sql<number>`(count(*) filter (where ${restockRequests.confirmedAt} is null))::int`,
      })
      .from(restockRequests)
      .where(open),
    db
      .select({ email: restockRequests.email, createdAt: restockRequests.createdAt })
      .from(restockRequests)
      .where(confirmed)
      .orderBy(desc(restockRequests.createdAt), desc(restockRequests.id))
      .limit(RESTOCK_LIST_LIMIT),
  ]);
  return { open: total?.open ?? 0, unconfirmed: total?.unconfirmed ?? 0, requests };
}
