/**
 * Counts actions per key (an IP address) in a sliding minute, in this process's memory: enough to
 * stop one client hammering an expensive action, without a shared store. Several instances each
 * allow the limit, which is fine for that purpose.
 */
export interface RateLimiter {
  /** Records one attempt; false when the key already used its allowance this minute. */
  attempt(key: string): boolean;
}

const WINDOW_MS = 60_000;
// A flood of distinct keys must not grow memory without bound.
const MAX_KEYS = 50_000;

export function createRateLimiter(perMinute: number, now: () => number = Date.now): RateLimiter {
  const hits = new Map<string, number[]>();
  return {
    attempt(key) {
      const time = now();
      const recent = (hits.get(key) ?? []).filter((at) => time - at < WINDOW_MS);
      if (recent.length >= perMinute) {
        hits.set(key, recent);
        return false;
      }
      recent.push(time);
      hits.delete(key);
      hits.set(key, recent);
      if (hits.size > MAX_KEYS) hits.delete(hits.keys().next().value!);
      return true;
    },
  };
}
