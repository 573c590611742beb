import { useCallback, useMemo, useSyncExternalStore } from 'react';

/** localStorage key holding the shopper's favourite product ids (a JSON list). */
export const WISHLIST_KEY = 'vitrine:wishlist';

// A tab does not receive its own "storage" events; this one tells the other buttons in it.
const CHANGE_EVENT = 'vitrine:wishlist-change';
// Anything beyond this is a runaway list, not a shopper's favourites.
const MAX_ITEMS = 500;

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The ids stored under the key; anything unreadable (edited by hand, old format) counts as empty. */
export function parseWishlist(raw: string | null): string[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const ids = value.filter((item): item is string => typeof item === 'string' && item !== '');
  return [...new Set(ids)].slice(0, MAX_ITEMS);
}

function browserStorage(): KeyValueStorage | null {
  // Blocked storage (privacy settings, some embedded browsers) throws on access.
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function readWishlist(storage = browserStorage()): string[] {
  try {
    return parseWishlist(storage?.getItem(WISHLIST_KEY) ?? null);
  } catch {
    return [];
  }
}

/** Adds or removes the id; answers whether it is a favourite afterwards (unchanged if storage fails). */
export function toggleWishlist(id: string, storage = browserStorage()): boolean {
  const current = readWishlist(storage);
  const wasFavourite = current.includes(id);
  const next = wasFavourite ? current.filter((item) => item !== id) : [id, ...current];
  try {
    if (!storage) return wasFavourite;
    storage.setItem(WISHLIST_KEY, JSON.stringify(next.slice(0, MAX_ITEMS)));
  } catch {
    return wasFavourite;
  }
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CHANGE_EVENT));
  return !wasFavourite;
}

/**
 * Makes the browser's favourites these (the account's, after joining the browser's with them):
 * a signed-in shopper finds the same favourites on every device.
 */
export function replaceWishlist(ids: readonly string[], storage = browserStorage()): void {
  try {
    if (!storage) return;
    storage.setItem(WISHLIST_KEY, JSON.stringify([...new Set(ids)].slice(0, MAX_ITEMS)));
  } catch {
    return;
  }
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CHANGE_EVENT));
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === WISHLIST_KEY || event.key === null) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

/**
 * Whether the product is a favourite in this browser, kept in step with other tabs. The server
 * (and the first render in the browser) say "not a favourite", so hydration always matches.
 */
export function useWishlisted(id: string): boolean {
  const getSnapshot = useCallback(() => readWishlist().includes(id), [id]);
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}

function readRaw(): string {
  try {
    return browserStorage()?.getItem(WISHLIST_KEY) ?? '';
  } catch {
    return '';
  }
}

/**
 * Every favourite id in this browser, newest first, kept in step with other tabs; null on the
 * server and in the first render in the browser, which cannot know them.
 */
export function useWishlistIds(): string[] | null {
  // The stored text is the snapshot: a string compares by value, a parsed list would not.
  const raw = useSyncExternalStore(subscribe, readRaw, () => null);
  return useMemo(() => (raw === null ? null : parseWishlist(raw)), [raw]);
}
