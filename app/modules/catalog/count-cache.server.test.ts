import { afterEach, describe, expect, it, vi } from 'vitest';

import { countProductsCached, MAX_COUNTS, type CatalogueChanges } from './count-cache.server';

const live = (): CatalogueChanges => ({ version: () => 1, live: () => true });

/** A count that answers `total` and tells how often it ran. */
function counter(total = 7) {
  const count = vi.fn(async () => total);
  return count;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('countProductsCached', () => {
  it('runs one count for the requests that ask while it runs', async () => {
    const changes = live();
    const count = counter();
    const answers = await Promise.all([
      countProductsCached(changes, 'k', count),
      countProductsCached(changes, 'k', count),
    ]);
    expect(answers).toEqual([7, 7]);
    expect(count).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed count', async () => {
    const changes = live();
    const failing = vi.fn(async () => {
      throw new Error('database gone');
    });
    await expect(countProductsCached(changes, 'k', failing)).rejects.toThrow('database gone');
    expect(await countProductsCached(changes, 'k', counter(3))).toBe(3);
  });

  it('counts again after five minutes, even when nothing was announced', async () => {
    const changes = live();
    const count = counter();
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    await countProductsCached(changes, 'k', count);
    now.mockReturnValue(1_000_000 + 5 * 60_000 - 1);
    await countProductsCached(changes, 'k', count);
    expect(count).toHaveBeenCalledTimes(1);
    now.mockReturnValue(1_000_000 + 5 * 60_000);
    await countProductsCached(changes, 'k', count);
    expect(count).toHaveBeenCalledTimes(2);
  });

  it('keeps at most MAX_COUNTS filters, dropping the least recently used', async () => {
    const changes = live();
    const count = counter();
    for (let key = 0; key < MAX_COUNTS; key += 1) {
      await countProductsCached(changes, String(key), count);
    }
    // Used again, so the next one to go is '1'.
    await countProductsCached(changes, '0', count);
    await countProductsCached(changes, 'one too many', count);
    expect(count).toHaveBeenCalledTimes(MAX_COUNTS + 1);

    await countProductsCached(changes, '0', count);
    expect(count).toHaveBeenCalledTimes(MAX_COUNTS + 1);
    await countProductsCached(changes, '1', count);
    expect(count).toHaveBeenCalledTimes(MAX_COUNTS + 2);
  });
});
