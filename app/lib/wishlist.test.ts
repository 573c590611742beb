import { describe, expect, it } from 'vitest';

import { parseWishlist, readWishlist, toggleWishlist, WISHLIST_KEY } from './wishlist';

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe('parseWishlist', () => {
  it('reads a JSON list of ids, dropping duplicates and non-ids', () => {
    expect(parseWishlist('["a","b","a",3,null,"",{"id":"c"}]')).toEqual(['a', 'b']);
  });

  it.each([null, '', 'not json', '{"a":1}', '"a"', '42'])('treats %j as empty', (raw) => {
    expect(parseWishlist(raw)).toEqual([]);
  });

  it('caps a runaway list', () => {
    const ids = Array.from({ length: 600 }, (_, index) => `id-${index}`);
    expect(parseWishlist(JSON.stringify(ids))).toHaveLength(500);
  });
});

describe('toggleWishlist', () => {
  it('adds an id, then removes it, keeping the others', () => {
    const storage = memoryStorage({ [WISHLIST_KEY]: '["other"]' });

    expect(toggleWishlist('p1', storage)).toBe(true);
    expect(readWishlist(storage)).toEqual(['p1', 'other']);
    expect(toggleWishlist('p1', storage)).toBe(false);
    expect(readWishlist(storage)).toEqual(['other']);
  });

  it('starts over when the stored value is unreadable', () => {
    const storage = memoryStorage({ [WISHLIST_KEY]: '{broken' });
    expect(toggleWishlist('p1', storage)).toBe(true);
    expect(storage.values.get(WISHLIST_KEY)).toBe('["p1"]');
  });

  it('reports the unchanged state when storage refuses to write', () => {
    const storage = {
      getItem: () => '["p1"]',
      setItem: () => {
        throw new DOMException('Quota exceeded', 'QuotaExceededError');
      },
    };
    expect(toggleWishlist('p1', storage)).toBe(true);
    expect(toggleWishlist('p2', storage)).toBe(false);
  });

  it('does nothing without storage', () => {
    expect(toggleWishlist('p1', null)).toBe(false);
    expect(readWishlist(null)).toEqual([]);
  });
});
