import { afterEach, describe, expect, it, vi } from 'vitest';

import { createVersionCache, type FeedVersion } from './version-cache.server';

/** A feed whose version and liveness the test moves. */
function feed() {
  const state = { version: 1, live: true };
  const changes: FeedVersion = { version: () => state.version, live: () => state.live };
  return { state, changes };
}

/** A load that answers `value` and tells how often it ran. */
const loader = <T>(value: T) => vi.fn(async () => value);

const cache = () => createVersionCache<number>({ maxEntries: 3, maxAgeMs: 5 * 60_000 });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createVersionCache', () => {
  it('runs one load for the requests that ask while it runs', async () => {
    const cached = cache();
    const { changes } = feed();
    const load = loader(7);
    expect(await Promise.all([cached(changes, 'k', load), cached(changes, 'k', load)])).toEqual([
      7, 7,
    ]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads again once the version moves, and every time while the feed is not live', async () => {
    const cached = cache();
    const { state, changes } = feed();
    const load = loader(7);
    await cached(changes, 'k', load);
    state.version = 2;
    await cached(changes, 'k', load);
    await cached(changes, 'k', load);
    expect(load).toHaveBeenCalledTimes(2);
    state.live = false;
    await cached(changes, 'k', load);
    await cached(changes, 'k', load);
    expect(load).toHaveBeenCalledTimes(4);
    await cached(undefined, 'k', load);
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('does not keep a failed load, nor a value `keep` refuses', async () => {
    const cached = cache();
    const { changes } = feed();
    const failing = vi.fn(async () => {
      throw new Error('database gone');
    });
    await expect(cached(changes, 'k', failing)).rejects.toThrow('database gone');
    expect(await cached(changes, 'k', loader(3))).toBe(3);

    const positive = createVersionCache<number>({
      maxEntries: 3,
      maxAgeMs: 60_000,
      keep: (value) => value > 0,
    });
    const zero = loader(0);
    await positive(changes, 'k', zero);
    await positive(changes, 'k', zero);
    expect(zero).toHaveBeenCalledTimes(2);
  });

  it('loads again after its age limit, even when nothing was announced', async () => {
    const cached = cache();
    const { changes } = feed();
    const load = loader(7);
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    await cached(changes, 'k', load);
    now.mockReturnValue(1_000_000 + 5 * 60_000 - 1);
    await cached(changes, 'k', load);
    expect(load).toHaveBeenCalledTimes(1);
    now.mockReturnValue(1_000_000 + 5 * 60_000);
    await cached(changes, 'k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const cached = cache();
    const { changes } = feed();
    const load = loader(7);
    for (const key of ['0', '1', '2']) await cached(changes, key, load);
    // Used again, so the next one to go is '1'.
    await cached(changes, '0', load);
    await cached(changes, 'one too many', load);
    expect(load).toHaveBeenCalledTimes(4);

    await cached(changes, '0', load);
    expect(load).toHaveBeenCalledTimes(4);
    await cached(changes, '1', load);
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('keeps each feed apart', async () => {
    const cached = cache();
    const load = loader(7);
    await cached(feed().changes, 'k', load);
    await cached(feed().changes, 'k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
