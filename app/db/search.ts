import { sql, type SQL } from 'drizzle-orm';

// vitrine_fold() (migration 0002) lowercases and strips accents; the search_text columns hold
// text already folded by it.

/** `value` folded as the search_text columns are. */
export const fold = (value: SQL | string): SQL => sql`vitrine_fold(${value})`;

/**
 * `value` folded, with each run of anything but a letter or digit as one space: 'USB-C  Pró' →
 * 'usb c pro'. Holds no LIKE wildcard, so it can sit in a pattern as it is.
 */
export const foldedWords = (value: SQL | string): SQL =>
  sql`trim(regexp_replace(${fold(value)}, '[^a-z0-9]+', ' ', 'g'))`;

/** `%`, `_` and `\` typed in a search box are searched for literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** `searchText` (folded) contains `word`, whatever its accents and case. */
export function foldedContains(searchText: SQL, word: string): SQL {
  return sql`${searchText} like '%' || ${fold(escapeLike(word))} || '%' escape '\\'`;
}

// vitrine_singular() and vitrine_stems() come from migration 0016_portuguese_search (ADR 024).

/** `value` folded and reduced to its Portuguese stems, one space apart: 'Fones de ouvido' → 'fon de ouv'. */
export const stems = (value: SQL | string): SQL =>
  sql`vitrine_stems(vitrine_singular(${fold(value)}))`;

/**
 * `searchVector` (a products.search_vector) holds every stem of `word`: 'fones' finds "Fone",
 * 'Teclados' finds "teclado". A stopword ('de') has no stem and matches nothing here.
 */
export function stemMatches(searchVector: SQL, word: string): SQL {
  const query = sql`plainto_tsquery('pg_catalog.portuguese', vitrine_singular(${fold(word)}))`;
  // An empty query would match nothing anyway, but PostgreSQL says so in a notice per search.
  return sql`(numnode(${query}) > 0 and ${searchVector} @@ ${query})`;
}
