import { sql } from 'drizzle-orm';

import type { Db } from '~/db/database.server';

import type { CatalogueChanges } from './count-cache.server';
import { products } from './schema';
import { countProducts } from './search.server';
import type { ListQuery } from './types';

interface NameWord {
  /** As the names write it, in lowercase: 'café'. */
  word: string;
  /** How many names hold it: the commoner of two equally close words is suggested. */
  products: number;
}

/** Lowercase without accents, as vitrine_fold() folds (migration 0002). */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

// Words shorter than this are neither corrected nor suggested: too many are one letter apart.
const MIN_LENGTH = 4;
const LETTERS = /[\p{L}\p{M}\p{N}]+/gu;

/** Every word of the products' names with a letter in it, by its folded form. */
async function readNameWords(db: Db): Promise<Map<string, NameWord>> {
  // Split in the database, so that a big catalogue sends each piece once; split again here on
  // anything but letters and digits, in any alphabet ('d’Água' → 'd', 'água').
  const result = await db.execute(sql`
    select piece, count(*)::int as products
    from ${products}, regexp_split_to_table(${products.name}, '[[:space:]]+') as piece
    where length(piece) >= ${MIN_LENGTH} and piece !~ '^[[:digit:][:punct:]]+$'
    group by piece`);
  const pieces = (result as unknown as { rows: { piece: string; products: number }[] }).rows;
  // Per folded word, how many names write it each way ('Café', 'cafe').
  const spellings = new Map<string, Map<string, number>>();
  for (const { piece, products: count } of pieces) {
    for (const found of piece.toLocaleLowerCase('pt-BR').match(LETTERS) ?? []) {
      const key = fold(found);
      if (key.length < MIN_LENGTH || !/\p{L}/u.test(found)) continue;
      const ways = spellings.get(key) ?? new Map<string, number>();
      ways.set(found, (ways.get(found) ?? 0) + count);
      spellings.set(key, ways);
    }
  }
  const words = new Map<string, NameWord>();
  for (const [key, ways] of spellings) {
    const [word] = [...ways].sort((a, b) => b[1] - a[1])[0]!;
    const total = [...ways.values()].reduce((sum, count) => sum + count, 0);
    words.set(key, { word, products: total });
  }
  return words;
}

// Reading every name is the one cost here that grows with the catalogue (about half a second
// with 20,000 products on PGlite), and every sale moves the catalogue's version: so a server
// keeps the list up to 10 minutes whatever changes, and longer while nothing does. A list a
// little behind only misses a new product's words; a suggestion is counted before it is shown.
const LIST_MAX_AGE_MS = 10 * 60_000;
const lists = new WeakMap<
  CatalogueChanges,
  { version: number; read: number; words: Promise<Map<string, NameWord>> }
>();

function nameWords(db: Db, changes: CatalogueChanges | undefined) {
  if (!changes) return readNameWords(db);
  const now = Date.now();
  const version = changes.version();
  const kept = lists.get(changes);
  if (kept && (now - kept.read < LIST_MAX_AGE_MS || (changes.live() && kept.version === version)))
    return kept.words;
  const entry = { version, read: now, words: readNameWords(db) };
  lists.set(changes, entry);
  entry.words.catch(() => {
    if (lists.get(changes) === entry) lists.delete(changes);
  });
  return entry.words;
}

/**
 * The edits (a letter added, removed, changed, or two side by side swapped) between `a` and `b`,
 * or more than `limit` once that is certain.
 */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** The name word closest to `typed` (folded), when one is close enough to be a slip. */
function closest(typed: string, words: Map<string, NameWord>): string | undefined {
  const limit = typed.length >= 6 ? 2 : 1;
  let best: { word: NameWord; distance: number } | undefined;
  for (const [key, word] of words) {
    const edits = distance(typed, key, limit);
    if (edits > limit) continue;
    if (
      !best ||
      edits < best.distance ||
      (edits === best.distance && word.products > best.word.products)
    ) {
      best = { word, distance: edits };
    }
  }
  return best?.word.word;
}

/**
 * For a search that found nothing, the same search with each word that is no word of a product's
 * name replaced by the closest one ('tecaldo' → 'teclado'), when that search finds something
 * with the same filters; undefined otherwise.
 */
export async function suggestSearch(
  db: Db,
  query: ListQuery,
  changes?: CatalogueChanges,
): Promise<string | undefined> {
  const typed = (query.q ?? '').trim().split(/\s+/).filter(Boolean);
  if (typed.length === 0) return undefined;
  const words = await nameWords(db, changes);
  let changed = false;
  const suggested = typed.map((word) => {
    const key = fold(word);
    if (key.length < MIN_LENGTH || !/^[\p{L}\p{N}]+$/u.test(key)) return word;
    // A word as typed, or the start of one ('tecl'), is no slip.
    for (const known of words.keys()) if (known.startsWith(key)) return word;
    const replacement = closest(key, words);
    if (replacement === undefined) return word;
    changed = true;
    return replacement;
  });
  if (!changed) return undefined;
  const suggestion = suggested.join(' ');
  const found = await countProducts(db, { ...query, q: suggestion }, changes);
  return found > 0 ? suggestion : undefined;
}
