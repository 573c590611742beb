import { and, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';

import { isUuid } from '~/db/columns';
import type { Db } from '~/db/database.server';
import { text } from '~/lib/form';

import { RESTOCK_EMAIL_MAX, RESTOCK_LIST_LIMIT, RESTOCK_MESSAGES } from './restock';
import { products, restockRequests } from './schema';

/** The form on a sold-out product's page: which product, and where to write. */
export const restockFormSchema = z.object({
  productId: text(RESTOCK_MESSAGES.product).max(64, { error: RESTOCK_MESSAGES.product }),
  email: text(RESTOCK_MESSAGES.email)
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
  /** `created` is false when this e-mail already waits for this product: nothing new. */
  | { ok: true; created: boolean; product: RestockProduct }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'in-stock'; product: RestockProduct };

/**
 * Records that `email` wants to hear when the sold-out product returns. Asking twice leaves one
 * open request (the unique index on open requests decides, even for two requests at once); a
 * product in stock is refused, since there is nothing to wait for.
 */
export async function requestRestockAlert(
  db: Db,
  input: { productId: string; email: string },
): Promise<RestockRequestResult> {
  const product = await findRestockProduct(db, input.productId);
  if (!product) return { ok: false, reason: 'missing' };
  const { stock, ...named } = product;
  if (stock > 0) return { ok: false, reason: 'in-stock', product: named };
  const inserted = await db
    .insert(restockRequests)
    .values({ productId: product.id, email: input.email })
    .onConflictDoNothing()
    .returning({ id: restockRequests.id });
  return { ok: true, created: inserted.length > 0, product: named };
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
 * Closes (notified_at = now()) every open request of these products that are in stock now, and
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

/** The product's open requests for staff: how many, and the newest RESTOCK_LIST_LIMIT. */
export async function listRestockRequests(
  db: Db,
  productId: string,
): Promise<{ open: number; requests: { email: string; createdAt: Date }[] }> {
  if (!isUuid(productId)) return { open: 0, requests: [] };
  const open = and(eq(restockRequests.productId, productId), isNull(restockRequests.notifiedAt));
  const [[total], requests] = await Promise.all([
    db.select({ open: count() }).from(restockRequests).where(open),
    db
      .select({ email: restockRequests.email, createdAt: restockRequests.createdAt })
      .from(restockRequests)
      .where(open)
      .orderBy(desc(restockRequests.createdAt), desc(restockRequests.id))
      .limit(RESTOCK_LIST_LIMIT),
  ]);
  return { open: total?.open ?? 0, requests };
}
