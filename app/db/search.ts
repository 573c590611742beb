import { sql, type SQL } from 'drizzle-orm';

// vitrine_fold() (migration 0002) lowercases and strips accents; the search_text columns hold
// text already folded by it.

/** `value` folded as the search_text columns are. */
export const fold = (value: SQL | string): SQL => sql`vitrine_fold(${value})`;

/** `%`, `_` and `\` typed in a search box are searched for literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** `searchText` (folded) contains `word`, whatever its accents and case. */
export function foldedContains(searchText: SQL, word: string): SQL {
  return sql`${searchText} like '%' || ${fold(escapeLike(word))} || '%' escape '\\'`;
}
