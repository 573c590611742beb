import { and, asc, count, desc, eq, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import { categories, products } from './schema';
import type { CatalogPage, CatalogQuery, CatalogSort, Category } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_WORDS = 8;

// vitrine_fold() and products.search_text come from migration 0002_catalog_search.
const fold = (value: SQL | string) => sql`vitrine_fold(${value})`;
const searchText = sql`${products}.search_text`;

/** `%`, `_` and `\` typed by the shopper are searched for literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function words(q: string | undefined): string[] {
  return (q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
}

function filters(query: CatalogQuery): { where: SQL | undefined; searchesText: boolean } {
  const typed = words(query.q);
  const conditions: SQL[] = typed.map(
    (word) => sql`${searchText} like '%' || ${fold(escapeLike(word))} || '%' escape '\\'`,
  );
  if (query.categoryId !== undefined) {
    // A malformed id matches no category instead of making PostgreSQL fail.
    conditions.push(
      UUID.test(query.categoryId) ? eq(products.categoryId, query.categoryId) : sql`false`,
    );
  }
  if (query.minCents !== undefined) conditions.push(gte(products.priceCents, query.minCents));
  if (query.maxCents !== undefined) conditions.push(lte(products.priceCents, query.maxCents));
  return { where: and(...conditions), searchesText: typed.length > 0 };
}

// Each order matches an index (see schema.ts and migration 0002), so an unfiltered page is read
// off the index rather than sorting the whole catalogue.
const ORDER: Record<CatalogSort, SQL[]> = {
  newest: [desc(products.createdAt), desc(products.id)],
  'price-asc': [asc(products.priceCents), asc(products.id)],
  'price-desc': [desc(products.priceCents), desc(products.id)],
  name: [asc(fold(sql`${products.name}`)), asc(products.id)],
};

const pageColumns = {
  ...getTableColumns(products),
  category: { id: categories.id, name: categories.name },
};

function pageOf(
  db: Db,
  where: SQL | undefined,
  sort: CatalogSort,
  perPage: number,
  page: number,
  withTotal: boolean,
) {
  // The window count needs every matching row, so it is asked for only when they are all read.
  const total = withTotal ? sql<number>`count(*) over ()` : sql<number>`0`;
  return db
    .select({ ...pageColumns, total: total.mapWith(Number) })
    .from(products)
    .leftJoin(categories, eq(products.categoryId, categories.id))
    .where(where)
    .orderBy(...ORDER[sort])
    .limit(perPage)
    .offset((page - 1) * perPage);
}

async function countOf(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ total: count() }).from(products).where(where);
  return row?.total ?? 0;
}

/** One page of the catalogue: filtered, sorted and paged by the database. */
export async function searchProducts(db: Db, query: CatalogQuery): Promise<CatalogPage> {
  const { where, searchesText } = filters(query);
  const sort = query.sort ?? 'newest';
  const perPage = Number.isInteger(query.perPage) ? Math.max(1, query.perPage) : 1;
  const asked = Number.isInteger(query.page) ? Math.max(1, query.page!) : 1;
  const result = (rows: Awaited<ReturnType<typeof pageOf>>, total: number, page: number) => ({
    products: rows.map(({ total: _, ...product }) => product),
    total,
    page,
    pageCount: Math.max(1, Math.ceil(total / perPage)),
  });

  // A text search scans every product anyway: the window count comes with that one scan.
  if (searchesText) {
    const rows = await pageOf(db, where, sort, perPage, asked, true);
    if (rows.length > 0) return result(rows, rows[0]!.total, asked);
    if (asked === 1) return result([], 0, 1);
  }
  // Otherwise counting first lets the page itself come straight off an index; it also finds
  // the last page when the one asked for is past it.
  const total = await countOf(db, where);
  const page = Math.min(asked, Math.max(1, Math.ceil(total / perPage)));
  const rows = total === 0 ? [] : await pageOf(db, where, sort, perPage, page, false);
  return result(rows, total, page);
}

/** Every category, in the order a Brazilian reads them (accents and case ignored). */
export async function listCategories(db: Db): Promise<Category[]> {
  return db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(fold(sql`${categories.name}`)), asc(categories.name), asc(categories.id));
}
