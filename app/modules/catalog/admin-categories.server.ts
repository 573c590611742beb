import { and, count, desc, eq, ne, sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { isUuid } from '~/lib/uuid';

import { CATEGORY_MESSAGES, productCountSentence } from './category-form';
import { categories, products } from './schema';

/** A category as the admin's grid shows it. */
export interface AdminCategory {
  id: string;
  name: string;
  description: string | null;
  featured: boolean;
  productCount: number;
  createdAt: Date;
}

/** Newest first, as SPEC §7 lists them in the admin, each with its number of products. */
export async function listAdminCategories(db: Db): Promise<AdminCategory[]> {
  const counts = db
    .select({ categoryId: products.categoryId, n: count().as('n') })
    .from(products)
    .groupBy(products.categoryId)
    .as('counts');
  return db
    .select({
      id: categories.id,
      name: categories.name,
      description: categories.description,
      featured: categories.featured,
      productCount: sql<number>`coalesce(${counts.n}, 0)::int`,
      createdAt: categories.createdAt,
    })
    .from(categories)
    .leftJoin(counts, eq(counts.categoryId, categories.id))
    .orderBy(desc(categories.createdAt), desc(categories.id));
}

/** What a change answers: `status` is the HTTP status a refusal deserves. */
export type CategoryChange =
  | { ok: true; id: string }
  | { ok: false; status: 400 | 404 | 409; error: string; field?: 'name' | 'targetId' | 'products' };

// One lock for the changes that must take turns: names (unique ignoring case and accents, with no
// index to enforce it), deletes that move products, and the CSV import that creates categories.
const CATEGORIES_LOCK = sql`select pg_advisory_xact_lock(hashtext('vitrine:categories'))`;

/** Takes the categories' lock until the transaction ends (pass a transaction). */
export async function lockCategories(tx: Db): Promise<void> {
  await tx.execute(CATEGORIES_LOCK);
}

// vitrine_fold() (migration 0002) ignores case and accents: 'Áudio' and 'audio' are one name.
async function nameTaken(db: Db, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(
      and(
        sql`vitrine_fold(${categories.name}) = vitrine_fold(${name})`,
        exceptId ? ne(categories.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

const taken = {
  ok: false,
  status: 409,
  error: CATEGORY_MESSAGES.nameTaken,
  field: 'name',
} as const;

/**
 * Creates a category with the form's own key as its id. The same form sent again (a double
 * click, a resend) finds its category and changes nothing; names are unique ignoring case and
 * accents, checked under one lock so two staff cannot create the same name at once.
 */
export async function createCategory(
  db: Db,
  input: { id: string; name: string; description: string | null },
): Promise<CategoryChange> {
  return db.transaction(async (tx) => {
    await lockCategories(tx);
    const [existing] = await tx
      .select({ name: categories.name, description: categories.description })
      .from(categories)
      .where(eq(categories.id, input.id));
    if (existing) {
      return existing.name === input.name && existing.description === input.description
        ? ({ ok: true, id: input.id } as const)
        : ({ ok: false, status: 409, error: CATEGORY_MESSAGES.formReused } as const);
    }
    if (await nameTaken(tx, input.name)) return taken;
    await tx.insert(categories).values(input).onConflictDoNothing({ target: categories.id });
    return { ok: true, id: input.id } as const;
  });
}

export async function updateCategory(
  db: Db,
  input: { id: string; name: string; description: string | null },
): Promise<CategoryChange> {
  return db.transaction(async (tx) => {
    await lockCategories(tx);
    if (await nameTaken(tx, input.name, input.id)) return taken;
    const [updated] = await tx
      .update(categories)
      .set({ name: input.name, description: input.description })
      .where(eq(categories.id, input.id))
      .returning({ id: categories.id });
    return updated
      ? ({ ok: true, id: updated.id } as const)
      : ({ ok: false, status: 404, error: CATEGORY_MESSAGES.notFound } as const);
  });
}

/** 'Selecionada': featured categories are the home page's filters (see listCategories' featuredOnly). */
export async function setCategoryFeatured(
  db: Db,
  input: { id: string; featured: boolean },
): Promise<CategoryChange> {
  const [updated] = await db
    .update(categories)
    .set({ featured: input.featured })
    .where(eq(categories.id, input.id))
    .returning({ id: categories.id });
  return updated
    ? { ok: true, id: updated.id }
    : { ok: false, status: 404, error: CATEGORY_MESSAGES.notFound };
}

export type ProductsOfDeleted = { action: 'move'; targetId: string } | { action: 'detach' };

/**
 * Deletes a category. Its products never lose their category silently: with products and no
 * choice it refuses (409, saying how many); otherwise they move to `targetId` or stay without
 * a category. The category's row lock keeps products from joining it meanwhile (their foreign
 * key check waits for it), so the count and the move see the same products; the categories'
 * lock makes deletes take turns, so two moving products into each other's category cannot
 * deadlock.
 */
export async function deleteCategory(
  db: Db,
  input: { id: string; products?: ProductsOfDeleted },
): Promise<CategoryChange & { moved?: number }> {
  return db.transaction(async (tx) => {
    await lockCategories(tx);
    const [category] = await tx
      .select({ id: categories.id })
      .from(categories)
      .where(eq(categories.id, input.id))
      .for('update');
    if (!category) return { ok: false, status: 404, error: CATEGORY_MESSAGES.notFound } as const;
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(products)
      .where(eq(products.categoryId, input.id));
    let moved = 0;
    if (n > 0) {
      const choice = input.products;
      if (!choice) {
        return {
          ok: false,
          status: 409,
          error: `${productCountSentence(n)} ${CATEGORY_MESSAGES.productsChoice}`,
          field: 'products',
        } as const;
      }
      if (choice.action === 'move') {
        if (choice.targetId === input.id) {
          return {
            ok: false,
            status: 400,
            error: CATEGORY_MESSAGES.moveTargetSame,
            field: 'targetId',
          } as const;
        }
        const [target] = isUuid(choice.targetId)
          ? await tx
              .select({ id: categories.id })
              .from(categories)
              .where(eq(categories.id, choice.targetId))
              .for('share')
          : [];
        if (!target) {
          return {
            ok: false,
            status: 409,
            error: CATEGORY_MESSAGES.moveTargetMissing,
            field: 'targetId',
          } as const;
        }
        const rows = await tx
          .update(products)
          .set({ categoryId: target.id, updatedAt: new Date() })
          .where(eq(products.categoryId, input.id))
          .returning({ id: products.id });
        moved = rows.length;
      } else {
        await tx
          .update(products)
          .set({ categoryId: null, updatedAt: new Date() })
          .where(eq(products.categoryId, input.id));
      }
    }
    await tx.delete(categories).where(eq(categories.id, input.id));
    return { ok: true, id: input.id, moved } as const;
  });
}
