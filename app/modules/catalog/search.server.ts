import { and, asc, count, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';

import type { Db } from '~/db/database.server';
import { fold, foldedContains, foldedWords } from '~/db/search';
import { createVersionCache } from '~/db/version-cache.server';
import { isUuid } from '~/lib/uuid';

import { countProductsCached, type CatalogueChanges } from './count-cache.server';
import { categories, products } from './schema';
import { selectProducts } from './select.server';
import type {
  CatalogPage,
  CatalogQuery,
  CatalogSort,
  Category,
  ListQuery,
  OptionFacet,
  OptionFilter,
  Product,
} from './types';

const MAX_WORDS = 8;
// Letters (with their accents, also typed as separate marks) and digits.
const WORD = /^[\p{L}\p{M}\p{N}]+$/u;

// products.search_text comes from migration 0002_catalog_search; name_folded and name_words
// (the name folded, and as ' word word …') from 0010_product_name_search; search_vector (the
// Portuguese stems of the name and description) and name_stems (the name's, as ' stem stem … ')
// from 0016_portuguese_search (ADR 024).
const searchText = sql`${products}.search_text`;
const nameFolded = sql`${products}.name_folded`;
const nameWords = sql`${products}.name_words`;
const searchVector = sql`${products}.search_vector`;
const nameStems = sql`${products}.name_stems`;

function words(q: string | undefined): string[] {
  return (q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
}

/** What the database makes of a text typed (migration 0016). */
interface Stemmed {
  /** Folded and in the singular ('fones' → 'fone', 'limoes' → 'limao'); '' when it is one. */
  singular: string;
  /** Its Portuguese stems one space apart, stopwords as they are ('fon de ouv'); '' for none. */
  stems: string;
  /** The tsquery of its stems, as text ("'fon' & 'ouv'"); '' for none (a stopword). */
  query: string;
}

/** The words typed, and the whole phrase, with their stems. */
type Terms = Map<string, Stemmed>;

// A text stems the same whatever the catalogue holds, so the stems of the searches asked
// again (a page asks twice: the count and the rows) are not asked of the database again.
const MAX_STEMMED = 5_000;
const stemmed = new Map<string, Stemmed>();

/**
 * The stems of a search's words and phrase, in one small query before the search's own: left in
 * the search's SQL, PostgreSQL computed them while planning each query that holds them, which
 * made planning several times slower than the search itself on PGlite (ADR 024).
 */
async function stemTerms(db: Db, q: string | undefined): Promise<Terms> {
  const typed = words(q);
  const texts = [...new Set([...typed, typed.join(' ')])].filter(Boolean);
  const missing = texts.filter((text) => !stemmed.has(text));
  if (missing.length > 0) {
    // Each text by its place in the list: what comes back may be spelled otherwise (a lone
    // surrogate arrives as U+FFFD).
    const result = await db.execute(sql`
      select n,
        coalesce(nullif(vitrine_singular(vitrine_fold(text)), vitrine_fold(text)), '') as singular,
        vitrine_stems(vitrine_singular(vitrine_fold(text))) as stems,
        plainto_tsquery('pg_catalog.portuguese', vitrine_singular(vitrine_fold(text)))::text as query
      from (values ${sql.join(
        missing.map((text, n) => sql`(${n}::int, ${text}::text)`),
        sql`, `,
      )}) as typed(n, text)`);
    const rows = (result as unknown as { rows: (Stemmed & { n: number })[] }).rows;
    for (const { n, singular, stems, query } of rows) {
      if (stemmed.size >= MAX_STEMMED) stemmed.delete(stemmed.keys().next().value!);
      stemmed.set(missing[n]!, { singular, stems, query });
    }
  }
  return new Map(
    texts.map((text) => [text, stemmed.get(text) ?? { singular: '', stems: '', query: '' }]),
  );
}

/**
 * A word typed is found inside a word of the name or description, as the shopper types it
 * ('tecl' finds "Teclado", 'fone' "Microfone"), or, when it is a word (letters and digits
 * only), as a Portuguese word, plural or singular ('fones' finds "Fone", 'Teclados' "teclado").
 * Inside a word, the plural also finds what its singular finds ('fones' finds "Microfone", as
 * 'fone' does), so that the singular and the plural find the same products. All are read off an
 * index. What holds punctuation ('cabo_usb', '100%') is only searched literally.
 */
function wordMatches(word: string, terms: Terms): SQL {
  const { query } = terms.get(word)!;
  const inside = containsWord(searchText, word, terms);
  if (!WORD.test(word) || query === '') return inside;
  return sql`(${inside} or ${searchVector} @@ ${query}::tsquery)`;
}

/** `text` (folded) holds `word` as typed or, when it is a word, its singular. */
function containsWord(text: SQL, word: string, terms: Terms): SQL {
  const literal = foldedContains(text, word);
  const { singular } = terms.get(word)!;
  if (!WORD.test(word) || singular === '') return literal;
  return sql`(${literal} or ${foldedContains(text, singular)})`;
}

// A variant's value of the product's option n (0-based) is in option<n+1>; the option's name is
// in the product's options array.
const OPTION_COLUMNS = [sql`v.option1`, sql`v.option2`, sql`v.option3`];

/** The variant `v` has one of `values` of the product's option `name`. */
function variantHas(name: string, values: string[]): SQL {
  const list = sql.join(
    values.map((value) => sql`${value}::text`),
    sql`, `,
  );
  return sql`(${sql.join(
    OPTION_COLUMNS.map(
      (column, n) =>
        sql`(${products.options}->${n}::int->>'name' = ${name}::text and ${column} in (${list}))`,
    ),
    sql` or `,
  )})`;
}

/**
 * Products with a variant in stock holding one of the values asked of every option named: one
 * variant has them all (a G that is sold out in blue does not match 'G' and 'Azul' through a
 * blue M).
 */
function optionsMatch(options: OptionFilter): SQL | undefined {
  const named = Object.entries(options).filter(([, values]) => values.length > 0);
  if (named.length === 0) return undefined;
  return sql`exists (select 1 from product_variants v
    where v.product_id = ${products.id} and v.stock_quantity > 0
    and ${and(...named.map(([name, values]) => variantHas(name, values)))})`;
}

function filters(query: ListQuery, terms: Terms): SQL | undefined {
  const conditions: SQL[] = words(query.q).map((word) => wordMatches(word, terms));
  if (query.categoryId !== undefined) {
    // A malformed id matches no category instead of making PostgreSQL fail.
    conditions.push(
      isUuid(query.categoryId) ? eq(products.categoryId, query.categoryId) : sql`false`,
    );
  }
  if (query.minCents !== undefined) conditions.push(gte(products.fromPriceCents, query.minCents));
  if (query.maxCents !== undefined) conditions.push(lte(products.fromPriceCents, query.maxCents));
  const options = query.options && optionsMatch(query.options);
  if (options) conditions.push(options);
  return and(...conditions);
}

// Each order matches an index (see schema.ts and migration 0002), so a page is read off the
// index and the scan stops once the page is full, instead of sorting every match. (A window
// count in the same query would defeat that: it needs every matching row.) The price order and
// the price filters read the cheapest variant's price, the one the card shows, which the
// database keeps on the product (migration 0023) to be indexed.
const ORDER: Record<Exclude<CatalogSort, 'relevance'>, SQL[]> = {
  newest: [desc(products.createdAt), desc(products.id)],
  'price-asc': [asc(products.fromPriceCents), asc(products.id)],
  'price-desc': [desc(products.fromPriceCents), desc(products.id)],
  name: [asc(fold(sql`${products.name}`)), asc(products.id)],
};

/**
 * How well a product's name answers a search, best first (0). Only the rows the search already
 * matched get ranked, so no index is needed. Each rule holds for the words as typed (folded) or
 * for their Portuguese stems ('fones de ouvido' starts "Fone de Ouvido…"):
 *   0 the name starts with what was typed ("fone de" → "Fone de Ouvido…")
 *   1 the name holds it as a phrase from a word start
 *   2 every word typed starts a word of the name ("fone" in "Fone…", not in "Microfone"), or is
 *     one of its words in another number ("fones")
 *   3 every word is somewhere in the name, inside a word ("Microfone") included
 *   4 some words are in the name, the others only in the description
 *   5 the description alone matched
 */
function relevance(q: string, terms: Terms): SQL {
  const typed = words(q);
  // The name as ' word word …', so that '% word' finds a word start anywhere.
  const startsWord = (text: string, where: 'name' | 'word'): SQL => {
    const key = foldedWords(text);
    const before = where === 'name' ? ' ' : '% ';
    // A search of punctuation alone folds to nothing, which would match every name.
    return sql`(${key} <> '' and ${nameWords} like ${before} || ${key} || '%')`;
  };
  // The same on the name's stems as ' stem stem … ', whole stems only: 'fon' is not 'font'.
  const hasStems = (text: string, where: 'name' | 'word'): SQL => {
    const { stems } = terms.get(text)!;
    if (stems === '') return sql`false`;
    return sql`${nameStems} like ${`${where === 'name' ? ' ' : '% '}${stems} %`}`;
  };
  const either = (text: string, where: 'name' | 'word') =>
    sql`(${startsWord(text, where)} or ${hasStems(text, where)})`;
  const phrase = typed.join(' ');
  const inName = typed.map(
    (word) => sql`(${containsWord(nameFolded, word, terms)} or ${hasStems(word, 'word')})`,
  );
  return sql`case
    when ${either(phrase, 'name')} then 0
    when ${either(phrase, 'word')} then 1
    when ${and(...typed.map((word) => either(word, 'word')))} then 2
    when ${and(...inName)} then 3
    when ${or(...inName)} then 4
    else 5 end`;
}

function order(query: ListQuery, terms: Terms): SQL[] {
  const sort = query.sort ?? 'newest';
  if (sort !== 'relevance') return ORDER[sort];
  // Relevance without a search has nothing to rank: the newest first, like the default.
  if (words(query.q).length === 0) return ORDER.newest;
  return [asc(relevance(query.q!, terms)), ...ORDER.newest];
}

/** The filters' identity for the count cache: what `filters` reads, the search as matched. */
function filterKey(query: ListQuery): string {
  const { categoryId = null, minCents = null, maxCents = null, options = {} } = query;
  return JSON.stringify([words(query.q), categoryId, minCents, maxCents, options]);
}

async function rows(db: Db, query: ListQuery, offset: number, limit: number): Promise<Product[]> {
  const terms = await stemTerms(db, query.q);
  return selectProducts(db)
    .where(filters(query, terms))
    .orderBy(...order(query, terms))
    .limit(limit)
    .offset(offset);
}

/** How many products `query` matches; with `changes`, counted once per catalogue version. */
export function countProducts(
  db: Db,
  query: ListQuery,
  changes?: CatalogueChanges,
): Promise<number> {
  return countProductsCached(changes, filterKey(query), async () => {
    const terms = await stemTerms(db, query.q);
    const [row] = await db.select({ total: count() }).from(products).where(filters(query, terms));
    return row?.total ?? 0;
  });
}

interface FacetRow {
  position: number;
  name: string;
  value: string;
  count: number;
}

/** How many products matching `query` have each option value in stock. */
async function facetRows(db: Db, query: ListQuery): Promise<FacetRow[]> {
  const terms = await stemTerms(db, query.q);
  const where = filters(query, terms);
  // Values in the order of a product that has them (sizes P, M, G, not alphabetical), those of one
  // product together (a rug's sizes apart from a shirt's): its place is read from one such
  // product, once per value, after the counting.
  const result = await db.execute(sql`
    with counted as (
      select min(o.n)::int as position, o.name, o.value,
        count(distinct ${products.id})::int as count, min(${products.id}::text)::uuid as example
      from ${products}
      join product_variants v on v.product_id = ${products.id} and v.stock_quantity > 0
      cross join lateral (values
        (1, ${products.options}->0->>'name', v.option1),
        (2, ${products.options}->1->>'name', v.option2),
        (3, ${products.options}->2->>'name', v.option3)) as o(n, name, value)
      where o.name is not null and o.value is not null${where ? sql` and ${where}` : sql``}
      group by o.name, o.value)
    select c.position, c.name, c.value, c.count
    from counted c
    left join products e on e.id = c.example
    left join lateral (select min(k) as place
      from jsonb_array_elements(e.options->(c.position - 1)->'values') with ordinality as x(value, k)
      where x.value->>'name' = c.value) as place on true
    order by c.position, c.name, e.created_at desc, e.id, place.place nulls last, c.value`);
  return (result as unknown as { rows: FacetRow[] }).rows;
}

// Option filters, keyed like the counts: each is a scan of the matching products' variants.
const facetLists = createVersionCache<OptionFacet[]>({ maxEntries: 500, maxAgeMs: 5 * 60_000 });

/**
 * The option values the listing offers to narrow `query` to, with how many of its products
 * have each in stock. The values of an option already chosen are counted without that choice
 * (so its other values stay offered, as alternatives); a chosen value stays listed, to be
 * taken off. With `changes`, read once per catalogue version.
 */
export function optionFacets(
  db: Db,
  query: ListQuery,
  changes?: CatalogueChanges,
): Promise<OptionFacet[]> {
  return facetLists(changes, filterKey(query), async () => {
    const chosen = query.options ?? {};
    const chosenNames = Object.keys(chosen).filter((name) => chosen[name]!.length > 0);
    const [free, ...perChosen] = await Promise.all([
      facetRows(db, query),
      ...chosenNames.map((name) => {
        const { [name]: _, ...others } = chosen;
        return facetRows(db, { ...query, options: others });
      }),
    ]);
    const rows = [
      ...free!.filter((row) => !chosenNames.includes(row.name)),
      ...perChosen.flatMap((list, n) => list.filter((row) => row.name === chosenNames[n])),
    ].sort((a, b) => a.position - b.position);
    const facets = new Map<string, OptionFacet>();
    const facet = (name: string) => {
      let found = facets.get(name);
      if (!found) facets.set(name, (found = { name, values: [] }));
      return found;
    };
    for (const row of rows) {
      facet(row.name).values.push({
        value: row.value,
        count: row.count,
        selected: chosen[row.name]?.includes(row.value) ?? false,
      });
    }
    for (const name of chosenNames) {
      for (const value of chosen[name]!) {
        const values = facet(name).values;
        if (!values.some((entry) => entry.value === value))
          values.push({ value, count: 0, selected: true });
      }
    }
    return [...facets.values()];
  });
}

/**
 * One page of the catalogue: filtered, sorted and paged by the database. With `changes` (the
 * storefront's), the total is counted once per catalogue version and filters (see
 * countProductsCached); without (the admin, which must see its own writes at once), every time.
 */
export async function searchProducts(
  db: Db,
  query: CatalogQuery,
  changes?: CatalogueChanges,
): Promise<CatalogPage> {
  const perPage = Number.isInteger(query.perPage) ? Math.max(1, query.perPage) : 1;
  const total = await countProducts(db, query, changes);
  const maxPage = Number.isInteger(query.maxPage) ? Math.max(1, query.maxPage!) : Infinity;
  const pageCount = Math.min(Math.max(1, Math.ceil(total / perPage)), maxPage);
  const asked = Number.isInteger(query.page) ? query.page! : 1;
  const page = Math.min(Math.max(1, asked), pageCount);
  const found = total === 0 ? [] : await rows(db, query, (page - 1) * perPage, perPage);
  return { products: found, total, page, pageCount };
}

/**
 * The first `limit` products in the catalogue's order, without the count a page of it needs:
 * for a page that shows no total (the home page's featured products).
 */
export function listProducts(db: Db, query: ListQuery, limit: number): Promise<Product[]> {
  return rows(db, query, 0, limit);
}

// Four lists at most: every category, or the featured ones, with or without products.
const categoryLists = createVersionCache<Category[]>({ maxEntries: 4, maxAgeMs: 5 * 60_000 });

/**
 * Every category, in the order a Brazilian reads them (accents and case ignored). With
 * `featuredOnly` (the home page's pills), only the featured ('Selecionada') ones, or every one
 * while none is featured; with `withProducts` (the storefront's menu), only those that hold a
 * product, so that no link leads to an empty page. With `changes` (the storefront's), read once
 * per catalogue version.
 */
export function listCategories(
  db: Db,
  options: { featuredOnly?: boolean; withProducts?: boolean } = {},
  changes?: CatalogueChanges,
): Promise<Category[]> {
  const { featuredOnly = false, withProducts = false } = options;
  return categoryLists(changes, JSON.stringify([featuredOnly, withProducts]), () =>
    db
      .select({ id: categories.id, name: categories.name, slug: categories.slug })
      .from(categories)
      .where(
        and(
          featuredOnly
            ? sql`(${categories.featured} or not exists (select 1 from ${categories} where ${categories.featured}))`
            : undefined,
          withProducts
            ? sql`exists (select 1 from ${products} where ${products.categoryId} = ${categories.id})`
            : undefined,
        ),
      )
      .orderBy(asc(fold(sql`${categories.name}`)), asc(categories.name), asc(categories.id)),
  );
}
