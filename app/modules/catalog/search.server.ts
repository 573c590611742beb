import { and, asc, count, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';

import { isUuid } from '~/db/columns';
import type { Db } from '~/db/database.server';
import { fold, foldedContains } from '~/db/search';

import { categories, products } from './schema';
import { selectProducts } from './select.server';
import type { CatalogPage, CatalogQuery, CatalogSort, Category } from './types';

const MAX_WORDS = 8;

// products.search_text comes from migration 0002_catalog_search.
const searchText = sql`${products}.search_text`;

function words(q: string | undefined): string[] {
  return (q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
}

function filters(query: CatalogQuery): SQL | undefined {
  const conditions: SQL[] = words(query.q).map((word) => foldedContains(searchText, word));
  if (query.categoryId !== undefined) {
    // A malformed id matches no category instead of making PostgreSQL fail.
    conditions.push(
      isUuid(query.categoryId) ? eq(products.categoryId, query.categoryId) : sql`false`,
    );
  }
  if (query.minCents !== undefined) conditions.push(gte(products.priceCents, query.minCents));
  if (query.maxCents !== undefined) conditions.push(lte(products.priceCents, query.maxCents));
  return and(...conditions);
}

// Each order matches an index (see schema.ts and migration 0002), so a page is read off the
// index and the scan stops once the page is full, instead of sorting every match. (A window
// count in the same query would defeat that: it needs every matching row.)
const ORDER: Record<CatalogSort, SQL[]> = {
  newest: [desc(products.createdAt), desc(products.id)],
  'price-asc': [asc(products.priceCents), asc(products.id)],
  'price-desc': [desc(products.priceCents), desc(products.id)],
  name: [asc(fold(sql`${products.name}`)), asc(products.id)],
};

/** One page of the catalogue: filtered, sorted and paged by the database. */
export async function searchProducts(db: Db, query: CatalogQuery): Promise<CatalogPage> {
  const where = filters(query);
  const perPage = Number.isInteger(query.perPage) ? Math.max(1, query.perPage) : 1;
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(products)
    .where(where);
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const asked = Number.isInteger(query.page) ? query.page! : 1;
  const page = Math.min(Math.max(1, asked), pageCount);
  const rows =
    total === 0
      ? []
      : await selectProducts(db)
          .where(where)
          .orderBy(...ORDER[query.sort ?? 'newest'])
          .limit(perPage)
          .offset((page - 1) * perPage);
  return { products: rows, total, page, pageCount };
}

/**
 * Every category, in the order a Brazilian reads them (accents and case ignored). With
 * `featuredOnly` (the home page's pills), only the featured ('Selecionada') ones, or every one
 * while none is featured.
 */
export async function listCategories(
  db: Db,
  options: { featuredOnly?: boolean } = {},
): Promise<Category[]> {
  return db
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .where(
      options.featuredOnly
        ? sql`${categories.featured} or not exists (select 1 from ${categories} where ${categories.featured})`
        : undefined,
    )
    .orderBy(asc(fold(sql`${categories.name}`)), asc(categories.name), asc(categories.id));
}
