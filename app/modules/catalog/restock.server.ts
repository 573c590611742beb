import { createHash, randomBytes } from 'node:crypto';

import { and, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';

import type { Db } from '~/db/database.server';
import { textError } from '~/lib/form';
import { isUuid } from '~/lib/uuid';

import { RESTOCK_EMAIL_MAX, RESTOCK_LIST_LIMIT, RESTOCK_MESSAGES } from './restock';
import {
  products,
  productVariants,
  restockRequests,
  type ProductOption,
  type VariantOptionValue,
} from './schema';
import { chooseOptions, optionValuesOf } from './variant-label';

const restockTarget = (message: string) =>
  z.preprocess(
    // A form without the field, or with it empty, names nothing.
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z
      .string({ error: textError(message) })
      .max(64, { error: message })
      .optional(),
  );

/**
 * The form on a sold-out product's page: which variant (`variantId`; `productId` alone names a
 * product sold as one variant), and where to write.
 */
export const restockFormSchema = z
  .object({
    productId: restockTarget(RESTOCK_MESSAGES.product),
    variantId: restockTarget(RESTOCK_MESSAGES.product),
    email: z
      .string({ error: textError(RESTOCK_MESSAGES.email) })
      .trim()
      .toLowerCase()
      .min(1, { error: RESTOCK_MESSAGES.email, abort: true })
      .max(RESTOCK_EMAIL_MAX, { error: RESTOCK_MESSAGES.email, abort: true })
      .pipe(z.email({ error: RESTOCK_MESSAGES.email })),
  })
  .refine((form) => form.productId !== undefined || form.variantId !== undefined, {
    error: RESTOCK_MESSAGES.product,
    path: ['productId'],
  });

export type RestockForm = z.output<typeof restockFormSchema>;

/** The variant a restock request awaits, as its page and e-mails name it. */
export interface RestockProduct {
  /** The product's id. */
  id: string;
  /** The product's name. */
  name: string;
  slug: string;
  variantId: string;
  sku: string;
  /** The variant's values ('Tamanho' 'G'); empty for a product sold without options. */
  options: VariantOptionValue[];
}

const variantColumns = {
  id: products.id,
  name: products.name,
  slug: products.slug,
  variantId: productVariants.id,
  sku: productVariants.sku,
  option1: productVariants.option1,
  option2: productVariants.option2,
  option3: productVariants.option3,
  productOptions: products.options,
};

type VariantRow = {
  id: string;
  name: string;
  slug: string;
  variantId: string;
  sku: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  productOptions: ProductOption[];
};

function toRestockProduct(row: VariantRow): RestockProduct {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    variantId: row.variantId,
    sku: row.sku,
    options: optionValuesOf(row.productOptions, row),
  };
}

export type RestockTarget =
  | { ok: true; product: RestockProduct; stock: number }
  | { ok: false; reason: 'missing' }
  /** `productId` alone for a product of several variants: which one is awaited? */
  | { ok: false; reason: 'choose'; message: string; product: RestockProduct };

/**
 * The variant of a restock form with its stock: the one named, or the only one of the product
 * named. Unknown or malformed ids are missing.
 */
export async function findRestockProduct(
  db: Db,
  wanted: { productId?: string; variantId?: string },
): Promise<RestockTarget> {
  const { productId, variantId } = wanted;
  const malformed = (id: string | undefined) => id !== undefined && !isUuid(id);
  if ((productId ?? variantId) === undefined || malformed(productId) || malformed(variantId)) {
    return { ok: false, reason: 'missing' };
  }
  const rows = await db
    .select({ ...variantColumns, stock: productVariants.stockQuantity })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      variantId !== undefined
        ? and(
            eq(productVariants.id, variantId),
            productId === undefined ? undefined : eq(productVariants.productId, productId),
          )
        : eq(productVariants.productId, productId!),
    )
    .orderBy(productVariants.position, productVariants.createdAt)
    .limit(2);
  const [first, second] = rows;
  if (!first) return { ok: false, reason: 'missing' };
  const product = toRestockProduct(first);
  if (second)
    return { ok: false, reason: 'choose', message: chooseOptions(product.options), product };
  return { ok: true, product, stock: first.stock };
}

export type RestockRequestResult =
  /**
   * `confirmationDue` names the request whose confirmation e-mail is to be queued now: a new
   * request, or one still unconfirmed whose last e-mail is older than RESTOCK_RESEND_AFTER_MS.
   * Null when nothing is to be sent (already confirmed, or asked again too soon).
   */
  | { ok: true; confirmationDue: string | null; product: RestockProduct }
  | { ok: false; reason: 'missing' }
  | Extract<RestockTarget, { reason: 'choose' }>
  | { ok: false; reason: 'in-stock'; product: RestockProduct };

/** An unconfirmed request asked again gets another confirmation e-mail only after this. */
export const RESTOCK_RESEND_AFTER_MS = 60 * 60_000;
/** An unconfirmed request is deleted this long after its latest confirmation e-mail. */
const RESTOCK_CONFIRM_DAYS = 7;

const confirmCutoff = (now: Date) => new Date(now.getTime() - RESTOCK_CONFIRM_DAYS * 86_400_000);

/**
 * Records that `email` wants to hear when the sold-out variant returns, pending confirmation.
 * Asking twice leaves one open request (the unique index on open requests decides, even for two
 * requests at once), and queues at most one confirmation e-mail per RESTOCK_RESEND_AFTER_MS (the
 * row's lock decides between two at once). A variant in stock is refused: nothing to wait for.
 * Call it in the transaction that queues the confirmation e-mail it answers.
 */
export async function requestRestockAlert(
  db: Db,
  input: { productId?: string; variantId?: string; email: string },
  now = new Date(),
): Promise<RestockRequestResult> {
  const found = await findRestockProduct(db, input);
  if (!found.ok) return found;
  const { product: named, stock } = found;
  if (stock > 0) return { ok: false, reason: 'in-stock', product: named };
  const [inserted] = await db
    .insert(restockRequests)
    .values({
      productId: named.id,
      variantId: named.variantId,
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
        eq(restockRequests.variantId, named.variantId),
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
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        eq(restockRequests.id, requestId),
        isNull(restockRequests.confirmedAt),
        isNull(restockRequests.notifiedAt),
        eq(productVariants.id, restockRequests.variantId),
      ),
    )
    .returning({ email: restockRequests.email, ...variantColumns });
  if (!row) return null;
  return { email: row.email, product: toRestockProduct(row), token };
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
      ...variantColumns,
    })
    .from(restockRequests)
    .innerJoin(productVariants, eq(productVariants.id, restockRequests.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
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
    product: toRestockProduct(row),
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
 * Closes (notified_at = now) every open, confirmed request of these products whose awaited
 * variant is in stock now (unconfirmed ones wait for their confirmation, or expire), and
 * answers them so the caller can queue their e-mails in the same transaction. Run it after
 * writing the stock: a variant still at 0 keeps its requests, and a request closed once is never
 * answered again (two transactions at once: the second waits for the first's row locks, then
 * finds the rows closed).
 */
export async function takeRestockAlerts(
  db: Db,
  productIds: readonly string[],
  now = new Date(),
): Promise<RestockAlert[]> {
  const ids = [...new Set(productIds)].filter(isUuid);
  const alerts: RestockAlert[] = [];
  for (let start = 0; start < ids.length; start += CHUNK) {
    const closed = await db
      .update(restockRequests)
      .set({ notifiedAt: now })
      .from(productVariants)
      .where(
        and(
          inArray(restockRequests.productId, ids.slice(start, start + CHUNK)),
          isNull(restockRequests.notifiedAt),
          isNotNull(restockRequests.confirmedAt),
          eq(productVariants.id, restockRequests.variantId),
          gt(productVariants.stockQuantity, 0),
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

/** What the restock e-mail says: to whom, and about which variant (null once deleted). */
export async function getRestockAlert(
  db: Db,
  requestId: string,
): Promise<{ email: string; product: RestockProduct } | null> {
  if (!isUuid(requestId)) return null;
  const [row] = await db
    .select({ email: restockRequests.email, ...variantColumns })
    .from(restockRequests)
    .innerJoin(productVariants, eq(productVariants.id, restockRequests.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(restockRequests.id, requestId));
  if (!row) return null;
  return { email: row.email, product: toRestockProduct(row) };
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

/** Every 'Avise-me' request left with this e-mail, for the shopper's data export. */
export function restockRequestsOfEmail(db: Db, email: string) {
  return db
    .select({
      productId: restockRequests.productId,
      variantId: restockRequests.variantId,
      askedAt: restockRequests.createdAt,
      confirmedAt: restockRequests.confirmedAt,
      notifiedAt: restockRequests.notifiedAt,
    })
    .from(restockRequests)
    .where(eq(sql`lower(${restockRequests.email})`, email.toLowerCase()))
    .orderBy(desc(restockRequests.createdAt));
}

/** A deleted account's 'Avise-me' requests go with it. */
export async function deleteRestockRequestsOfEmail(db: Db, email: string): Promise<void> {
  await db
    .delete(restockRequests)
    .where(eq(sql`lower(${restockRequests.email})`, email.toLowerCase()));
}
