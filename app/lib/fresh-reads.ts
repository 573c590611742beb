/**
 * Shares reads of one thing among callers who ask at once, without giving anyone an answer read
 * before they asked: while a read is running, everyone who asks waits for the next one, which
 * starts when it ends and serves them all. So a thousand notifications about one payment ask the
 * provider twice, and each is answered with what the provider said after it arrived.
 */
export function freshReads<V>(read: (key: string) => Promise<V>): (key: string) => Promise<V> {
  const running = new Map<string, Promise<V>>();
  const queued = new Map<string, Promise<V>>();

  function start(key: string): Promise<V> {
    const reading = read(key).finally(() => {
      if (running.get(key) === reading) running.delete(key);
    });
    running.set(key, reading);
    return reading;
  }

  return (key) => {
    const waiting = queued.get(key);
    if (waiting) return waiting;
    const current = running.get(key);
    if (!current) return start(key);
    const next = current
      .catch(() => undefined)
      .then(() => {
        queued.delete(key);
        return start(key);
      });
    queued.set(key, next);
    return next;
  };
}
