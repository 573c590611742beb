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
