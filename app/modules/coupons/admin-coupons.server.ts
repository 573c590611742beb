import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { hasSqlState, isUniqueViolation } from '~/db/errors.server';

import { COUPON_FORM_MESSAGES, type CouponForm } from './coupon-form';
import { coupons, type CouponKind } from './schema';

/** A coupon as the admin's list, form and CSV show it. */
export interface AdminCoupon {
  id: string;
  code: string;
  kind: CouponKind;
  value: number;
  minSubtotalCents: number;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  usageLimitPerCustomer: number | null;
  firstPurchaseOnly: boolean;
  productIds: string[];
  categoryIds: string[];
  active: boolean;
  usedCount: number;
  createdAt: Date;
}

const columns = {
  id: coupons.id,
  code: coupons.code,
  kind: coupons.kind,
  value: coupons.value,
  minSubtotalCents: coupons.minSubtotalCents,
  startsAt: coupons.startsAt,
  endsAt: coupons.endsAt,
  usageLimit: coupons.usageLimit,
  usageLimitPerCustomer: coupons.usageLimitPerCustomer,
  firstPurchaseOnly: coupons.firstPurchaseOnly,
  productIds: coupons.productIds,
  categoryIds: coupons.categoryIds,
  active: coupons.active,
  usedCount: coupons.usedCount,
  createdAt: coupons.createdAt,
};

const NEWEST_FIRST = [desc(coupons.createdAt), desc(coupons.id)];

/** One page of the coupons, newest first; a page past the last gives the last. */
export async function listAdminCoupons(
  db: Db,
  options: { page: number; perPage: number },
): Promise<{ coupons: AdminCoupon[]; total: number; page: number; pageCount: number }> {
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(coupons);
  const pageCount = Math.max(1, Math.ceil(total / options.perPage));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const rows =
    total === 0
      ? []
      : await db
          .select(columns)
          .from(coupons)
          .orderBy(...NEWEST_FIRST)
          .limit(options.perPage)
          .offset((page - 1) * options.perPage);
  return { coupons: rows, total, page, pageCount };
}

/** Every coupon, newest first (the CSV: a store has tens or hundreds, never millions). */
export function listAllCoupons(db: Db): Promise<AdminCoupon[]> {
  return db
    .select(columns)
    .from(coupons)
    .orderBy(...NEWEST_FIRST);
}

/** What a change answers: `status` is the HTTP status a refusal deserves. */
export type CouponChange =
  | { ok: true; id: string }
  | {
      ok: false;
      status: 404 | 409;
      error: string;
      field?: 'code' | 'usageLimit' | 'productIds' | 'categoryIds';
    };

const taken = {
  ok: false,
  status: 409,
  error: COUPON_FORM_MESSAGES.codeTaken,
  field: 'code',
} as const;
const notFound = { ok: false, status: 404, error: COUPON_FORM_MESSAGES.notFound } as const;

/** A wall-clock text ('2026-12-01T10:00') as the moment it names in the store's time zone. */
function storeMoment(wallClock: string | null, timeZone: string) {
  return wallClock === null ? null : sql`(${wallClock}::timestamp at time zone ${timeZone})`;
}

function rowValues(form: CouponForm, timeZone: string) {
  return {
    code: form.code,
    kind: form.kind,
    value: form.value,
    minSubtotalCents: form.minSubtotalCents,
    startsAt: storeMoment(form.startsAt, timeZone),
    endsAt: storeMoment(form.endsAt, timeZone),
    usageLimit: form.usageLimit,
    usageLimitPerCustomer: form.usageLimitPerCustomer,
    firstPurchaseOnly: form.firstPurchaseOnly,
    productIds: form.productIds,
    categoryIds: form.categoryIds,
    active: form.active,
  };
}

async function codeTaken(db: Db, code: string, exceptId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: coupons.id })
    .from(coupons)
    .where(and(eq(coupons.code, code), ne(coupons.id, exceptId)))
    .limit(1);
  return row !== undefined;
}

// ON DELETE RESTRICT reports restrict_violation (23001); NO ACTION, foreign_key_violation.
function isForeignKeyViolation(error: unknown): boolean {
  return hasSqlState(error, '23001') || hasSqlState(error, '23503');
}

/**
 * Creates a coupon with the form's own key as its id. The same form sent again (a double click,
 * a resend) finds its coupon and changes nothing; another form reusing the key is refused.
 */
export async function createCoupon(
  db: Db,
  form: CouponForm,
  options: { timeZone: string },
): Promise<CouponChange> {
  const [existing] = await db
    .select({ code: coupons.code })
    .from(coupons)
    .where(eq(coupons.id, form.id));
  if (existing) {
    return existing.code === form.code
      ? { ok: true, id: form.id }
      : { ok: false, status: 409, error: COUPON_FORM_MESSAGES.formReused };
  }
  if (await codeTaken(db, form.code, form.id)) return taken;
  try {
    await db
      .insert(coupons)
      .values({ id: form.id, ...rowValues(form, options.timeZone) })
      .onConflictDoNothing({ target: coupons.id });
  } catch (error) {
    if (isUniqueViolation(error)) return taken;
    throw error;
  }
  return { ok: true, id: form.id };
}

/**
 * Saves a coupon's form. Its uses so far stay: a total limit below them is refused by the
 * table's check, and said as such.
 */
export async function updateCoupon(
  db: Db,
  form: CouponForm,
  options: { timeZone: string },
): Promise<CouponChange> {
  if (await codeTaken(db, form.code, form.id)) return taken;
  const [current] = await db
    .select({ usedCount: coupons.usedCount })
    .from(coupons)
    .where(eq(coupons.id, form.id));
  if (!current) return notFound;
  const belowUses = {
    ok: false,
    status: 409,
    error: COUPON_FORM_MESSAGES.limitBelowUses,
    field: 'usageLimit',
  } as const;
  if (form.usageLimit !== null && form.usageLimit < current.usedCount) {
    return belowUses;
  }
  try {
    const [updated] = await db
      .update(coupons)
      .set({ ...rowValues(form, options.timeZone), updatedAt: new Date() })
      .where(eq(coupons.id, form.id))
      .returning({ id: coupons.id });
    return updated ? { ok: true, id: updated.id } : notFound;
  } catch (error) {
    if (isUniqueViolation(error)) return taken;
    // An order took the last uses between the check above and this update.
    if (hasSqlState(error, '23514') && form.usageLimit !== null) return belowUses;
    throw error;
  }
}

/** 'Ativar' / 'Desativar': a deactivated coupon is refused at the cart and the checkout. */
export async function setCouponActive(
  db: Db,
  input: { id: string; active: boolean },
): Promise<CouponChange> {
  const [updated] = await db
    .update(coupons)
    .set({ active: input.active, updatedAt: new Date() })
    .where(eq(coupons.id, input.id))
    .returning({ id: coupons.id });
  return updated ? { ok: true, id: updated.id } : notFound;
}

/**
 * Deletes a coupon no order used. An order's adjustment keeps the coupon it names (the foreign
 * key restricts), also after its use was given back by a cancellation: such a coupon can only
 * be deactivated.
 */
export async function deleteCoupon(db: Db, id: string): Promise<CouponChange> {
  const used = { ok: false, status: 409, error: COUPON_FORM_MESSAGES.used } as const;
  const [current] = await db
    .select({ usedCount: coupons.usedCount })
    .from(coupons)
    .where(eq(coupons.id, id));
  if (!current) return notFound;
  if (current.usedCount > 0) return used;
  try {
    const deleted = await db
      .delete(coupons)
      .where(eq(coupons.id, id))
      .returning({ id: coupons.id });
    return deleted.length > 0 ? { ok: true, id } : notFound;
  } catch (error) {
    if (isForeignKeyViolation(error)) return used;
    throw error;
  }
}

/** A coupon row as the sample store writes it, with its own fixed id. */
export type CouponRecord = typeof coupons.$inferInsert & { id: string };

/** Writes a coupon by id, putting its fields back when it exists (the sample store's seed). */
export async function putCoupon(db: Db, coupon: CouponRecord): Promise<void> {
  const { id: _id, usedCount: _usedCount, ...values } = coupon;
  await db
    .insert(coupons)
    .values(coupon)
    .onConflictDoUpdate({ target: coupons.id, set: { ...values, updatedAt: new Date() } });
}

/**
 * Deletes these coupons whatever their uses (the sample ones, when a demo store goes live):
 * the caller has deleted the orders that named them first.
 */
export async function deleteCouponRows(db: Db, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await db
    .delete(coupons)
    .where(inArray(coupons.id, [...ids]))
    .returning({ id: coupons.id });
  return deleted.length;
}

/**
 * Takes deleted products and categories out of the coupons that name them. A coupon left naming
 * nothing would apply to every product (empty lists mean the whole store): it is deactivated
 * instead, for staff to look at.
 */
export async function forgetCouponTargets(
  db: Db,
  ids: { productIds: readonly string[]; categoryIds: readonly string[] },
): Promise<void> {
  if (ids.productIds.length === 0 && ids.categoryIds.length === 0) return;
  const productIds = sql`${`{${ids.productIds.join(',')}}`}::uuid[]`;
  const categoryIds = sql`${`{${ids.categoryIds.join(',')}}`}::uuid[]`;
  const keptProducts = sql`array(select id from unnest(${coupons.productIds}) as kept(id) where id <> all(${productIds}))`;
  const keptCategories = sql`array(select id from unnest(${coupons.categoryIds}) as kept(id) where id <> all(${categoryIds}))`;
  await db
    .update(coupons)
    .set({
      productIds: keptProducts,
      categoryIds: keptCategories,
      active: sql`${coupons.active} and (cardinality(${keptProducts}) > 0 or cardinality(${keptCategories}) > 0)`,
      updatedAt: new Date(),
    })
    .where(sql`${coupons.productIds} && ${productIds} or ${coupons.categoryIds} && ${categoryIds}`);
}
